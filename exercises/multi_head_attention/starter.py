import numpy as np

# This file must be self-contained: the grader only runs this file, not your earlier steps.
# Paste (or rewrite) your softmax from step 5 and your causal_attention from step 8 below.


def softmax(x, axis=-1):
    """Numerically stable softmax along `axis` (step 5): paste your code here."""
    raise NotImplementedError


def causal_attention(q, k, v):
    """Causal scaled dot-product attention over the last two axes (step 8): paste your code here.

    q, k of shape (..., T, d), v of shape (..., T, dv) -> (..., T, dv); scores scaled by
    sqrt(d) with d = q.shape[-1]; scores with j > i set to -inf before the softmax.
    """
    raise NotImplementedError


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads):
    """Causal multi-head self-attention.

    Args:
        x: float array of shape (T, C), one token vector per row.
        W_q, W_k, W_v, W_o: float arrays of shape (C, C).
        n_heads: number of heads, a divisor of C; each head has D = C // n_heads dimensions.

    Returns:
        A float array of shape (T, C):
            q, k, v = x @ W_q, x @ W_k, x @ W_v
            head h  = causal_attention(q[:, h*D:(h+1)*D], k[:, h*D:(h+1)*D], v[:, h*D:(h+1)*D])
            result  = concatenate(head 0, ..., head n_heads-1 along the last axis) @ W_o
    """
    # TODO: project, split the columns into heads, causal attention per head, concatenate, project.
    raise NotImplementedError
