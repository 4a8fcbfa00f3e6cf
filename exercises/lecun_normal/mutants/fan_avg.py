# Uses the mean of both fans (Glorot's mode) instead of fan_in.
# expect: looks like n is (fan_in + fan_out) / 2


def lecun_normal(seed, fan_in, fan_out):
    return variance_scaling(seed, int(fan_in), int(fan_out), 1.0, "fan_avg", "truncated_normal")
