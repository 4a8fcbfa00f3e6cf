# One-hot minus softmax: the right magnitude with the wrong sign (the direction that increases the loss).
# expect: the sign is flipped
import numpy as np


def cross_entropy_grad(logits, targets):
    T, V = logits.shape
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    one_hot = np.eye(V)[targets]
    return (one_hot - probs) / T
