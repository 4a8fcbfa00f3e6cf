"""Hidden tests for t5_relative_bucket(seed, T, num_buckets=32, max_distance=128, bidirectional=True).

Expected buckets come from T5's rule written again below for one offset at a time with math.log,
independently of solution.py.  Every size tested gives the same buckets with float32 and float64
logarithms and with the usual ways of writing the ratio of logs, so any honest computation agrees.
"""

import math

import numpy as np

from grader.core.checks import fail, type_name
from grader.core.testkit import diagnose


def _bucket(n, num_buckets, max_distance, bidirectional, *, flip=False, no_halving=False, exact_from_all=False,
            no_clip=False, rounded=False, future=False):
    """The bucket of offset n = j - i; the keyword arguments reproduce known mistakes."""
    n = -n if flip else n
    B, offset = num_buckets, 0
    if bidirectional:
        B = num_buckets if no_halving else num_buckets // 2
        offset = num_buckets // 2 if n > 0 else 0
        m = abs(n)
    else:
        m = max(n, 0) if future else max(-n, 0)
    E = num_buckets // 2 if exact_from_all else B // 2
    if m < E:
        return offset + m
    scaled = math.log(m / E) / math.log(max_distance / E) * (B - E) if B > E else 0.0
    far = E + (round(scaled) if rounded else int(scaled))
    return offset + (far if no_clip else min(far, B - 1))


def _expected(T, num_buckets=32, max_distance=128, bidirectional=True, **mistake):
    by_offset = np.array([_bucket(n, num_buckets, max_distance, bidirectional, **mistake)
                          for n in range(-(T - 1), T)], dtype=np.int64)
    return by_offset[np.arange(T)[None, :] - np.arange(T)[:, None] + T - 1]


_MISTAKES = [
    (dict(flip=True), "looks like the offset was taken as i - j (query minus key); here n = j - i, so keys after "
                      "the query (j > i) get the upper half of the buckets, or bucket 0 when unidirectional"),
    (dict(no_halving=True), "looks like the bidirectional case kept all num_buckets for each direction; "
                            "halve it first (num_buckets // 2 per direction)"),
    (dict(exact_from_all=True), "looks like max_exact was taken from all the buckets; it is half of the "
                                "direction's buckets (num_buckets // 2 // 2 when bidirectional)"),
    (dict(no_clip=True), "looks like the far buckets were not clipped: every offset from max_distance on "
                         "shares the last bucket of its direction"),
    (dict(rounded=True), "looks like the logarithmic bucket was rounded; T5 truncates it (int(), astype)"),
    (dict(future=True), "looks like the unidirectional table counts keys after the query; there every key "
                        "after the query is bucket 0 and m = i - j for the others"),
]


def _mistakes(T, num_buckets, max_distance, bidirectional):
    # Unidirectional, i - j and counting the keys after the query give one table: name the latter first there.
    ordered = _MISTAKES if bidirectional else _MISTAKES[-1:] + _MISTAKES[:-1]
    return [(lambda options=options: _expected(T, num_buckets, max_distance, bidirectional, **options), hint)
            for options, hint in ordered]


def _what(T, num_buckets, max_distance, bidirectional, seed=0):
    return f"t5_relative_bucket({seed}, {T}, {num_buckets}, {max_distance}, {bidirectional})"


def _checked(result, T, what):
    """The learner's result as the (T, T) int64 table it flattens, after checking type, dtype and shape."""
    if result is None:
        fail(f"{what}: expected an integer array of shape ({T * T},), got None (did you forget to return it?)")
    if not issubclass(type(result), np.ndarray):
        hint = " (wrap it with np.array(...))" if issubclass(type(result), (list, tuple)) else ""
        fail(f"{what} should be a numpy integer array, got {type_name(result)}{hint}")
    table = np.array(result, copy=True, subok=False)
    if not np.issubdtype(table.dtype, np.integer):
        fail(f"{what} should hold integers (bucket numbers), got dtype {table.dtype}: convert the logarithmic "
             "bucket with .astype(int) (truncating, as T5 does)")
    if table.shape != (T * T,):
        hint = " (the table came back 2-D: flatten it with .reshape(-1))" if table.shape == (T, T) else ""
        fail(f"{what}: expected shape ({T * T},), got {table.shape}{hint}")
    return table.astype(np.int64).reshape(T, T)


