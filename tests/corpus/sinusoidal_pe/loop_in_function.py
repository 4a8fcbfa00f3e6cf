# expect: timeout
# message: time limit
def sinusoidal_pe(T, C):
    while True:
        pass
