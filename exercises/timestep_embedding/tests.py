"""Hidden tests for timestep_embedding(seed, timesteps, dim, max_period=10000).

Expected values come from the formula written again below with math.cos/math.sin, independently of
solution.py.  The flat result is looked at as its (N, dim) table, and a wrong table is matched against the
classic mistakes (the original DDPM's convention among them) to name it.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, expect_in_range, fail
from grader.core.testkit import Diagnosis, call, compare, expect_distinct_rows, num, num_pair


def _table(ts, dim, max_period=10000, *, sin_first=False, divisor=None, interleaved=False, period=None,
           log=math.log):
    """The (N, dim) table; the keyword arguments reproduce known mistakes: `divisor(h)` replaces h in the
    exponent, `period` replaces max_period, `log` replaces the natural logarithm."""
    half = dim // 2
    period = max_period if period is None else period
    div = half if divisor is None else divisor(half)
    freqs = [math.exp(-log(period) * k / div) for k in range(half)]
    rows = []
    for t in ts:
        first, second = [math.cos(t * f) for f in freqs], [math.sin(t * f) for f in freqs]
        if sin_first:
            first, second = second, first
        row = [v for pair in zip(first, second) for v in pair] if interleaved else first + second
        rows.append(row + [0.0] * (dim % 2))
    return np.array(rows, dtype=np.float64).reshape(len(ts), dim)


_MISTAKES = [
    (dict(sin_first=True), "looks like the sines come first; here the cosines fill the first dim // 2 columns "
                           "and the sines the next (the original DDPM's code has sin first)"),
    (dict(divisor=lambda h: h - 1), "looks like the exponent divides by h - 1, as the original DDPM's code does; "
                                    "here f_k = exp(-ln(max_period) * k / h) with h = dim // 2"),
    (dict(sin_first=True, divisor=lambda h: h - 1), "looks like the original DDPM's convention (sines first, "
                                                    "exponent divided by h - 1); here cosines first, divided by h"),
    (dict(interleaved=True), "looks like cosines and sines alternate column by column; here all the cosines "
                             "come first, then all the sines (concatenated)"),
    (dict(log=math.log10), "looks like log10 was used; the frequencies use the natural logarithm, "
                           "exp(-ln(max_period) * k / h)"),
    (dict(period=10000), "looks like max_period was ignored (10000 used whatever it says)"),
]


def _mistakes(ts, dim, max_period=10000):
    return [(lambda options=options: _table(ts, dim, max_period, **options), hint)
            for options, hint in _MISTAKES if not (dim // 2 == 1 and "divisor" in options)]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _shape_hint(shape, N, dim):
    if shape == (N, dim):
        return "the table came back 2-D: flatten it with .reshape(-1)"
    if dim % 2 and shape == (N * (dim - 1),):
        return "dim is odd: append one column of zeros to each row"
    if shape == (dim,) and N > 1:
        return "one row only: every timestep gets its row"
    return ""


def _embed(timestep_embedding, ts, dim, max_period=None, seed=0, N=None):
    """The learner's result as the (N, dim) table it flattens, and the tolerance."""
    N = len(ts) if N is None else N
    args = (seed, ts, dim) if max_period is None else (seed, ts, dim, max_period)
    shown = ts if isinstance(ts, (int, float)) else f"{type(ts).__name__} of {N} timesteps"
    what = f"timestep_embedding({seed}, {shown}, {dim}" + ("" if max_period is None else f", {max_period}") + ")"
    table, precision, _ = call(timestep_embedding, *args, what=what, shape=(N * dim,),
                               shape_hint=lambda shape: _shape_hint(shape, N, dim))
    return table.reshape(N, dim), precision.tolerance(), what


def _compare(table, ts, dim, max_period, atol, what):
    compare(table, _table(ts, dim, max_period), atol=atol, what=what,
            mistakes=_mistakes(ts, dim, max_period) if table.size <= 4096 else (), mistakes_atol=1e-4)


def test_shape(timestep_embedding):
    """The result is the flat (N * dim,) table, for even and odd dim"""
    for ts, dim in [([0, 1, 2], 8), (np.arange(5.0), 6), ([3], 4), ([1.5, 7.0], 5), (np.array([4, 9]), 3)]:
        _embed(timestep_embedding, ts, dim)


def test_seed_unused(timestep_embedding):
    """Any seed gives the same embedding"""
    ts, dim = [0.0, 3.0, 10.5], 8
    first, tol, _ = _embed(timestep_embedding, ts, dim, seed=0)
    for seed in (1, 2026):
        other, _, what = _embed(timestep_embedding, ts, dim, seed=seed)
        if not np.abs(other - first).max() <= tol:
            fail(f"{what} differs from the same call with seed 0: the seed is there for signature consistency "
                 "only and must not change the result", got=other, expected=first)


