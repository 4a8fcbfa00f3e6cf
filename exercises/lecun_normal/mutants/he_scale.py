# Uses He's scale 2 instead of LeCun's 1.
# expect: looks like the scale is 2


def lecun_normal(seed, fan_in, fan_out):
    return variance_scaling(seed, int(fan_in), int(fan_out), 2.0, "fan_in", "truncated_normal")
