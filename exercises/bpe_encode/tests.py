"""Hidden tests for bpe_encode(text, merges).

The tests carry their own byte-pair trainer (it gives both the merges and the ids training ends with)
and their own encoder and decoder, written independently of solution.py and of step 33's reference.
The encoder lists the adjacent pairs that are merges with their rank and takes the smallest; its `mode`
argument replays the classic mistakes (the leftmost merge first, the most frequent merge first, one
pass over the merges replacing one occurrence each, overlapping replacement) so that a failure message
can name the mistake.
"""

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import as_int_list, diagnose


def _replace(ids, pair, new_id, overlapping=False, first_only=False):
    """ids with the pair replaced from left to right without overlaps (the keywords reproduce mistakes)."""
    out, i, done = [], 0, False
    while i < len(ids):
        if not done and i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 1 if overlapping else 2
            done = first_only
        else:
            out.append(ids[i])
            i += 1
    return out


def _train(text, n_merges):
    """(merges, ids): the merges step 33 specifies and the ids training ends with."""
    ids = list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        count, first = {}, {}
        for i in range(len(ids) - 1):
            pair = (ids[i], ids[i + 1])
            count[pair] = count.get(pair, 0) + 1
            if pair not in first:
                first[pair] = i
        best = sorted(count, key=lambda p: (-count[p], first[p]))[0]
        ids = _replace(ids, best, 256 + len(merges))
        merges.append(best)
    return merges, ids


def _encode(text, merges, mode="rank"):
    """The ids of text under merges; `mode` other than "rank" reproduces a classic mistake."""
    pairs = [(int(a), int(b)) for a, b in merges]
    ids = list(text.encode("utf-8"))
    if mode == "once":                      # one pass over the merges, first occurrence only
        for i, pair in enumerate(pairs):
            ids = _replace(ids, pair, 256 + i, first_only=True)
        return ids
    rank = {}
    for i, pair in enumerate(pairs):
        if pair not in rank:
            rank[pair] = i
    while True:
        present = [(j, (ids[j], ids[j + 1])) for j in range(len(ids) - 1) if (ids[j], ids[j + 1]) in rank]
        if not present:
            return ids
        if mode == "leftmost":
            pair = present[0][1]
        elif mode == "frequent":
            count = {}
            for _, p in present:
                count[p] = count.get(p, 0) + 1
            pair = max(count, key=lambda p: count[p])       # ties: the leftmost, as Counter.most_common
        else:
            pair = min((p for _, p in present), key=lambda p: rank[p])
        ids = _replace(ids, pair, 256 + rank[pair], overlapping=(mode == "overlapping"))


def _decode(ids, merges):
    """The text the ids stand for, or None when an id is unknown or the bytes are not UTF-8."""
    vocab = {i: bytes([i]) for i in range(256)}
    for i, (a, b) in enumerate(merges):
        vocab[256 + i] = vocab[int(a)] + vocab[int(b)]
    if any(i not in vocab for i in ids):
        return None
    try:
        return b"".join(vocab[i] for i in ids).decode("utf-8")
    except UnicodeDecodeError:
        return None


_MISTAKES = [
    ("leftmost", "looks like the leftmost pair that is a merge was merged first: take the pair with the lowest "
                 "rank (its index in merges), wherever it stands"),
    ("frequent", "looks like the most frequent pair was merged first, as in training: encoding takes the pair "
                 "with the lowest rank (its index in merges), whatever its count"),
    ("once", "looks like each merge was applied once, to its first occurrence only: replace all the occurrences "
             "of a pair, and keep merging until no adjacent pair is a merge"),
    ("overlapping", "looks like overlapping occurrences were replaced (aaa became two new ids): after a "
                    "replacement, continue two ids further"),
]


def _explain(text, merges, got):
    """' (hint)' naming the classic mistake(s) that give exactly these ids (on short texts), or ''."""
    if len(text) > 400:
        return ""
    return diagnose(got, [(lambda mode=mode: _encode(text, merges, mode), hint) for mode, hint in _MISTAKES],
                    atol=0.0, pick="all")


def _show(text):
    return repr(text) if len(text) <= 40 else f"{text[:30]!r}... ({len(text)} characters)"


def _short(items, limit=12):
    items = list(items)
    return str(items) if len(items) <= limit else str(items[:limit])[:-1] + f", ... ({len(items)} in all)]"


def _around(items, index, limit=12):
    """The list shown whole when short, else the ids from a little before `index`, the first difference."""
    if len(items) <= limit:
        return str(items)
    start = max(0, min(index - 3, len(items) - limit))
    shown = ", ".join(str(i) for i in items[start:start + limit])
    return f"[{'..., ' if start else ''}{shown}{', ...' if start + limit < len(items) else ''}]"


def _describe(text, merges, source):
    shown = _short([tuple(m) if type(m) is tuple else list(m) for m in merges], 4) if source is None else source
    return f"bpe_encode({_show(text)}, {shown})"


def _ids(bpe_encode, text, merges, source=None):
    """Call the learner's function; return its ids as a list of Python ints, after type checks."""
    what = _describe(text, merges, source)
    return as_int_list(bpe_encode(text, merges), f"the result of {what}",
                       expected=lambda: _encode(text, merges)), what


