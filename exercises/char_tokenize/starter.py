def char_tokenize():
    raise NotImplementedError
