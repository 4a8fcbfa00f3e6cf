# expect: error
# message: RecursionError
def sinusoidal_pe(T, C):
    return sinusoidal_pe(T + 1, C)
