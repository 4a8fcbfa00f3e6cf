"""Hidden tests for bpe_train(text, n_merges).

The expected merges come from the tests' own trainer below, written independently of solution.py: it
records, for every pair, the list of positions where it occurs, picks the pair with the most positions
(ties: the smallest first position) and rebuilds the ids with an explicit scan.  Its keyword arguments
replay the classic mistakes (ties by the pair seen last or by the pair's value, overlapping replacement,
non-overlapping counts, new ids from 255 or 257, stopping at a count of 1, code points instead of
bytes) so a failure message can name the mistake.
"""

import numpy as np

from grader.core.checks import fail, type_name
from grader.core.testkit import diagnose, python_ints


def _positions(ids, non_overlapping=False):
    """{pair: [i, ...]} in order of first occurrence; `non_overlapping` skips a position overlapping the last kept."""
    where = {}
    for i in range(len(ids) - 1):
        pair = (ids[i], ids[i + 1])
        kept = where.setdefault(pair, [])
        if non_overlapping and kept and kept[-1] == i - 1:
            continue
        kept.append(i)
    return where


def _replace(ids, pair, new_id, overlapping=False):
    """ids with the pair replaced from left to right (`overlapping`: every position, the classic mistake)."""
    out = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 1 if overlapping else 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _train(text, n_merges, *, tie="first", overlapping=False, non_overlapping_counts=False, first_id=256,
           min_count=1, code_points=False):
    """(merges, final ids) from the specified rules; the keyword arguments reproduce known mistakes."""
    ids = [ord(c) for c in text] if code_points else list(text.encode("utf-8"))
    merges = []
    while len(merges) < n_merges and len(ids) >= 2:
        where = _positions(ids, non_overlapping_counts)
        pairs = list(where)                       # in order of first occurrence
        most = max(len(where[p]) for p in pairs)
        if most < min_count:
            break
        tied = [p for p in pairs if len(where[p]) == most]
        if tie == "first":
            best = tied[0]
        elif tie == "last":
            best = tied[-1]
        else:                                     # "largest": max over (count, pair)
            best = max(tied)
        ids = _replace(ids, best, first_id + len(merges), overlapping)
        merges.append(best)
    return merges, ids


_MISTAKES = [
    (dict(tie="last"), "looks like ties went to the pair seen last (a loop keeping a pair when count >= best "
                       "count?): ties go to the pair whose first occurrence comes first"),
    (dict(tie="largest"), "looks like ties went to the largest pair (max over (count, pair)?): ties go to the "
                          "pair whose first occurrence comes first"),
    (dict(overlapping=True), "looks like overlapping occurrences were replaced (aaa became two new ids): after "
                             "merging ids[i], ids[i + 1], continue at i + 2"),
    (dict(non_overlapping_counts=True), "looks like only non-overlapping occurrences were counted: count the pair "
                                        "at every position, as minbpe's get_stats (aaa holds (a, a) twice)"),
    (dict(first_id=255), "looks like the new ids start at 255: merge r becomes id 256 + r"),
    (dict(first_id=257), "looks like the new ids start at 257: merge r becomes id 256 + r (the first new id is "
                         "256)"),
    (dict(min_count=2), "looks like training stopped when the best pair occurs only once: such a pair is still "
                        "merged; stop only when fewer than 2 ids are left"),
    (dict(code_points=True), "looks like the ids started as the characters' code points (ord): start from the "
                             "UTF-8 bytes, list(text.encode(\"utf-8\"))"),
]


def _explain(text, n_merges, got):
    """' (hint)' naming the classic mistake(s) that give exactly these merges (on short texts), or ''."""
    if len(text) > 400:
        return ""
    return diagnose(got, [(lambda options=options: _train(text, n_merges, **options)[0], hint)
                          for options, hint in _MISTAKES], atol=0.0, pick="all")


def _show(text):
    return repr(text) if len(text) <= 40 else f"{text[:30]!r}... ({len(text)} characters)"


def _short(pairs, limit=8):
    shown = ", ".join(f"({a}, {b})" for a, b in pairs[:limit])
    return f"[{shown}{', ...' if len(pairs) > limit else ''}]"


def _call(bpe_train, text, n_merges):
    """Call the learner's function; return its merges as a list of (int, int) tuples, after type checks."""
    what = f"bpe_train({_show(text)}, {n_merges})"
    result = bpe_train(text, n_merges)
    if type(result) is not list:
        hint = " (return a list of the pairs)" if type(result) in (tuple, dict) else ""
        fail(f"{what} should return a list of (a, b) tuples, got {type_name(result)}{hint}")
    python_ints(result, what, expected=lambda: _train(text, n_merges)[0])
    merges = []
    for r, pair in enumerate(list.__iter__(result)):
        if type(pair) is not tuple:
            hint = " (append the pair as a tuple, (a, b))" if type(pair) is list else ""
            fail(f"{what}: merge {r} should be a tuple (a, b) of two ints, got {type_name(pair)}{hint}")
        items = list(tuple.__iter__(pair))
        if len(items) != 2:
            fail(f"{what}: merge {r} should be a pair (a, b), got a tuple of {len(items)} values")
        for item in items:
            if type(item) is not int:
                fail(f"{what}: merge {r} should hold two Python ints, got {type_name(item)}")
        merges.append((items[0], items[1]))
    return merges, what


