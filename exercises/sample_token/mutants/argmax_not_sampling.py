# Returns the argmax of the (filtered, scaled) logits instead of drawing from the distribution.
# expect: looks like np.argmax
import numpy as np


def sample_token(logits, rng, temperature=1.0, top_k=None):
    logits = np.array(logits, dtype=np.float64)
    if top_k is not None:
        logits[logits < np.sort(logits)[-top_k]] = -np.inf
    return int(np.argmax(logits / temperature))
