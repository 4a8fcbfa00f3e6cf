# expect: error, timeout
# message: crash|recursion|stack|memory|time limit
import sys


def sinusoidal_pe(T, C):
    sys.setrecursionlimit(10**8)

    def down(n):
        return down(n + 1) + 1

    return down(0)
