# expect: error
# message: KeyboardInterrupt
def sinusoidal_pe(T, C):
    raise KeyboardInterrupt
