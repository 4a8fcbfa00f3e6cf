# Divides by fan_out instead of fan_in.
# expect: looks like n is fan_out


def lecun_normal(seed, fan_in, fan_out):
    return variance_scaling(seed, int(fan_in), int(fan_out), 1.0, "fan_out", "truncated_normal")
