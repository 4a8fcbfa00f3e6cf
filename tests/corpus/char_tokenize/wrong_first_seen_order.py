# expect: failed
def char_tokenize(text):
    vocab = "".join(dict.fromkeys(text))
    return vocab, [vocab.index(c) for c in text]
