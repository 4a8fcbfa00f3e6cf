import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def attention(q, k, v):
    """Scaled dot-product attention.

    Args:
        q: float array of shape (..., Tq, d), one query vector per row.
        k: float array of shape (..., Tk, d), one key vector per row.
        v: float array of shape (..., Tk, dv), one value vector per row.
        The leading axes "..." (none, a batch, batch and heads, ...) are the same for q, k and v.

    Returns:
        A float array of shape (..., Tq, dv):
            softmax(q @ k^T / sqrt(d)) @ v
        where d = q.shape[-1], k^T swaps the last two axes of k, and the softmax
        runs over the last axis (the keys), so each query's weights sum to 1.
    """
    # TODO: scores scaled by sqrt(d); softmax(scores, axis=-1) over the keys; then the weighted sum of v.
    raise NotImplementedError
