# Counts only non-overlapping occurrences of each pair (aaa holds (a, a) once) instead of every position.
# expect: looks like only non-overlapping occurrences were counted
def bpe_train(text, n_merges):
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        last_counted = {}
        for i, pair in enumerate(zip(ids, ids[1:])):
            if last_counted.get(pair) == i - 1:       # overlaps the occurrence just counted
                continue
            last_counted[pair] = i
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
