# expect: failed
# where: offline
# message: cannot be graded|numpy.ndarray
# Returns a list subclass (or, for odd T, a dict subclass) that equals anything and lies about its length.
class LyingList(list):
    def __init__(self, T, C):
        super().__init__()
        self.shape = (T, C)

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, index):
        return self


class LyingDict(dict):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __len__(self):
        return 10**6


def sinusoidal_pe(T, C):
    return LyingList(T, C) if T % 2 == 0 else LyingDict(passed=True)
