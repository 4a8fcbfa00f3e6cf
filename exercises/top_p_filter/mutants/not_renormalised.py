# Zeroes the ids outside the nucleus but does not renormalise: the result sums to less than 1.
# expect: looks like the kept probabilities were not renormalised
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]]
    return out
