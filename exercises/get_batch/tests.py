"""Hidden tests for get_batch(data, block_size, batch_size, rng).

The expected batch for a seed is built the specified way: a fresh np.random.default_rng(seed), one call
rng.integers(0, N - T, size=B), and the windows cut here with Python loops, independently of solution.py.
The learner's call never advances the tests' generators (offline the generator crosses as its state, in
the browser it is deep-copied).  When a batch is wrong, the tests replay classic mistakes (targets not
shifted or shifted the other way, other bounds for the starts, a second draw for the targets, sampling
without replacement) on the same seed so the message can name the mistake.
"""

import numpy as np

from grader.core.checks import fail, type_name
from grader.core.testkit import diagnose, items


def _windows(data, starts, T, shift):
    """The rows data[s + shift : s + shift + T] as lists, or None when one leaves the data."""
    rows = []
    for s in starts:
        first = int(s) + shift
        if first < 0 or first + T > len(data):
            return None
        rows.append([int(data[first + t]) for t in range(T)])
    return rows


def _expected(data, T, B, seed):
    """(x, y) as lists of rows: the specified draw and windows."""
    starts = np.random.default_rng(seed).integers(0, len(data) - T, size=B)
    return _windows(data, starts, T, 0), _windows(data, starts, T, 1)


def _replays(data, T, B, seed):
    """(x, y, hint) for the classic mistakes on these arguments; x or y is None where the mistake would crash."""
    N = len(data)

    def rng():
        return np.random.default_rng(seed)

    starts = rng().integers(0, N - T, size=B)
    out = [
        (_windows(data, starts, T, 0), _windows(data, starts, T, 0),
         "looks like y is x itself: the targets are the next tokens, data[s + 1 : s + T + 1]"),
        (_windows(data, starts, T, 0), _windows(data, starts, T, -1),
         "looks like y is shifted the wrong way (data[s - 1 : s + T - 1]): the targets are the next tokens, "
         "data[s + 1 : s + T + 1]"),
    ]
    for high, name in [(N - T + 1, "len(data) - block_size + 1"), (N, "len(data)"),
                       (N - T - 1, "len(data) - block_size - 1")]:
        if high > 0:
            other = rng().integers(0, high, size=B)
            out.append((_windows(data, other, T, 0), _windows(data, other, T, 1),
                        f"looks like the starts were drawn with the upper bound {name}: draw them with "
                        f"rng.integers(0, len(data) - block_size, size=batch_size)"))
    g = rng()
    first, second = g.integers(0, N - T, size=B), g.integers(0, N - T, size=B)
    out.append((_windows(data, first, T, 0), _windows(data, second, T, 1),
                "looks like the targets come from a second draw of starts: use the same starts for x and y"))
    if B <= N - T:
        unique = rng().choice(N - T, size=B, replace=False)
        out.append((_windows(data, unique, T, 0), _windows(data, unique, T, 1),
                    "looks like the starts were drawn without replacement: draw them with "
                    "rng.integers(0, len(data) - block_size, size=batch_size), which can repeat a start"))
    return out


def _mistakes(data, T, B, seed):
    """([x, y], hint) for each classic mistake whose batch can be replayed on these arguments."""
    return [([want_x, want_y], hint) for want_x, want_y, hint in _replays(data, T, B, seed)
            if want_x is not None and want_y is not None]


def _describe(data, T, B, seed):
    if isinstance(data, list):
        shown = str(data) if len(data) <= 12 else f"a list of {len(data)} ids"
    else:
        shown = (f"np.array({data.tolist()}, dtype=np.{data.dtype})" if data.size <= 12
                 else f"an array of {data.size} ids (dtype {data.dtype})")
    return f"get_batch({shown}, block_size={T}, batch_size={B}, rng=np.random.default_rng({seed}))"


def _rows(value, name, T, B, what):
    """The learner's x or y as lists of ints, after checking it is a (B, T) integer array."""
    if not issubclass(type(value), np.ndarray):
        hint = " (stack the windows with np.stack(...) or np.array(...))" if type(value) in (list, tuple) else ""
        fail(f"{what}: {name} should be a numpy integer array of shape ({B}, {T}), got {type_name(value)}{hint}")
    array = np.asarray(value)
    if not np.issubdtype(array.dtype, np.integer):
        hint = ""
        if np.issubdtype(array.dtype, np.floating):
            hint = " (np.empty or np.zeros make float arrays: pass dtype=np.int64, or stack the slices of data)"
        fail(f"{what}: {name} should hold integer token ids, got an array of dtype {array.dtype}{hint}")
    if tuple(array.shape) != (B, T):
        hint = ""
        if tuple(array.shape) == (T, B):
            hint = " (rows and columns swapped: one row per window, batch_size rows of block_size ids)"
        fail(f"{what}: {name} should have shape (batch_size, block_size) = ({B}, {T}), got {tuple(array.shape)}{hint}")
    return [[int(v) for v in row] for row in array.tolist()]


def _batch(get_batch, data, T, B, seed):
    """Call the learner's function; return (x, y) as lists of rows, after type and shape checks."""
    what = _describe(data, T, B, seed)
    result = get_batch(data, T, B, np.random.default_rng(seed))
    parts = items(result, what, names=("x", "y"))
    return _rows(parts[0], "x", T, B, what), _rows(parts[1], "y", T, B, what), what


