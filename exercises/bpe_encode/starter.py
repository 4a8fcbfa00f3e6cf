def bpe_encode():
    raise NotImplementedError
