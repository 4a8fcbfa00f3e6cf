# expect: failed
import numpy as np


def gpt_loss_and_grads(ids, targets, p, n_heads):
    ids = np.asarray(ids)
    W_E = p["W_E"]
    T, C = len(ids), W_E.shape[1]
    xs = [W_E[ids] + sinusoidal_pe(T, C)]
    for block in p["blocks"]:
        xs.append(transformer_block(xs[-1], block, n_heads))
    logits = layer_norm(xs[-1], p["lnf_g"], p["lnf_b"]) @ W_E.T
    dlogits = cross_entropy_grad(logits, targets)
    dx, dg, db = layer_norm_backward(xs[-1], p["lnf_g"], dlogits @ W_E)
    blocks = []
    for x, block in zip(xs[-2::-1], p["blocks"][::-1]):
        dx, grads = transformer_block_backward(x, block, n_heads, dx)
        blocks.insert(0, grads)
    return cross_entropy(logits, targets), {"W_E": embedding_backward(ids, dx, W_E.shape[0]), "blocks": blocks,
                                            "lnf_g": dg, "lnf_b": db}
