# Computes the softmax without subtracting the maximum: np.exp(1e4) overflows and the result fills with nan.
# expect: np.exp overflows to inf above about 709, and inf / inf is nan
import numpy as np


def top_p_filter(logits, top_p):
    exps = np.exp(logits)
    probs = exps / exps.sum()
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = min(int(np.searchsorted(cumulative, top_p)) + 1, len(order))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