def _check(bpe_encode, text, merges, source=None, want=None):
    """The learner's ids are the expected ones; otherwise fail naming the first difference and the mistake."""
    ids, what = _ids(bpe_encode, text, merges, source)
    if want is None:
        want = _encode(text, merges)
    if ids != want:
        first = next((t for t in range(min(len(ids), len(want))) if ids[t] != want[t]), min(len(ids), len(want)))
        decoded = _decode(ids, merges)
        note = ""
        if decoded is not None and decoded != text:
            note = f"; your ids decode to {_show(decoded)}, not the text"
        fail(f"{what}: expected {len(want)} ids {_around(want, first)}, got {len(ids)} ids {_around(ids, first)} "
             f"(first difference at index {first}){note}{_explain(text, merges, ids)}")
    return ids


def test_returns_list_of_ints(bpe_encode):
    """Returns a Python list of Python ints"""
    merges, _ = _train("hello hello", 3)
    for text in ["hello hello", "help", "x"]:
        _ids(bpe_encode, text, merges)


def test_worked_example(bpe_encode):
    """Matches the worked examples: the merges of "aaabdaaabac" on three texts, and "abc" with two merges"""
    merges = [(97, 97), (256, 97), (257, 98)]
    for text in ["aaabdaaabac", "abaaa", "aaaab"]:
        _check(bpe_encode, text, merges)
    _check(bpe_encode, "abc", [(98, 99), (97, 98)])


def test_reproduces_training(bpe_encode):
    """bpe_encode(text, bpe_train(text, n)) gives the ids training ended with"""
    cases = [("aaabdaaabac", 3), ("aaaaaaa", 4), ("abcd", 3), ("the then there these", 6), ("low lower lowest", 7),
             ("héé héé", 3), ("日本日本語", 4), ("abab cdcd abab", 5)]
    for text, n_merges in cases:
        merges, ids = _train(text, n_merges)
        _check(bpe_encode, text, merges, f"bpe_train({_show(text)}, {n_merges})", want=ids)


def test_round_trip(bpe_encode):
    """Decoding the ids gives the text back, also for characters the merges never saw"""
    merges, _ = _train("the cat sat on the mat with the hat", 12)
    source = 'bpe_train("the cat sat on the mat with the hat", 12)'
    for text in ["the cat sat on the mat with the hat", "that hat? the mat!", "über ça 🙂 the", ""]:
        ids = _check(bpe_encode, text, merges, source)
        if _decode(ids, merges) != text:
            fail(f"bpe_encode({_show(text)}, {source}): the ids {_short(ids)} do not decode to the text")


def test_lowest_rank_first(bpe_encode):
    """The pair with the lowest rank goes first, wherever it stands and however often it occurs"""
    for text, merges in [("abc", [(98, 99), (97, 98)]), ("xabcx", [(98, 99), (97, 98), (120, 97)]),
                         ("bcbcabc", [(97, 98), (98, 99)]), ("abcabcbc", [(97, 98), (98, 99), (256, 99)]),
                         ("zzabzz", [(97, 98), (122, 122), (256, 122)])]:
        _check(bpe_encode, text, merges)


def test_all_occurrences(bpe_encode):
    """Each merge replaces all its occurrences, left to right, without overlaps"""
    for text, merges in [("aaaa", [(97, 97)]), ("aaa", [(97, 97)]), ("aaaaaaa", [(97, 97), (256, 256)]),
                         ("abababab", [(97, 98), (256, 256), (257, 257)]), ("xaxaxa ax", [(120, 97)])]:
        _check(bpe_encode, text, merges)


def test_other_text(bpe_encode):
    """Encodes a text other than the training text with the same merges"""
    training = ("Shall I compare thee to a summer's day? Thou art more lovely and more temperate: Rough winds do "
                "shake the darling buds of May, And summer's lease hath all too short a date;")
    merges, _ = _train(training, 40)
    source = "the 40 merges of a line of Shakespeare"
    for text in ["Sometime too hot the eye of heaven shines, And often is his gold complexion dimm'd;",
                 "summer summers summered", "the date of the day"]:
        _check(bpe_encode, text, merges, source)


def test_merges_as_lists(bpe_encode):
    """Accepts the merges as lists [a, b] (as after a round trip through JSON)"""
    for text, n_merges in [("aaabdaaabac", 3), ("low lower lowest", 7)]:
        merges, ids = _train(text, n_merges)
        as_lists = [[a, b] for a, b in merges]
        _check(bpe_encode, text, as_lists, f"{_short(as_lists, 3)} (lists)", want=ids)


def test_edge_cases(bpe_encode):
    """An empty text, a single character, and no merges at all"""
    merges = [(97, 97), (256, 97)]
    for text, m in [("", merges), ("a", merges), ("é", merges), ("hello", []), ("aaa", [])]:
        _check(bpe_encode, text, m)


def test_random_texts(bpe_encode):
    """Matches on 30 random texts from small alphabets, encoded with merges learned from another random text"""
    rng = np.random.default_rng(34)
    for case in range(30):
        alphabet = ["ab", "abc", "a b", "xyz", "aé"][case % 5]

        def draw():
            size = int(rng.integers(3, 40))
            return "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=size))
        merges, _ = _train(draw(), int(rng.integers(1, 10)))
        _check(bpe_encode, draw(), merges)


def test_larger_text(bpe_encode):
    """A text of about 3,000 bytes with 150 merges learned from another text"""
    verse = ("But thy eternal summer shall not fade, Nor lose possession of that fair thou ow'st, Nor shall death "
             "brag thou wander'st in his shade, When in eternal lines to time thou grow'st. ")
    merges, _ = _train((verse * 12)[:2000], 150)
    text = ("So long as men can breathe or eyes can see, So long lives this, and this gives life to thee. " * 32)[:3000]
    _check(bpe_encode, text, merges, "150 merges learned from 2,000 bytes of a sonnet")