def _buckets(t5_relative_bucket, T, num_buckets=32, max_distance=128, bidirectional=True, seed=0):
    what = _what(T, num_buckets, max_distance, bidirectional, seed)
    return _checked(t5_relative_bucket(seed, T, num_buckets, max_distance, bidirectional), T, what), what


def _compare(table, T, num_buckets=32, max_distance=128, bidirectional=True, what=""):
    """Fail at the first entry that differs, with its offset and the mistake it looks like."""
    expected = _expected(T, num_buckets, max_distance, bidirectional)
    wrong = table != expected
    if wrong.any():
        i, j = (int(k) for k in np.argwhere(wrong)[0])
        hint = diagnose(table, _mistakes(T, num_buckets, max_distance, bidirectional) if T <= 200 else [],
                        atol=0.0)
        fail(f"{what}, entry [{i}, {j}] (query {i}, key {j}, offset j - i = {j - i}; entry {i * T + j} of the "
             f"result): expected bucket {expected[i, j]}, got {table[i, j]} ({int(wrong.sum())} of {table.size} "
             f"entries differ){hint}", got=table.astype(np.float64), expected=expected.astype(np.float64))


def test_shape_and_dtype(t5_relative_bucket):
    """The result is the flat (T * T,) table of integers"""
    for T, bidirectional in [(5, True), (1, True), (12, False)]:
        _buckets(t5_relative_bucket, T, bidirectional=bidirectional)


def test_seed_unused(t5_relative_bucket):
    """Any seed gives the same buckets"""
    first, _ = _buckets(t5_relative_bucket, 20)
    for seed in (1, 2026):
        other, what = _buckets(t5_relative_bucket, 20, seed=seed)
        if (other != first).any():
            fail(f"{what} differs from the same call with seed 0: the seed is there for signature consistency "
                 "only and must not change the result", got=other.astype(float), expected=first.astype(float))


def test_sizes_cast_with_int(t5_relative_bucket):
    """Sizes given as floats (6.0, 32.0, 128.0) are cast with int()"""
    what = "t5_relative_bucket(0, 6.0, 32.0, 128.0, True)"
    try:
        result = t5_relative_bucket(0, 6.0, 32.0, 128.0, True)
    except (TypeError, ValueError, IndexError) as error:
        fail(f"{what} raised {type(error).__name__}: {error}; the sizes may arrive as floats: cast them with "
             "int() first")
    _compare(_checked(result, 6, what), 6, what=what)


def test_diagonal(t5_relative_bucket):
    """A query and itself (offset 0) share bucket 0, and no other pair does when bidirectional"""
    T = 10
    table, what = _buckets(t5_relative_bucket, T)
    for i in range(T):
        if table[i, i] != 0:
            fail(f"{what}, entry [{i}, {i}]: offset 0 should be bucket 0, got {table[i, i]}",
                 got=table.astype(float), expected=_expected(T).astype(float))
    zeros = np.argwhere(table == 0)
    off = [(int(i), int(j)) for i, j in zeros if i != j]
    if off:
        i, j = off[0]
        fail(f"{what}, entry [{i}, {j}] (offset {j - i}) is bucket 0 too: when bidirectional only offset 0 is"
             f"{diagnose(table, _mistakes(T, 32, 128, True), atol=0.0)}",
             got=table.astype(float), expected=_expected(T).astype(float))


def test_hand_checked(t5_relative_bucket):
    """Matches hand-checked buckets, then the whole table"""
    T = 24
    table, what = _buckets(t5_relative_bucket, T)
    # Defaults: 16 buckets per direction, 8 exact; offset 20 is 8 + int(ln(20/8) / ln(128/8) * 8) = 8 + 2.
    for i, j, reason, want in [(0, 1, "key after the query: 16 + 1", 17), (1, 0, "key before: exact, 1", 1),
                               (0, 7, "16 + 7, the last exact bucket", 23), (0, 8, "16 + 8, the first log bucket", 24),
                               (0, 20, "16 + 8 + 2", 26), (20, 0, "8 + 2", 10)]:
        if table[i, j] != want:
            fail(f"{what}, entry [{i}, {j}] (offset j - i = {j - i}): expected bucket {want} ({reason}), got "
                 f"{table[i, j]}{diagnose(table, _mistakes(T, 32, 128, True), atol=0.0)}",
                 got=table.astype(float), expected=_expected(T).astype(float))
    _compare(table, T, what=what)
    small, what = _buckets(t5_relative_bucket, 4, 8, 16)
    _compare(small, 4, 8, 16, what=what)


