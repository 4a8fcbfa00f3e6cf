# expect: error
# message: memory|too big
import numpy as np


def sinusoidal_pe(T, C):
    return np.ones((200_000, 200_000))
