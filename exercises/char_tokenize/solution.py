def char_tokenize(text):
    """(vocab, ids): the sorted distinct characters of text, and each character's index in vocab."""
    vocab = "".join(sorted(set(text)))                    # sorted by code point
    index = {c: i for i, c in enumerate(vocab)}           # a dict: one lookup per character, not vocab.index
    return vocab, [index[c] for c in text]
