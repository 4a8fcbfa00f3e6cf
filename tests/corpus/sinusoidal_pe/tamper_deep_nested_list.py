# expect: failed, error
# where: offline
# Returns a list nested 10000 levels deep, to overflow whatever encodes, compares or prints it.
def sinusoidal_pe(T, C):
    nested = [0.0]
    for _ in range(10_000):
        nested = [nested]
    return nested
