# expect: error
# Raises a ValueError subclass whose __str__ raises and whose __repr__ never returns.
class Unprintable(ValueError):
    def __str__(self):
        raise RuntimeError("no text for this exception")

    def __repr__(self):
        while True:
            pass


def sinusoidal_pe(T, C):
    raise Unprintable("hidden")
