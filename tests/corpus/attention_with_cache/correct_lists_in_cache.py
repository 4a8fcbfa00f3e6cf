# expect: passed
import numpy as np


def attention_with_cache(q, k, v, cache):
    keys = [] if cache is None else list(np.swapaxes(cache[0], 0, 1))     # t arrays of (H, D)
    values = [] if cache is None else list(np.swapaxes(cache[1], 0, 1))
    K = np.stack(keys + [k], axis=1)                                      # (H, t + 1, D), new arrays
    V = np.stack(values + [v], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[1])
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return np.einsum("ht,htd->hd", w, V), (K, V)
