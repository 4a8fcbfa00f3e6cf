# Returns the vocabulary as the list sorted(set(text)) gives, not joined into a string.
def char_tokenize(text):
    vocab = sorted(set(text))
    return vocab, [vocab.index(c) for c in text]
