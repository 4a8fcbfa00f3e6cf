# expect: error
# Raises a ValueError whose message is 10 MB long.
def sinusoidal_pe(T, C):
    raise ValueError("x" * 10_000_000)
