# Multiplies the logits by the temperature instead of dividing them.
# expect: looks like the logits were multiplied by the temperature
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    scaled = logits * temperature
    p = np.exp(scaled - scaled.max())
    p /= p.sum()
    return int(rng.choice(len(p), p=p))
