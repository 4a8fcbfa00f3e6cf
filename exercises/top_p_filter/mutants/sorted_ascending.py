# Sorts the ids by increasing probability: the prefix collects the least likely ids.
# expect: looks like the ids were sorted by increasing probability
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
