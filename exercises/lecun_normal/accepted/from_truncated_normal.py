# Calls step 8's truncated_normal directly with the corrected std, skipping variance_scaling.
import math


def lecun_normal(seed, fan_in, fan_out):
    fan_in, fan_out = int(fan_in), int(fan_out)
    std = math.sqrt(1.0 / fan_in) / 0.87962566103423978
    return truncated_normal(seed, fan_in * fan_out, std, -2.0, 2.0)
