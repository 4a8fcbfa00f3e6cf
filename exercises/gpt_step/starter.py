import numpy as np

# In scope, no import needed (call them directly):
#   sinusoidal_pe(T, C)                                    step 2
#   layer_norm(x, gamma, beta, eps=1e-5)                   step 6  (x may be a single vector (C,))
#   mlp(x, W1, b1, W2, b2)                                 step 11 (x of shape (T, C): use h[None, :])
#   gpt_logits(ids, p, n_heads)                            step 13 (to check your results against)
#   attention_with_cache(q, k, v, cache)                   step 36
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def gpt_step(token_id, p, n_heads, cache):
    """Feed one more token id to the GPT of step 13 and return the logits that follow it.

    Args:
        token_id: the new id, an int in [0, V).
        p: the parameters of step 13 ("W_E" (V, C), "blocks" (a list, maybe empty), "lnf_g", "lnf_b").
        n_heads: number of attention heads in every block.
        cache: None at the first call, then what the previous call returned. Do not modify it.

    Returns:
        A tuple (logits, cache):
            logits: float array (V,), row t of gpt_logits(all ids fed so far, p, n_heads),
                where t = the number of ids fed before this one.
            cache: your own structure (None, numbers, lists, tuples, dicts, numpy arrays), new,
                holding t + 1 and one attention_with_cache cache per block; the earlier positions
                are read from it, never recomputed.
    """
    # TODO: run the new position alone through the model, each block with its own cache;
    # return the logits and the new cache.
    raise NotImplementedError
