# Applies the merges in order but stops at the first merge whose pair does not occur, skipping all later ones.
def bpe_encode(text, merges):
    ids = list(text.encode("utf-8"))
    for i, (a, b) in enumerate(merges):
        pair = (int(a), int(b))
        if pair not in set(zip(ids, ids[1:])):
            break
        out, j = [], 0
        while j < len(ids):
            if j + 1 < len(ids) and (ids[j], ids[j + 1]) == pair:
                out.append(256 + i)
                j += 2
            else:
                out.append(ids[j])
                j += 1
        ids = out
    return ids
