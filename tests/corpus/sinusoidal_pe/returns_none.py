# expect: failed
def sinusoidal_pe(T, C):
    pass
