# Merges the most frequent adjacent pair that is a merge, as in training, instead of the lowest rank.
# expect: looks like the leftmost pair that is a merge was merged first
def bpe_encode(text, merges):
    rank = {}
    for i, (a, b) in enumerate(merges):
        rank.setdefault((int(a), int(b)), i)
    ids = list(text.encode("utf-8"))
    while True:
        present = [p for p in zip(ids, ids[1:]) if p in rank]
        pair = max(present, key=present.count) if present else None
        if pair is None:
            return ids
        ids = _merge(ids, pair, 256 + rank[pair])


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
