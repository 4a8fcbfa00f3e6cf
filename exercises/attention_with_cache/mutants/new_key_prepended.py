# Puts the new key and value before the cached ones instead of after them. The output is the same (the
# expect: looks like the new key was put first
# weights do not depend on the order of the keys), but the cache's positions are out of order.
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), v[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([K, cache[0]], axis=1)
        V = np.concatenate([V, cache[1]], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[-1])
    return np.einsum("ht,htd->hd", softmax(scores, axis=-1), V), (K, V)
