# Multiplies by a one-hot matrix and takes .mean() over all T*V entries: divides by T*V instead of T.
# expect: looks like the mean over all T*V entries of one_hot * log_probs
import numpy as np


def cross_entropy(logits, targets):
    logits = np.asarray(logits, dtype=np.float64)
    T, V = logits.shape
    m = logits.max(axis=1, keepdims=True)
    log_probs = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    one_hot = np.zeros((T, V))
    one_hot[np.arange(T), targets] = 1.0
    return float(-(one_hot * log_probs).mean())
