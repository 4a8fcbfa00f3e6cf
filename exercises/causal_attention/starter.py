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
        A float array of shape (..., T, dv): softmax(mask(q @ k^T / sqrt(d))) @ v, where
        d = q.shape[-1] and mask sets the score of query i against key j to -inf whenever
        j > i, before the softmax over the last axis. Query i only sees keys 0, 1, ..., i.
    """
    # TODO: the scores of step 7, then -inf above the diagonal (j > i), then softmax(scores, axis=-1) @ v.
    raise NotImplementedError
