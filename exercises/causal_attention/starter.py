import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def causal_attention(q, k, v):
    """Causal (masked) scaled dot-product attention.

    Args:
        q: float array of shape (..., T, d), one query per position.
        k: float array of shape (..., T, d), one key per position.
        v: float array of shape (..., T, dv), one value per position.
        The leading axes "..." (none, a batch, batch and heads, ...) are the same for q, k and v.

    Returns:
        A float array of shape (..., T, dv): the attention of step 7, softmax(q @ k^T / sqrt(d)) @ v
        with d = q.shape[-1], except that query i only sees keys 0, 1, ..., i: its weights on
        later keys are exactly 0 and its weights on keys 0..i sum to 1.
    """
    # TODO: attention in which query i ignores every key j > i.
    raise NotImplementedError
