# expect: failed
# message: shares memory with the argument k
import numpy as np


def attention_with_cache(q, k, v, cache):
    K = k[:, None, :] if cache is None else np.concatenate([cache[0], k[:, None, :]], axis=1)
    V = v[:, None, :] if cache is None else np.concatenate([cache[1], v[:, None, :]], axis=1)
    w = softmax(np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[1]), axis=-1)
    return np.einsum("ht,htd->hd", w, V), (K, V)
