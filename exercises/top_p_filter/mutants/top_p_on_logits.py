# Takes the running sum over the sorted logits instead of the probabilities, then renormalises the
# expect: looks like the ids were sorted by increasing probability
# probabilities of the ids it kept.
import numpy as np


def top_p_filter(logits, top_p):
    logits = np.asarray(logits)
    order = np.argsort(-logits, kind="stable")
    cumulative = np.cumsum(logits[order])
    keep = min(int(np.argmax(cumulative >= top_p)) + 1 if (cumulative >= top_p).any() else len(order), len(order))
    probs = softmax(logits)
    out = np.zeros_like(probs)
    out[order[:keep]] = probs[order[:keep]] / probs[order[:keep]].sum()
    return out
