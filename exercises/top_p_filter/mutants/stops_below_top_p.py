# Keeps only the ids whose running sum stays below top_p (at least one): the id that takes the sum to top_p
# expect: looks like the prefix stops before its sum reaches top_p
# is dropped, so the kept probabilities add up to less than top_p.
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(logits)
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = max(1, int(np.searchsorted(cumulative, top_p)))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
