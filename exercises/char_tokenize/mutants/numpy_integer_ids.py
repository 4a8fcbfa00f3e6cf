# Returns a list of numpy integers (np.unique's inverse indices) instead of Python ints.
import numpy as np


def char_tokenize(text):
    chars, inverse = np.unique(np.array(list(text), dtype=str), return_inverse=True)
    return "".join(chars), list(inverse)
