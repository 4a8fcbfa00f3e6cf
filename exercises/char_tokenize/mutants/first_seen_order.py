# Keeps the characters in the order they first appear in the text instead of sorting them by code point.
def char_tokenize(text):
    vocab = "".join(dict.fromkeys(text))
    return vocab, [vocab.index(c) for c in text]
