# No key-value cache: keeps the ids fed so far and reruns gpt_logits on all of them at every call, taking
# the last row. The numbers are right, but every call redoes the whole prefix.
# expect: looks like the earlier positions were recomputed from the ids
import numpy as np


def gpt_step(token_id, p, n_heads, cache):
    ids = [] if cache is None else list(cache)
    ids.append(int(token_id))
    return gpt_logits(ids, p, n_heads)[-1], ids
