# Appends the new key to the value cache too (a copy-paste slip): V gets k instead of v.
# expect: looks like the new key was appended to the values too
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), k[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([cache[0], K], axis=1)
        V = np.concatenate([cache[1], V], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[-1])
    return np.einsum("ht,htd->hd", softmax(scores, axis=-1), V), (K, V)
