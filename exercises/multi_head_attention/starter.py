import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5) and causal_attention(q, k, v) (step 8).
# In the browser they are your own passing code for those steps (or the reference until you
# solve them); offline, the references. Call them directly.


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
