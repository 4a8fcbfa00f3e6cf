def gpt_step():
    raise NotImplementedError
