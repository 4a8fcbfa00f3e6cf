# expect: passed
def char_tokenize(text):
    vocab = ""
    for c in sorted(set(text)):
        vocab += c
    return vocab, [vocab.index(c) for c in text]
