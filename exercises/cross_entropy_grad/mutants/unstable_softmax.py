# Softmax without subtracting the row maximum: np.exp(1e4) overflows and the gradient fills with nan.
# expect: np.exp overflows to inf above about 709, and inf / inf is nan
import numpy as np


def cross_entropy_grad(logits, targets):
    T, V = logits.shape
    e = np.exp(logits)
    probs = e / e.sum(axis=1, keepdims=True)
    return (probs - np.eye(V)[targets]) / T
