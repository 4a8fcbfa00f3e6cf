# expect: passed
from collections import Counter


def bpe_train(text, n_merges):
    ids = list(text.encode("utf-8"))
    merges = []
    for new_id in range(256, 256 + n_merges):
        if len(ids) < 2:
            break
        counts = Counter(zip(ids, ids[1:]))
        best = counts.most_common(1)[0][0]        # Counter keeps insertion order among equal counts
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(best):
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(best)
    return merges
