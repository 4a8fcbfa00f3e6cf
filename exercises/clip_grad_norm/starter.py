def clip_grad_norm():
    raise NotImplementedError
