import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def top_p_filter(logits, top_p):
    """Top-p (nucleus) filtering of a distribution over V ids.

    Args:
        logits: float numpy array of shape (V,).
        top_p: a float, 0 < top_p <= 1.

    Returns:
        A float numpy array of shape (V,), summing to 1: the softmax of logits, kept only on the
        shortest run of most likely ids (ties: lower id first) whose probabilities sum to at least
        top_p (all ids if none does), renormalised; 0 for every other id.
    """
    # TODO: find the ids of the nucleus, then renormalise their probabilities into a new array of zeros.
    raise NotImplementedError
