# expect: failed
def bpe_encode(text, merges):
    rank = {tuple(m): i for i, m in enumerate(merges)}
    ids = list(text.encode("utf-8"))
    while True:
        counts = {}
        for pair in zip(ids, ids[1:]):
            if pair in rank:
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            return ids
        pair = max(counts, key=counts.get)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(256 + rank[pair])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
