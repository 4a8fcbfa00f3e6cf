# Draws a uniform with variance 1 / fan_in instead of the truncated normal.
# expect: looks like the draws are uniform


def lecun_normal(seed, fan_in, fan_out):
    return variance_scaling(seed, int(fan_in), int(fan_out), 1.0, "fan_in", "uniform")
