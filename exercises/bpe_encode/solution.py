def bpe_encode(text, merges):
    """The ids of text under the merges bpe_train learned: merges applied by rank, the earliest first."""
    rank = {}
    for i, (a, b) in enumerate(merges):
        rank.setdefault((int(a), int(b)), i)              # a pair listed twice keeps its first rank
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        pair = min(zip(ids, ids[1:]), key=lambda p: rank.get(p, len(merges)))
        if pair not in rank:                              # no adjacent pair is a merge any more
            break
        ids = _merge(ids, pair, 256 + rank[pair])
    return ids


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
