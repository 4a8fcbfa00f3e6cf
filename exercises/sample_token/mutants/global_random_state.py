# Draws with the global np.random state instead of the generator it is given.
# expect: two calls with generators in the same state must return the same token
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    scaled = logits / temperature
    p = np.exp(scaled - scaled.max())
    p /= p.sum()
    return int(np.random.choice(len(p), p=p))