def test_directions(t5_relative_bucket):
    """Bidirectional: keys after the query in the upper half; unidirectional: all in bucket 0"""
    T = 30
    table, what = _buckets(t5_relative_bucket, T, 16, 64, True)
    after = np.triu(np.ones((T, T), dtype=bool), 1)
    for i, j in np.argwhere(after & (table < 8) | ~after & (table >= 8)):
        fail(f"{what}, entry [{int(i)}, {int(j)}] (offset j - i = {int(j - i)}): got bucket {table[i, j]}; keys "
             "after the query (j > i) belong in the upper half (8 to 15), the others in the lower half (0 to 7)"
             f"{diagnose(table, _mistakes(T, 16, 64, True), atol=0.0)}",
             got=table.astype(float), expected=_expected(T, 16, 64, True).astype(float))
    _compare(table, T, 16, 64, True, what=what)
    table, what = _buckets(t5_relative_bucket, T, 16, 64, False)
    for i, j in np.argwhere(after & (table != 0)):
        fail(f"{what}, entry [{int(i)}, {int(j)}] (offset j - i = {int(j - i)}): got bucket {table[i, j]}; when "
             "unidirectional every key after the query is bucket 0"
             f"{diagnose(table, _mistakes(T, 16, 64, False), atol=0.0)}",
             got=table.astype(float), expected=_expected(T, 16, 64, False).astype(float))
    _compare(table, T, 16, 64, False, what=what)


def test_bucket_edges(t5_relative_bucket):
    """The edges: the last exact bucket, the first logarithmic one, max_distance and beyond"""
    for num_buckets, max_distance, bidirectional in [(32, 128, False), (12, 50, True), (6, 10, False),
                                                      (32, 64, True)]:
        T = max_distance + 8
        table, what = _buckets(t5_relative_bucket, T, num_buckets, max_distance, bidirectional)
        B = num_buckets // 2 if bidirectional else num_buckets
        E = B // 2
        for m, name in [(E - 1, "the last exact offset"), (E, "the first logarithmic offset"),
                        (max_distance - 1, "just below max_distance"), (max_distance, "max_distance"),
                        (T - 1, "past max_distance")]:
            want = _bucket(-m, num_buckets, max_distance, bidirectional)
            if table[m, 0] != want:
                fail(f"{what}, entry [{m}, 0] (offset {-m}, {name}): expected bucket {want}, got {table[m, 0]}"
                     f"{diagnose(table, _mistakes(T, num_buckets, max_distance, bidirectional), atol=0.0)}",
                     got=table.astype(float),
                     expected=_expected(T, num_buckets, max_distance, bidirectional).astype(float))
        _compare(table, T, num_buckets, max_distance, bidirectional, what=what)


def test_in_range(t5_relative_bucket):
    """Every bucket lies in 0 .. num_buckets - 1"""
    for bidirectional in (True, False):
        T = 300
        table, what = _buckets(t5_relative_bucket, T, 16, 64, bidirectional)
        outside = (table < 0) | (table >= 16)
        if outside.any():
            i, j = (int(k) for k in np.argwhere(outside)[0])
            fail(f"{what}, entry [{i}, {j}] (offset {j - i}): got bucket {table[i, j]}, outside 0 .. 15 "
                 f"({int(outside.sum())} of {table.size} entries are)"
                 f"{diagnose(table, _mistakes(T, 16, 64, bidirectional), atol=0.0)}",
                 got=table.astype(float), expected=_expected(T, 16, 64, bidirectional).astype(float))


def test_long_sequence(t5_relative_bucket):
    """T = 2048, far past max_distance"""
    table, what = _buckets(t5_relative_bucket, 2048)
    _compare(table, 2048, what=what)
