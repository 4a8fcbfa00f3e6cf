# expect: failed
# message: numpy.ndarray
import math


def sinusoidal_pe(T, C):
    return [[math.sin(t / 10000 ** (2 * (c // 2) / C)) if c % 2 == 0 else math.cos(t / 10000 ** (2 * (c // 2) / C))
             for c in range(C)] for t in range(T)]
