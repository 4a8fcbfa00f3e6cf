# Numbers the characters from 1 instead of 0.
def char_tokenize(text):
    vocab = "".join(sorted(set(text)))
    return vocab, [vocab.index(c) + 1 for c in text]
