# Draws by inverting the cumulative distribution with one rng.random(), as rng.choice(len(p), p=p) does
# inside: the same generator state gives the same token.
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None:
        kth_largest = np.partition(logits, -top_k)[-top_k]
        logits = np.where(logits >= kth_largest, logits, -np.inf)
    p = np.exp(logits - logits.max())
    cdf = np.cumsum(p / p.sum())
    return int(np.searchsorted(cdf / cdf[-1], rng.random(), side="right"))
