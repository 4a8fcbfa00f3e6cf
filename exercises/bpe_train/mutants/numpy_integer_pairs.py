# Keeps the ids in a numpy array, so the pairs hold numpy integers instead of Python ints.
# expect: the values are right, but they are numpy.int64, not int
import numpy as np


def bpe_train(text, n_merges):
    ids = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        ids = _merge(ids, best, 256 + len(merges))
        merges.append(best)
    return merges


def _merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return np.array(out, dtype=np.int64)