def _check(get_batch, data, T, B, seed):
    """The learner's batch is the specified one; otherwise fail naming the first wrong row and the mistake."""
    x, y, what = _batch(get_batch, data, T, B, seed)
    want_x, want_y = _expected(data, T, B, seed)
    for name, got, want in [("x", x, want_x), ("y", y, want_y)]:
        if got != want:
            b = next(k for k in range(B) if got[k] != want[k])
            fail(f"{what}: row {b} of {name} should be {_short(want[b])}, got {_short(got[b])}"
                 f"{diagnose([x, y], _mistakes(data, T, B, seed), atol=0.0)}",
                 got=np.array(got, dtype=np.float64), expected=np.array(want, dtype=np.float64))
    return x, y


def _short(row):
    return str(row) if len(row) <= 10 else str(row[:10])[:-1] + f", ... ({len(row)} ids)]"


def test_shape_and_dtype(get_batch):
    """Returns x and y as integer arrays of shape (batch_size, block_size)"""
    data = np.arange(50, dtype=np.int64)
    for T, B, seed in [(8, 4, 0), (3, 1, 1), (1, 5, 2), (16, 2, 3)]:
        _batch(get_batch, data, T, B, seed)
    _batch(get_batch, list(range(20)), 5, 3, 4)


def test_worked_example(get_batch):
    """Matches the worked example: get_batch([5, 3, 8, 1, 9, 2, 7, 4, 6, 0], 4, 3, np.random.default_rng(0))"""
    _check(get_batch, [5, 3, 8, 1, 9, 2, 7, 4, 6, 0], 4, 3, 0)


def test_targets_are_next_tokens(get_batch):
    """Every row of y is the row of x moved one token on: y[b, t] = x[b, t + 1], then the next token of data"""
    # Distinct ids (a window fixes its start), int64 on every platform (the page's default int is 32-bit).
    data = (np.random.default_rng(32).permutation(200) + 1000).astype(np.int64)
    T, B = 12, 6
    for seed in range(3):
        x, y, what = _batch(get_batch, data, T, B, seed)
        position = {int(v): i for i, v in enumerate(data)}
        for b in range(B):
            s = position.get(x[b][0])
            if s is None or x[b] != [int(v) for v in data[s:s + T]]:
                fail(f"{what}: row {b} of x, {_short(x[b])}, is not a window of {T} consecutive ids of data")
            if s + T >= len(data):
                fail(f"{what}: row {b} of x starts at {s}, so its targets would run past the end of the data "
                     f"(the last start allowed is len(data) - block_size - 1 = {len(data) - T - 1})")
            want = [int(v) for v in data[s + 1:s + T + 1]]
            if y[b] != want:
                hint = ""
                if y[b] == x[b]:
                    hint = " (y is x itself: the targets are the next tokens)"
                elif s >= 1 and y[b] == [int(v) for v in data[s - 1:s + T - 1]]:
                    hint = " (y is shifted the wrong way: data[s + 1 : s + T + 1], not data[s - 1 : s + T - 1])"
                fail(f"{what}: x[{b}] starts at data[{s}], so y[{b}] should be data[{s + 1}:{s + T + 1}] = "
                     f"{_short(want)}, got {_short(y[b])}{hint}")


def test_seeded_draws(get_batch):
    """The starts are the draws of rng.integers(0, len(data) - block_size, size=batch_size) on the generator given"""
    data = np.arange(100, 160, dtype=np.int64)
    for T, B, seed in [(8, 4, 0), (8, 4, 1), (5, 10, 2), (20, 3, 3), (1, 8, 4)]:
        _check(get_batch, data, T, B, seed)


def test_largest_start(get_batch):
    """Starts go up to len(data) - block_size - 1, never beyond (data just a few tokens longer than a window)"""
    for N, T, B, seed in [(6, 5, 6, 5), (7, 5, 12, 6), (9, 4, 16, 7), (12, 3, 20, 8)]:
        _check(get_batch, list(range(10, 10 + N)), T, B, seed)


def test_data_as_list(get_batch):
    """Accepts data as a Python list of ints"""
    data = [int(v) for v in np.random.default_rng(320).integers(0, 65, size=80)]
    for T, B, seed in [(6, 4, 10), (16, 2, 11)]:
        _check(get_batch, data, T, B, seed)


def test_uint16_data(get_batch):
    """Accepts data as a uint16 array (how nanoGPT stores token ids), with ids above 255"""
    data = np.random.default_rng(321).integers(0, 50257, size=300).astype(np.uint16)
    _check(get_batch, data, 32, 4, 12)


def test_same_generator_state_same_batch(get_batch):
    """Two generators in the same state give the same batch, and other seeds give other batches"""
    data = np.arange(1000, dtype=np.int64)
    T, B = 16, 8
    x1, y1, what = _batch(get_batch, data, T, B, 20)
    x2, y2, _ = _batch(get_batch, data, T, B, 20)
    if x1 != x2 or y1 != y2:
        fail(f"{what} was called twice with generators in the same state and returned different batches: draw "
             f"only with the rng argument, never with np.random.* or the random module, and do not create a "
             f"generator of your own")
    x3, _, other = _batch(get_batch, data, T, B, 21)
    if x3 == x1:
        fail(f"{what} and {other} returned the same batch: the starts must be drawn from the rng argument")
    _check(get_batch, data, T, B, 20)


def test_large_data(get_batch):
    """A long stream: 200,000 ids, batches of 32 windows of 128"""
    data = np.random.default_rng(322).integers(0, 50000, size=200_000)
    _check(get_batch, data, 128, 32, 30)
