# expect: failed
def bpe_train(text, n_merges):
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best_count = max(counts.values())
        best = [pair for pair in zip(ids, ids[1:]) if counts[pair] == best_count][-1]
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                out.append(256 + len(merges))
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(best)
    return merges
