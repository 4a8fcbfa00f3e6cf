# expect: passed
def bpe_encode(text, merges):
    ids = list(text.encode("utf-8"))
    for rank, (a, b) in enumerate(merges):     # applying every merge in rank order gives the same ids
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                out.append(256 + rank)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids
