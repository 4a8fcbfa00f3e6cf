# top_k keeps exactly k ids chosen with argsort, dropping logits tied with the k-th largest.
# expect: looks like exactly k ids were kept
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        keep = np.argsort(logits)[-top_k:]
        masked = np.full_like(logits, -np.inf)
        masked[keep] = logits[keep]
        logits = masked
    scaled = logits / temperature
    p = np.exp(scaled - scaled.max())
    p /= p.sum()
    return int(rng.choice(len(p), p=p))
