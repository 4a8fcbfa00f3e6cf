# Computes the probabilities in plain Python (math.exp over a list, ties with the k-th largest kept by a
# comparison), then makes the specified draw.
import math

import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    values = [float(v) / temperature for v in logits]
    if top_k is not None:
        kth_largest = sorted(values, reverse=True)[top_k - 1]
        values = [v if v >= kth_largest else -math.inf for v in values]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return int(rng.choice(len(weights), p=np.array([w / total for w in weights])))
