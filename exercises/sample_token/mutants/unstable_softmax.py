# Softmax without subtracting the maximum: at a temperature near 0, exp(logits / temperature) overflows.
# expect: np.exp overflows to inf and inf / inf is nan
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    e = np.exp(logits / temperature)
    p = e / e.sum()
    return int(rng.choice(len(p), p=p))
