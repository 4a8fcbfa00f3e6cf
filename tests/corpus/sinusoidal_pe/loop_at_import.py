# expect: timeout
# message: while loading your code
n = 0
while True:
    n += 1


def sinusoidal_pe(T, C):
    return None
