def lr_at():
    raise NotImplementedError
