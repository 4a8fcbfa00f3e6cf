# Divides the scores by the square root of the number of positions instead of sqrt(D), the head size.
# expect: looks like the scores were divided by the square root of the number of
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), v[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([cache[0], K], axis=1)
        V = np.concatenate([cache[1], V], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(K.shape[1])
    return np.einsum("ht,htd->hd", softmax(scores, axis=-1), V), (K, V)
