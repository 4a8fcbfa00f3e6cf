# Scales the query in place (q /= sqrt(D)): the caller's q changes under it.
# expect: `a = a * 2` makes a new array
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), v[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([cache[0], K], axis=1)
        V = np.concatenate([cache[1], V], axis=1)
    q /= np.sqrt(q.shape[-1])
    scores = np.einsum("hd,htd->ht", q, K)
    return np.einsum("ht,htd->hd", softmax(scores, axis=-1), V), (K, V)
