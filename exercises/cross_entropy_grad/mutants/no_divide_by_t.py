# Forgets the division by T: this is the gradient of the summed loss, not of the mean.
# expect: looks like the division by T is missing
import numpy as np


def cross_entropy_grad(logits, targets):
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    probs[np.arange(len(probs)), targets] -= 1.0
    return probs
