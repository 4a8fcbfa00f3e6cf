def bpe_train():
    raise NotImplementedError
