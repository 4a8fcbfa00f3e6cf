"""Hidden tests for char_tokenize(text).

The expected vocabulary is built here from the code points of the text (a set of ord values, sorted,
turned back into characters) and the expected ids by scanning that vocabulary, independently of
solution.py.  The learner's result is read with type checks only (no ==, len or methods on it before
it is known to be a plain str or list).  When a vocabulary is wrong, the tests compare it with the
vocabularies of classic mistakes (first-seen order, most frequent first, duplicates kept) so the
message can name the mistake.
"""

import numpy as np

from grader.core.checks import fail, type_name
from grader.core.testkit import as_int_list, items


def _expected(text):
    """(vocab, ids): the distinct code points in increasing order, and each character's position."""
    points = sorted({ord(c) for c in text})
    vocab = "".join(chr(p) for p in points)
    position = {}
    for i, c in enumerate(vocab):
        position[c] = i
    return vocab, [position[c] for c in text]


def _first_seen(text):
    seen = []
    for c in text:
        if c not in seen:
            seen.append(c)
    return "".join(seen)


def _by_frequency(text):
    counts = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    return "".join(sorted(counts, key=lambda c: -counts[c]))   # stable: ties stay in first-seen order


_VOCAB_MISTAKES = [
    (_first_seen, "looks like the characters are in the order they first appear in the text: sort them by code "
                  "point, \"\".join(sorted(set(text)))"),
    (_by_frequency, "looks like the most frequent characters come first: sort the distinct characters by code "
                    "point instead"),
    (lambda text: "".join(sorted(text)), "looks like every repeated character was kept: take the distinct "
                                         "characters first, set(text)"),
    (lambda text: "".join(sorted(set(text), reverse=True)), "looks like the order is reversed: increasing code "
                                                            "points, as sorted(...) gives"),
]


def _show(text):
    """The text as the learner would type it, shortened when long."""
    return repr(text) if len(text) <= 40 else f"{text[:30]!r}... ({len(text)} characters)"


def _shorten(items, limit=12):
    items = list(items)
    return str(items) if len(items) <= limit else str(items[:limit])[:-1] + f", ... ({len(items)} in all)]"


def _call(char_tokenize, text):
    """Call the learner's function; return (vocab, ids) as a str and a list of ints, after type checks."""
    what = f"char_tokenize({_show(text)})"
    result = char_tokenize(text)
    vocab, ids = items(result, what, names=("vocab", "ids"))
    if type(vocab) is not str:
        hint = ""
        if type(vocab) is list:
            hint = " (sorted(set(text)) is a list of characters: make it a string with \"\".join(...))"
        elif issubclass(type(vocab), np.ndarray):
            hint = " (make it a string with \"\".join(...))"
        fail(f"{what}: vocab should be a str, got {type_name(vocab)}{hint}")
    ids = as_int_list(ids, f"{what}: ids", expected=lambda: _expected(text)[1], item_hint=lambda item: (
        "the character itself: the id is its index in vocab" if type(item) is str else ""))
    return vocab, ids, what


def _vocab_hint(text, vocab):
    for mistake, hint in _VOCAB_MISTAKES:
        candidate = mistake(text)
        if vocab == candidate:
            return f" ({hint})"
    return ""


def _check(char_tokenize, text):
    """The learner's (vocab, ids) for text are the expected ones; otherwise fail naming the first difference."""
    vocab, ids, what = _call(char_tokenize, text)
    want_vocab, want_ids = _expected(text)
    if vocab != want_vocab:
        fail(f"{what}: expected vocab {_show(want_vocab)}, got {_show(vocab)}{_vocab_hint(text, vocab)}")
    if len(ids) != len(want_ids):
        fail(f"{what}: expected {len(want_ids)} ids (one per character of the text), got {len(ids)}")
    if ids != want_ids:
        t = next(k for k in range(len(ids)) if ids[k] != want_ids[k])
        hint = ""
        if all(a == b + 1 for a, b in zip(ids, want_ids)):
            hint = " (every id is one too large: ids start at 0, the index of the character in vocab)"
        fail(f"{what}: ids[{t}] (the character {text[t]!r}) should be {want_ids[t]}, its index in vocab "
             f"{_show(want_vocab)}, got {ids[t]}{hint}; expected ids {_shorten(want_ids)}, got {_shorten(ids)}")
    return vocab, ids


def test_returns_vocab_and_ids(char_tokenize):
    """Returns a tuple (vocab, ids): a str and a Python list of Python ints, one id per character"""
    for text in ["hello world", "abc", "to be or not to be"]:
        vocab, ids, what = _call(char_tokenize, text)
        if len(ids) != len(text):
            fail(f"{what}: expected {len(text)} ids (one per character of the text), got {len(ids)}")


def test_worked_example(char_tokenize):
    """Matches the worked example: char_tokenize("hello world")"""
    _check(char_tokenize, "hello world")


def test_sorted_by_code_point(char_tokenize):
    """The vocabulary is sorted by code point (space and punctuation, digits, uppercase, then lowercase)"""
    for text in ["banana", "Hello, World!", "zebra crossing at 10:45, Platform 9", "cab\ncba\n"]:
        _check(char_tokenize, text)


def test_repeated_characters(char_tokenize):
    """Repeated characters appear once in the vocabulary and share one id"""
    for text in ["aaaa", "a", "\n\n\n", "abababab", "mississippi"]:
        _check(char_tokenize, text)


def test_empty_text(char_tokenize):
    """An empty text gives an empty vocabulary and no ids"""
    _check(char_tokenize, "")


def test_non_ascii(char_tokenize):
    """Non-ASCII characters (accents, other scripts, emoji) are characters like any other"""
    for text in ["naïve café", "Ünïcödé: ça va? Größe 5 €", "日本語のテキスト、日本", "tea ☕ or 🙂 or ☕?"]:
        _check(char_tokenize, text)


def test_round_trip(char_tokenize):
    """Decoding the ids with the vocabulary gives the text back"""
    text = ("First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\n"
            "First Citizen:\nYou are all resolved rather to die than to famish?\n")
    vocab, ids = _check(char_tokenize, text)
    decoded = "".join(vocab[i] for i in ids)
    if decoded != text:
        fail(f"char_tokenize({_show(text)}): decoding the ids gives {_show(decoded)}, not the text")


def test_large_text(char_tokenize):
    """A text of 200,000 characters with about 90 distinct ones (the size of a small training file)"""
    rng = np.random.default_rng(31)
    words = ["the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "with", "was", "on",
             "King", "Queen", "ROMEO", "JULIET", "thee", "thou", "hath", "doth", "Ay", "O", "'tis", "e'en",
             "café", "naïve", "Ødegaard", "über", "x2", "42", "3.14", "-", "&", "(yes)", "[no]", "#1", "@home",
             "Zeal;", "Quick!", "jump?", "vex", "why:", "\"so\""]
    pieces, size = [], 0
    while size < 200_000:
        word = words[int(rng.integers(len(words)))]
        pieces.append(word + ("\n" if rng.random() < 0.1 else " "))
        size += len(pieces[-1])
    text = "".join(pieces)[:200_000]
    _check(char_tokenize, text)
