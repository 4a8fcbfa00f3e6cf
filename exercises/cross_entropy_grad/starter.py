import numpy as np


def cross_entropy_grad(logits, targets):
    """Gradient of cross_entropy(logits, targets) with respect to the logits.

    Args:
        logits: float numpy array of shape (T, V), one row of scores per position.
        targets: T integer token ids in [0, V) (a numpy integer array or a
            list of ints): targets[t] is the correct token for position t.

    Returns:
        A float numpy array of shape (T, V):
            grad[t, j] = (softmax(logits[t])[j] - (1 if j == targets[t] else 0)) / T
        It must stay finite for logits as large as 1e4 in magnitude.
    """
    # TODO: softmax of each row (stable), subtract the one-hot targets, divide by T.
    raise NotImplementedError
