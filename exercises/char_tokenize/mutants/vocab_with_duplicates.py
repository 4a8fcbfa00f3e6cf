# Sorts every character of the text without taking the distinct ones first: repeated characters stay in vocab.
def char_tokenize(text):
    vocab = "".join(sorted(text))
    return vocab, [vocab.index(c) for c in text]
