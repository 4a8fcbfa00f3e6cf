# Builds the embedding's gradient with dW[ids] += dx: a repeated id keeps only one of its rows.
# expect: looks like a repeated id keeps only one position's gradient
import numpy as np


def gpt_loss_and_grads(ids, targets, p, n_heads):
    """The loss of gpt_logits(ids, p, n_heads) against targets, and its gradient for every parameter in p."""
    ids = np.asarray(ids)
    W_E = p["W_E"]
    V, C = W_E.shape
    T = ids.shape[0]
    # Forward, keeping each block's input.
    x = W_E[ids] + sinusoidal_pe(T, C)
    block_inputs = []
    for block in p["blocks"]:
        block_inputs.append(x)
        x = transformer_block(x, block, n_heads)
    h = layer_norm(x, p["lnf_g"], p["lnf_b"])
    logits = h @ W_E.T
    loss = cross_entropy(logits, targets)
    # Backward, from the logits to the token ids.
    dlogits = cross_entropy_grad(logits, targets)             # (T, V)
    dW_E_out = dlogits.T @ h                                  # logits = h @ W_E.T: the output use of W_E
    dx, dlnf_g, dlnf_b = layer_norm_backward(x, p["lnf_g"], dlogits @ W_E)
    block_grads = [None] * len(block_inputs)
    for i in reversed(range(len(block_inputs))):              # the last block first
        dx, block_grads[i] = transformer_block_backward(block_inputs[i], p["blocks"][i], n_heads, dx)
    # The positions are constants; the input use of W_E adds to the output use (tied weights).
    dW_E = dW_E_out.copy()
    dW_E[ids] += dx
    return float(loss), {"W_E": dW_E, "blocks": block_grads, "lnf_g": dlnf_g, "lnf_b": dlnf_b}
