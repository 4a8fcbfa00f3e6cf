# Numbers the new ids from 255 (255 + round) instead of 256.
# expect: looks like the new ids start at 255
def bpe_train(text, n_merges):
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        ids = _merge(ids, best, 255 + len(merges))
        merges.append((int(best[0]), int(best[1])))
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
    return out
