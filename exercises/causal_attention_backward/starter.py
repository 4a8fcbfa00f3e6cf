import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5), causal_attention(q, k, v) (step 8) and
# softmax_backward(y, dout, axis=-1) (step 22). In the browser they are your own passing code for those
# steps (or the references until you solve them); offline, the references. Call them.


def causal_attention_backward(q, k, v, dout):
    """Gradients of out = causal_attention(q, k, v) with respect to q, k and v.

    Args:
        q: float array of shape (..., T, d), the queries of the forward pass.
        k: float array of shape (..., T, d), the keys.
        v: float array of shape (..., T, dv), the values (dv may differ from d).
        dout: float array of shape (..., T, dv), dL/dout.
        The leading axes "..." (none, heads, batch and heads) are the same for the four arrays.

    Returns:
        A tuple (dq, dk, dv) of float arrays with the shapes of q, k and v. The arguments are
        left unchanged.
    """
    # TODO: the gradients of q, k and v, through the weighted sum, the softmax and the scores.
    raise NotImplementedError
