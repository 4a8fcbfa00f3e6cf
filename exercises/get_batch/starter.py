def get_batch():
    raise NotImplementedError
