# Returns only the new key and value as the cache: every call forgets the positions cached before
# expect: looks like the cache was replaced by the new k and v
# (the attention itself is right).
import numpy as np


def attention_with_cache(q, k, v, cache):
    new_k, new_v = k[:, None, :].copy(), v[:, None, :].copy()
    K = new_k if cache is None else np.concatenate([cache[0], new_k], axis=1)
    V = new_v if cache is None else np.concatenate([cache[1], new_v], axis=1)
    scores = np.einsum("hd,htd->ht", q, K) / np.sqrt(q.shape[-1])
    out = np.einsum("ht,htd->hd", softmax(scores, axis=-1), V)
    return out, (new_k, new_v)
