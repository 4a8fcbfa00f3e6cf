# expect: error
# message: exit
import os


def sinusoidal_pe(T, C):
    os._exit(0)
