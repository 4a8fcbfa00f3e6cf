import numpy as np


def top_p_filter(logits, top_p):
    """Nucleus filtering: the softmax of logits kept on the most likely ids whose total reaches top_p, renormalised."""
    probs = softmax(np.asarray(logits), axis=-1)                   # step 5
    order = np.argsort(-probs, kind="stable")                      # most likely first; ties: the lower id first
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))   # first prefix whose sum is >= top_p
    kept = order[:keep]
    out = np.zeros_like(probs)
    out[kept] = probs[kept] / probs[kept].sum()
    return out
