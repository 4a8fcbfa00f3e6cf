# In scope, no import needed: bpe_train(text, n_merges) (step 33), to make merges to try your encoder
# on. In the browser it is your own passing code for step 33 (or the reference until you solve it);
# offline, the reference. Encoding itself does not need it.


def bpe_encode(text, merges):
    """Byte-pair encoding: the ids of text under the merges bpe_train learned.

    Args:
        text: a Python str (possibly empty, possibly non-ASCII).
        merges: a list of pairs (a, b) of ints, as tuples or as lists; merges[i] makes id 256 + i.

    Returns:
        A Python list of Python ints: the UTF-8 bytes of text with the merges applied, lowest rank
        first, until no adjacent pair is a merge (the statement's rules).
    """
    # TODO: build a rank for every pair, then merge the lowest-ranked adjacent pair until none is left.
    raise NotImplementedError
