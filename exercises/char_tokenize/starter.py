def char_tokenize(text):
    """A character-level tokenizer: the vocabulary of text and the id of each of its characters.

    Args:
        text: a Python str (any characters, possibly empty).

    Returns:
        A tuple (vocab, ids):
            vocab: a str holding each distinct character of text once, sorted by code point.
            ids: a Python list of Python ints, one per character of text:
                ids[t] = vocab.index(text[t]), so "".join(vocab[i] for i in ids) == text.
    """
    # TODO: sort the distinct characters into a string, then look up the index of each character.
    raise NotImplementedError
