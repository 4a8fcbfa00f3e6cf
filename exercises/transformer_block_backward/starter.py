import numpy as np

# In scope, no import needed (call them directly):
#   layer_norm(x, gamma, beta, eps=1e-5)                   step 6
#   causal_attention(q, k, v)                              step 8
#   multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads)   step 9
#   gelu(x)                                                step 10
#   mlp(x, W1, b1, W2, b2)                                 step 11
#   transformer_block(x, p, n_heads)                       step 12
#   linear_backward(x, W, dout) -> (dx, dW, db)            step 20
#   gelu_backward(x, dout) -> dx                           step 21
#   layer_norm_backward(x, gamma, dout, eps=1e-5) -> (dx, dgamma, dbeta)   step 23
#   causal_attention_backward(q, k, v, dout) -> (dq, dk, dv)               step 24
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def transformer_block_backward(x, p, n_heads, dout):
    """Gradients of out = transformer_block(x, p, n_heads) (step 12), given dout = dL/dout.

    Args:
        x: float array of shape (T, C), the block's input.
        p: dict of the block's parameters (float arrays), as in step 12:
            "ln1_g", "ln1_b", "ln2_g", "ln2_b": (C,); "W_q", "W_k", "W_v", "W_o": (C, C);
            "W1": (C, F), "b1": (F,), "W2": (F, C), "b2": (C,).
        n_heads: number of attention heads, a divisor of C.
        dout: float array of shape (T, C), the gradient of the loss with respect to out.

    Returns:
        A pair (dx, grads): dx = dL/dx, shape (T, C); grads a dict with the twelve keys of p,
        grads[name] = dL/dp[name], of the shape of p[name]. The arguments are left unchanged.
    """
    # TODO: dL/dx and the gradient of each of the twelve parameters.
    raise NotImplementedError
