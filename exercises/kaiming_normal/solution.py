import numpy as np

GAINS = {"relu": np.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}   # PyTorch's calculate_gain


def kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu"):
    """(fan_in, fan_out) draws from N(0, (gain / sqrt(fan_in))^2), flattened."""
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}: expected one of {', '.join(GAINS)}")
    fan_in, fan_out = int(fan_in), int(fan_out)
    std = GAINS[nonlinearity] / np.sqrt(fan_in)
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, std, size=(fan_in, fan_out)).reshape(-1)
