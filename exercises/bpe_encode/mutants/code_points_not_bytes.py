# Starts from the characters' code points (ord) instead of the UTF-8 bytes.
def bpe_encode(text, merges):
    rank = {}
    for i, (a, b) in enumerate(merges):
        rank.setdefault((int(a), int(b)), i)
    ids = [ord(c) for c in text]
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
