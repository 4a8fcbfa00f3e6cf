def train_step():
    raise NotImplementedError
