import numpy as np

# In scope, no import needed (call them directly):
#   layer_norm(x, gamma, beta, eps=1e-5)                   step 6
#   multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads)   step 9
#   mlp(x, W1, b1, W2, b2)                                 step 11
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def transformer_block(x, p, n_heads):
    """One pre-LayerNorm GPT block.

    Args:
        x: float array of shape (T, C), one row per token.
        p: dict of the block's parameters (float arrays):
            "ln1_g", "ln1_b": (C,)  layer norm before attention
            "W_q", "W_k", "W_v", "W_o": (C, C)  attention projections
            "ln2_g", "ln2_b": (C,)  layer norm before the MLP
            "W1": (C, F), "b1": (F,), "W2": (F, C), "b2": (C,)  the MLP
        n_heads: number of attention heads, a divisor of C.

    Returns:
        A float array of shape (T, C):
            x = x + multi_head_attention(layer_norm(x, ln1_g, ln1_b), W_q, W_k, W_v, W_o, n_heads)
            x = x + mlp(layer_norm(x, ln2_g, ln2_b), W1, b1, W2, b2)
    """
    # TODO: the attention sublayer with its residual, then the MLP sublayer with its residual.
    raise NotImplementedError
