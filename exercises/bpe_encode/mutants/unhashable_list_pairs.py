# Uses the given pairs as dictionary keys as they are: pairs given as lists fail (unhashable).
def bpe_encode(text, merges):
    rank = {pair: i for i, pair in enumerate(merges)}
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
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
