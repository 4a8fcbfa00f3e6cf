def bpe_train(text, n_merges):
    """Byte-pair encoding: learn n_merges merges from text.

    Args:
        text: a Python str (possibly empty, possibly non-ASCII).
        n_merges: how many merges to learn (0 or more).

    Returns:
        A Python list of tuples (a, b) of Python ints: merge r is the pair that became id 256 + r,
        learned from the UTF-8 bytes of text by the rules of the statement (count, pick, replace).
    """
    # TODO: loop over the rounds: count the pairs, pick the best, record it, merge it in the ids.
    raise NotImplementedError
