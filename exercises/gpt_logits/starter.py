import numpy as np

# In scope, no import needed (call them directly):
#   sinusoidal_pe(T, C)                                    step 2
#   layer_norm(x, gamma, beta, eps=1e-5)                   step 6
#   transformer_block(x, p, n_heads)                       step 12
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references. (token_embedding from step 1 is just W_E[ids].)


def gpt_logits(ids, p, n_heads):
    """Next-token logits of a small GPT.

    Args:
        ids: the T token ids, a 1-D integer numpy array or a list of ints in [0, V).
        p: dict of parameters:
            "W_E": (V, C) float array, the token embedding table (also the output layer)
            "blocks": list of dicts, one per transformer block (keys as in step 12)
            "lnf_g", "lnf_b": (C,) float arrays, the final layer norm
        n_heads: number of attention heads in every block.

    Returns:
        A float array of shape (T, V): row t holds the scores of every vocabulary
        entry for the token that follows position t.
            x = W_E[ids] + sinusoidal_pe(T, C)
            x = transformer_block(x, block, n_heads) for each block, in order
            logits = layer_norm(x, lnf_g, lnf_b) @ W_E.T
    """
    # TODO: embed and add positions, run the blocks, final layer norm, tied output layer.
    raise NotImplementedError
