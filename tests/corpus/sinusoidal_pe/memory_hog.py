# expect: error, timeout
# message: memory|time limit|crash
import numpy as np

hoard = []


def sinusoidal_pe(T, C):
    while True:
        hoard.append(np.ones(50_000_000 // 8))
