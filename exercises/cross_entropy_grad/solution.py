import numpy as np


def cross_entropy_grad(logits, targets):
    """Gradient of the mean cross-entropy with respect to logits (T, V): (softmax - one_hot) / T."""
    logits = np.asarray(logits, dtype=np.float64)
    T = logits.shape[0]
    grad = softmax(logits, axis=1)                           # step 5: a new array, stable for huge logits
    grad[np.arange(T), np.asarray(targets)] -= 1.0           # minus the one-hot of each target
    return grad / T                                          # the loss is a mean over T positions
