# top_k keeps the k smallest logits (masks everything above the k-th smallest).
# expect: did top_k keep the k smallest logits?
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits > np.sort(logits)[top_k - 1]] = -np.inf
    scaled = logits / temperature
    p = np.exp(scaled - scaled.max())
    p /= p.sum()
    return int(rng.choice(len(p), p=p))
