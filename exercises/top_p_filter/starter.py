def top_p_filter():
    raise NotImplementedError
