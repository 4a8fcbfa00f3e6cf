def attention_with_cache():
    raise NotImplementedError
