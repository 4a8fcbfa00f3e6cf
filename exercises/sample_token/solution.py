import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    """Draw one token id from softmax(logits / temperature), optionally restricted to the top_k largest logits."""
    logits = np.asarray(logits, dtype=np.float64).copy()
    if top_k is not None:
        kth_largest = np.sort(logits)[-top_k]                 # the top_k-th largest value
        logits[logits < kth_largest] = -np.inf               # ties with it are kept
    p = softmax(logits / temperature)                        # step 5: stable even at a temperature near 0
    return int(rng.choice(len(p), p=p))                      # exactly one draw from the given generator
