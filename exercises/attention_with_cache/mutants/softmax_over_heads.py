# Takes the softmax of the (H, t + 1) scores over the heads (axis 0) instead of over the positions.
# expect: looks like the softmax was taken over the heads
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), v[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([cache[0], K], axis=1)
        V = np.concatenate([cache[1], V], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[-1])
    return np.einsum("ht,htd->hd", softmax(scores, axis=0), V), (K, V)
