import numpy as np


def cross_entropy(logits, targets):
    """Mean next-token cross-entropy of logits (T, V) against integer targets (T,)."""
    logits = np.asarray(logits, dtype=np.float64)
    targets = np.asarray(targets)
    T = logits.shape[0]
    m = logits.max(axis=1, keepdims=True)                                  # (T, 1) row maxima
    log_sum_exp = m + np.log(np.exp(logits - m).sum(axis=1, keepdims=True))  # (T, 1), no overflow
    log_probs = logits - log_sum_exp                                       # (T, V) log-softmax
    picked = log_probs[np.arange(T), targets]                              # (T,) log p of each target
    return float(-picked.mean())
