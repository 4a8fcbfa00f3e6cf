# Divides the kept probabilities by top_p instead of by their own sum (which is top_p or more).
# expect: looks like the kept probabilities were divided by top_p
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / top_p
    return out
