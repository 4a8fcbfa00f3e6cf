import numpy as np

# This file must be self-contained. Paste (or rewrite) here your functions from
# the earlier steps, with everything they call:
#   sinusoidal_pe(T, C)                                    step 2
#   layer_norm(x, gamma, beta, eps=1e-5)                   step 6
#   transformer_block(x, p, n_heads)                       step 12, with what it uses:
#       multi_head_attention (step 9, with softmax and causal_attention, steps 5 and 8)
#       and mlp (step 11, with gelu, step 10)
# (token_embedding from step 1 is just W_E[ids].)


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
