# Puts the most frequent characters first instead of sorting the vocabulary by code point.
from collections import Counter


def char_tokenize(text):
    vocab = "".join(c for c, _ in Counter(text).most_common())
    return vocab, [vocab.index(c) for c in text]
