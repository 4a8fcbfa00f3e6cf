# expect: error
# message: TypeError
def sinusoidal_pe(T, C):
    return T + "C"
