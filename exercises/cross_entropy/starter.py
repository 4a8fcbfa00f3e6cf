import numpy as np


def cross_entropy(logits, targets):
    """Mean cross-entropy of next-token predictions.

    Args:
        logits: float numpy array of shape (T, V): row t holds the scores
            the model gives to each of the V tokens at position t.
        targets: T integer token ids in [0, V) (a numpy integer array or a
            list of ints): targets[t] is the correct token for position t.

    Returns:
        The loss as a Python float (a numpy float scalar or a 0-d array is
        fine too):
            loss = mean over t of ( -log softmax(logits[t])[targets[t]] )
        using the natural log. It must stay finite and exact for logits as
        large as 1e4 in magnitude.
    """
    # TODO: the mean of -log softmax(logits[t])[targets[t]], finite for logits up to 1e4.
    raise NotImplementedError