def _check(bpe_train, text, n_merges):
    """The learner's merges are the expected ones; otherwise fail naming the first wrong merge and the mistake."""
    merges, what = _call(bpe_train, text, n_merges)
    want, ids = _train(text, n_merges)
    if merges != want:
        for r in range(min(len(merges), len(want))):
            if merges[r] != want[r]:
                fail(f"{what}: merge {r} should be {want[r]}, got {merges[r]}; expected {_short(want)}, got "
                     f"{_short(merges)}{_explain(text, n_merges, merges)}")
        if len(merges) < len(want):
            reason = (f"{n_merges} were asked for" if len(want) == n_merges else
                      f"training only stops early when fewer than 2 ids are left, here after {len(want)} merges")
            fail(f"{what}: expected {len(want)} merges ({reason}), got {len(merges)}: {_short(merges)}"
                 f"{_explain(text, n_merges, merges)}")
        reason = (f"after them the ids are down to {ids}, so training stops" if len(ids) < 2 else
                  f"{n_merges} were asked for")
        fail(f"{what}: expected the {len(want)} merges {_short(want)} ({reason}), got {len(merges)}")
    return merges


def test_returns_list_of_int_pairs(bpe_train):
    """Returns a list of n_merges tuples (a, b) of Python ints"""
    for text, n_merges in [("hello hello", 3), ("abcabc", 1), ("the cat sat on the mat", 5)]:
        merges, what = _call(bpe_train, text, n_merges)
        if len(merges) != n_merges:
            fail(f"{what}: expected {n_merges} merges, got {len(merges)}")


def test_worked_example(bpe_train):
    """Matches the worked example: bpe_train("aaabdaaabac", 3)"""
    _check(bpe_train, "aaabdaaabac", 3)


def test_runs_overlapping(bpe_train):
    """Runs like "aaaaaaa": overlapping occurrences count, but are merged without overlaps"""
    for text, n_merges in [("aaaaaaa", 4), ("aaa", 1), ("aaaaa", 2), ("baaab", 2), ("aaaaaaaaaaaaaaaa", 5),
                           ("xaaaaaaax aaa", 3)]:
        _check(bpe_train, text, n_merges)


def test_counts_every_position(bpe_train):
    """Counts the pair at every position (a run "aaa" holds (a, a) twice), as minbpe's get_stats"""
    for text, n_merges in [("aaaaabcbcbc", 1), ("aaabcbc", 1), ("aaaxyxyaaa", 2), ("zzzzz hihihi", 1)]:
        _check(bpe_train, text, n_merges)


def test_ties_first_occurrence(bpe_train):
    """Ties go to the pair whose first occurrence comes first"""
    for text, n_merges in [("abcd", 3), ("xyab xyab", 2), ("dcba", 3), ("zy ba zy ba", 3), ("abab cdcd", 2)]:
        _check(bpe_train, text, n_merges)


def test_pairs_seen_once(bpe_train):
    """Pairs seen only once are still merged"""
    for text, n_merges in [("abcdef", 5), ("hello world", 8), ("aab", 2)]:
        _check(bpe_train, text, n_merges)


def test_new_ids(bpe_train):
    """Merge r becomes id 256 + r, and later merges are built on it"""
    for text, n_merges in [("abababababab", 3), ("the then there these", 6), ("low lower lowest", 7)]:
        _check(bpe_train, text, n_merges)


def test_stops_only_without_pairs(bpe_train):
    """Stops early only when fewer than 2 ids are left (empty text, one byte, one merge left)"""
    for text, n_merges in [("ab", 5), ("aaaa", 3), ("", 2), ("a", 1), ("abc", 0), ("aaaaaaaa", 10)]:
        _check(bpe_train, text, n_merges)


def test_non_ascii(bpe_train):
    """Works on the UTF-8 bytes: accents (2 bytes), other scripts (3 bytes), emoji (4 bytes)"""
    for text, n_merges in [("ééé", 2), ("héé héé", 3), ("日本日本語", 4), ("🙂🙂!", 3), ("naïve café ça", 6)]:
        _check(bpe_train, text, n_merges)


def test_random_texts(bpe_train):
    """Matches on 40 random texts from small alphabets (many runs and ties)"""
    rng = np.random.default_rng(33)
    for case in range(40):
        alphabet = ["ab", "abc", "a b", "xyz", "aé"][case % 5]
        length = int(rng.integers(2, 30))
        text = "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=length))
        _check(bpe_train, text, int(rng.integers(1, 12)))


def test_larger_text(bpe_train):
    """A text of about 2,000 bytes and 60 merges"""
    verse = ("Shall I compare thee to a summer's day? Thou art more lovely and more temperate: Rough winds do "
             "shake the darling buds of May, And summer's lease hath all too short a date; ")
    text = (verse * 13)[:2000]
    _check(bpe_train, text, 60)
