# expect: failed
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(np.asarray(logits))
    order = np.argsort(-probs, kind="stable")
    cumulative = np.cumsum(probs[order])
    keep = max(1, int((cumulative < top_p).sum()))
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
