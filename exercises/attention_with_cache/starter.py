import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def attention_with_cache(q, k, v, cache):
    """Attention of one new position over the cached positions and itself, for every head.

    Args:
        q, k, v: float numpy arrays of shape (H, D): the new position's query, key and value,
            one row per head.
        cache: None (no earlier position), or a tuple (K, V) of float arrays of shape (H, t, D),
            the keys and values of the t earlier positions. Do not modify it.

    Returns:
        A tuple (out, cache):
            out: float array (H, D), row h what causal attention gives head h at the new position,
                over the t earlier positions and itself.
            cache: (K', V'), new arrays of shape (H, t + 1, D): K and V with k and v appended
                as position t.
    """
    # TODO: grow the cache (new arrays), then attend with q over all t + 1 positions.
    raise NotImplementedError
