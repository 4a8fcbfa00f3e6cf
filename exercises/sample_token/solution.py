import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    """Draw one token id from softmax(logits / temperature), optionally restricted to the top k logits."""
    logits = np.asarray(logits, dtype=np.float64).copy()
    if top_k is not None:
        kth_largest = np.sort(logits)[-top_k]                 # the k-th largest value
        logits[logits < kth_largest] = -np.inf               # ties with it are kept
    scaled = logits / temperature
    exps = np.exp(scaled - scaled.max())                     # stable: the largest exponent is 0
    p = exps / exps.sum()
    return int(rng.choice(len(p), p=p))                      # exactly one draw from the given generator
