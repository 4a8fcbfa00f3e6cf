# Calls truncated_normal with std sqrt(1 / fan_in), forgetting the 0.8796 correction.
# expect: looks like the 0.8796 correction was forgotten
import numpy as np


def lecun_normal(seed, fan_in, fan_out):
    return truncated_normal(seed, int(fan_in) * int(fan_out), std=np.sqrt(1.0 / int(fan_in)))
