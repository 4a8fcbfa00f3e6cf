# Softmax without subtracting the row maximum: np.exp(1e4) overflows and the loss becomes nan.
# expect: np.exp overflows to inf above about 709
import numpy as np


def cross_entropy(logits, targets):
    e = np.exp(logits)
    probs = e / e.sum(axis=1, keepdims=True)
    T = logits.shape[0]
    return float(-np.mean(np.log(probs[np.arange(T), targets])))
