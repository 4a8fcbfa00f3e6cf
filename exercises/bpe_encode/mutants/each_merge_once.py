# Goes once through the merges and replaces only the first occurrence of each pair.
# expect: looks like each merge was applied once
def bpe_encode(text, merges):
    ids = list(text.encode("utf-8"))
    for i, (a, b) in enumerate(merges):
        for j in range(len(ids) - 1):
            if ids[j] == a and ids[j + 1] == b:
                ids[j:j + 2] = [256 + i]
                break
    return ids
