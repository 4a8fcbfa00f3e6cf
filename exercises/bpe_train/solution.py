def bpe_train(text, n_merges):
    """The merges byte-pair encoding learns from text: a list of (a, b) pairs, merge i making id 256 + i."""
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        counts = {}
        for pair in zip(ids, ids[1:]):                    # every adjacent position, overlaps included
            counts[pair] = counts.get(pair, 0) + 1        # a dict keeps first-occurrence order...
        best = max(counts, key=counts.get)                # ...so max breaks ties by the first occurrence
        ids = _merge(ids, best, 256 + len(merges))
        merges.append((int(best[0]), int(best[1])))
    return merges


def _merge(ids, pair, new_id):
    """ids with every non-overlapping occurrence of pair, from left to right, replaced by new_id."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
