# Stops at the first running sum > top_p instead of >= top_p: when a sum equals top_p exactly, one id too many.
# expect: looks like the prefix goes on until its sum is > top_p
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p, side="right")) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
