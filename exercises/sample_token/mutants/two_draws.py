# Uses the generator twice: a throw-away rng.random() before the draw that counts.
# expect: looks like the generator was used twice
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    scaled = logits / temperature
    p = np.exp(scaled - scaled.max())
    p /= p.sum()
    if rng.random() < 0.0:   # a leftover debugging draw
        return 0
    return int(rng.choice(len(p), p=p))
