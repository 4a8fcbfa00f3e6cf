import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax along one axis.

    Args:
        x: float numpy array of any shape (scores, also called logits).
        axis: the axis along which the probabilities must sum to 1
            (default: the last one; negative values count from the end).

    Returns:
        A float numpy array of the same shape as x where every slice along
        `axis` is exp(slice) / sum(exp(slice)). Must stay finite for scores
        like [1000, 1001] or [-1000, -1001].
    """
    # TODO: compute the softmax of every slice along `axis`, finite for large scores.
    raise NotImplementedError
