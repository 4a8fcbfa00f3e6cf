import numpy as np


def gpt_logits(ids, p, n_heads):
    """Logits (T, V) of a GPT for the token ids (T,): embeddings, blocks, final layer norm, tied output."""
    ids = np.asarray(ids)
    W_E = p["W_E"]                                   # (V, C)
    T, C = ids.shape[0], W_E.shape[1]
    x = W_E[ids] + sinusoidal_pe(T, C)               # token embeddings + positions, (T, C)
    for block in p["blocks"]:                        # in list order
        x = transformer_block(x, block, n_heads)
    x = layer_norm(x, p["lnf_g"], p["lnf_b"])        # final layer norm
    return x @ W_E.T                                 # tied embeddings: (T, C) @ (C, V) -> (T, V)
