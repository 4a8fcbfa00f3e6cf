# Returns the ids as a numpy array instead of a Python list.
import numpy as np


def char_tokenize(text):
    vocab = "".join(sorted(set(text)))
    return vocab, np.array([vocab.index(c) for c in text], dtype=np.int64)
