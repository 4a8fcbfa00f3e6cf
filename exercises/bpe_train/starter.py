def bpe_train(text, n_merges):
    """Byte-pair encoding: learn n_merges merges from text.

    Args:
        text: a Python str (possibly empty, possibly non-ASCII).
        n_merges: how many merges to learn (0 or more).

    Returns:
        A Python list of tuples (a, b) of Python ints: merge r is the pair that became id 256 + r.
        Start from ids = list(text.encode("utf-8")); each round, count every adjacent pair (overlapping
        occurrences included), take the most frequent one (ties: the pair that occurs first), and
        replace its occurrences from left to right, without overlaps, by 256 + r. Stop after n_merges
        rounds, or earlier only when fewer than 2 ids are left.
    """
    # TODO: loop over the rounds: count the pairs, pick the best, record it, merge it in the ids.
    raise NotImplementedError
