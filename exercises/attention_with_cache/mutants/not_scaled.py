# Forgets to divide the scores by sqrt(D).
# expect: looks like the scores were not scaled
import numpy as np


def attention_with_cache(q, k, v, cache):
    K, V = k[:, None, :].copy(), v[:, None, :].copy()
    if cache is not None:
        K = np.concatenate([cache[0], K], axis=1)
        V = np.concatenate([cache[1], V], axis=1)
    scores = np.einsum("hd,htd->ht", q, K)
    return np.einsum("ht,htd->hd", softmax(scores, axis=-1), V), (K, V)
