# Sorts descending with np.argsort(probs)[::-1]: among equal probabilities the higher id comes first.
# expect: looks like ties were broken towards the higher id
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(probs, kind="stable")[::-1]
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