def test_single_timestep(timestep_embedding):
    """A single number is the 1-element list [t]"""
    for t, dim in [(5, 8), (2.5, 5)]:
        try:
            result = timestep_embedding(0, t, dim)
        except (TypeError, ValueError, IndexError) as error:
            fail(f"timestep_embedding(0, {t}, {dim}) raised {type(error).__name__}: {error}; a single timestep "
                 f"counts as the list [{t}]: np.asarray(timesteps, dtype=np.float64).reshape(-1) makes it 1-D")
        what = f"timestep_embedding(0, {t}, {dim})"
        table, precision, _ = call(lambda: result, what=what, shape=(dim,),
                                   shape_hint=lambda shape: _shape_hint(shape, 1, dim))
        _compare(table.reshape(1, dim), [t], dim, 10000, precision.tolerance(), what)


def test_sizes_cast_with_int(timestep_embedding):
    """dim given as a float (8.0) or a numpy integer is cast with int()"""
    for dim in (8.0, np.int64(8)):
        what = f"timestep_embedding(0, [1, 2], {dim!r})"
        try:
            result = timestep_embedding(0, [1, 2], dim)
        except (TypeError, ValueError, IndexError) as error:
            fail(f"{what} raised {type(error).__name__}: {error}; dim may arrive as a float or a numpy integer: "
                 "cast it with dim = int(dim) first")
        table, precision, _ = call(lambda: result, what=what, shape=(16,),
                                   shape_hint=lambda shape: _shape_hint(shape, 2, 8))
        _compare(table.reshape(2, 8), [1, 2], 8, 10000, precision.tolerance(), what)


def test_time_zero(timestep_embedding):
    """At t = 0 the cosines are 1, the sines (and an odd dim's last column) 0"""
    for dim in (8, 7):
        table, tol, what = _embed(timestep_embedding, [0.0, 1.0], dim)
        want = [1.0] * (dim // 2) + [0.0] * (dim - dim // 2)
        if not np.abs(table[0] - want).max() <= tol:
            fail(f"row 0 (t = 0) of {what}: expected {want}, got {[num(v) for v in table[0]]}"
                 f"{_diagnosis(table, [0.0, 1.0], dim)}", got=table, expected=_table([0.0, 1.0], dim))


def test_hand_checked_entries(timestep_embedding):
    """Matches hand-checked entries at fractional times, then the whole table"""
    # dim = 8: h = 4 and the frequencies exp(-ln(10000) * k / 4) are 1, 0.1, 0.01 and 0.001.
    ts, dim = [0.5, 2.0, 37.25], 8
    table, tol, what = _embed(timestep_embedding, ts, dim)
    for n, k, formula, want in [(0, 0, "cos(0.5 * 1)", math.cos(0.5)), (1, 5, "sin(2 * 0.1)", math.sin(0.2)),
                                (2, 2, "cos(37.25 * 0.01)", math.cos(0.3725)),
                                (2, 7, "sin(37.25 * 0.001)", math.sin(0.03725))]:
        if not abs(table[n, k] - want) <= tol:
            want_text, got_text = num_pair(want, table[n, k])
            fail(f"entry [{n}, {k}] (t = {ts[n]}; entry {n * dim + k} of the result) of {what}: expected "
                 f"{formula} = {want_text}, got {got_text}{_diagnosis(table, ts, dim)}",
                 got=table, expected=_table(ts, dim))
    _compare(table, ts, dim, 10000, tol, what)


def test_odd_dim(timestep_embedding):
    """An odd dim ends each row with a zero column"""
    ts, dim = [1.0, 4.5, 20.0], 7
    table, tol, what = _embed(timestep_embedding, ts, dim)
    if not np.abs(table[:, -1]).max() <= tol:
        fail(f"the last column of {what} should be 0 (dim is odd: h = 3 cosines, 3 sines, then a zero column), "
             f"got {[num(v) for v in table[:, -1]]}", got=table, expected=_table(ts, dim))
    _compare(table, ts, dim, 10000, tol, what)


def test_max_period(timestep_embedding):
    """max_period sets the frequencies"""
    for ts, dim, max_period in [([3.0, 11.0], 6, 100), ([0.25, 6.0, 50.0], 10, 1000.0)]:
        table, tol, what = _embed(timestep_embedding, ts, dim, max_period)
        _compare(table, ts, dim, max_period, tol, what)


def test_values_in_range(timestep_embedding):
    """All values lie in [-1, 1]"""
    ts, dim = np.linspace(0.0, 999.0, 50), 16
    table, tol, what = _embed(timestep_embedding, ts, dim)
    expect_finite(table, what=what)
    expect_in_range(table, -1.0, 1.0, tol=tol, what=what)


def test_no_collisions(timestep_embedding):
    """Different timesteps get different rows"""
    ts, dim = np.arange(64.0), 8
    table, tol, what = _embed(timestep_embedding, ts, dim)
    expect_finite(table, what=what)
    # For the correct table the closest two rows are about 0.65 apart.
    expect_distinct_rows(table, min_distance=0.01, what=what, row_name=lambda n: f"t = {n}",
                         expected=_table(list(ts), dim))


def test_long_range(timestep_embedding):
    """Timesteps 0 to 2047 (extrapolation past a 1000-step schedule)"""
    ts, dim = np.arange(2048.0), 32
    table, tol, what = _embed(timestep_embedding, ts, dim)
    expect_finite(table, what=what)
    _compare(table, list(ts), dim, 10000, tol, what)
