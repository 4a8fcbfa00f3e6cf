# expect: error
# message: exit
import sys


def sinusoidal_pe(T, C):
    sys.exit(0)
