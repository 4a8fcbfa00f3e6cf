# expect: failed, error
import numpy as np


def attention_with_cache(q, k, v, cache):
    K = k[:, None, :] if cache is None else cache[0]
    V = v[:, None, :] if cache is None else cache[1]
    w = softmax(np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[1]), axis=-1)
    return np.einsum("ht,htd->hd", w, V), (K.copy(), V.copy())
