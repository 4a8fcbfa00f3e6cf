# Breaks ties by keeping the pair seen last (count >= best), instead of the pair whose first occurrence comes first.
# expect: looks like ties went to the pair seen last
def bpe_train(text, n_merges):
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best, best_count = None, 0
        for pair, count in counts.items():
            if count >= best_count:
                best, best_count = pair, count
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
