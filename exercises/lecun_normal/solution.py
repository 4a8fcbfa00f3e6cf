def lecun_normal(seed, fan_in, fan_out):
    """flax's default kernel initialiser: variance 1 / fan_in, truncated normal, flattened."""
    return variance_scaling(seed, int(fan_in), int(fan_out), 1.0, "fan_in", "truncated_normal")
