# Replaces overlapping occurrences: after merging ids[i], ids[i + 1] it goes on at i + 1, so aaa gives two ids.
# expect: looks like overlapping occurrences were replaced
def bpe_encode(text, merges):
    rank = {}
    for i, (a, b) in enumerate(merges):
        rank.setdefault((int(a), int(b)), i)
    ids = list(text.encode("utf-8"))
    while True:
        present = [p for p in zip(ids, ids[1:]) if p in rank]
        pair = min(present, key=rank.get) if present else None
        if pair is None:
            return ids
        ids = _merge(ids, pair, 256 + rank[pair])


def _merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 1
        else:
            out.append(ids[i])
            i += 1
    return out
