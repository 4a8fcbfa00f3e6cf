def adamw_step():
    raise NotImplementedError
