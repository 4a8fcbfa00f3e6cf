# Starts from the characters' code points (ord) instead of the UTF-8 bytes.
# expect: looks like the ids started as the characters' code points
def bpe_train(text, n_merges):
    ids = [ord(c) for c in text]
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        ids = _merge(ids, best, 256 + len(merges))
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
