# Step 1's tables taken once as nested lists, the patches assembled with Python loops.
import numpy as np


def sincos_2d(seed, H, W, d_model):
    H, W, half = int(H), int(W), int(d_model) // 2
    rows = sinusoidal_pos(seed, H, half).reshape(H, half).tolist()
    cols = sinusoidal_pos(seed, W, half).reshape(W, half).tolist()
    values = []
    for r in range(H):
        for c in range(W):
            values.extend(rows[r] + cols[c])
    return np.array(values, dtype=np.float64)
