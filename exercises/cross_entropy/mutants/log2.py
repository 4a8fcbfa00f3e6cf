# Uses log base 2 (np.log2) instead of the natural log: the loss is in bits, 1.44 times too large.
# expect: looks like log base 2
import numpy as np


def cross_entropy(logits, targets):
    logits = np.asarray(logits, dtype=np.float64)
    m = logits.max(axis=1, keepdims=True)
    log_probs = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    log2_probs = log_probs / np.log(2.0)
    return float(-log2_probs[np.arange(len(logits)), targets].mean())
