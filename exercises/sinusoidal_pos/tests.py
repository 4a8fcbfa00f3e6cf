"""Hidden tests for sinusoidal_pos(seed, T, d_model).

Expected values come from the formula written again below with math.sin/math.cos, independently of
solution.py.  The result is flat; the tests look at it as the (T, d_model) table it flattens, and name
the classic mistake a wrong table matches.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, expect_in_range, fail
from grader.core.testkit import Diagnosis, call, compare, expect_distinct_rows, num, num_pair


def _table(T, d, *, start=0, exponent=None, swap=False, stacked=False, column_major=False):
    """The (T, d) table from the formula; the keyword arguments reproduce known mistakes.

    exponent(i, k, d) gives e in omega = 10000**-e for column k of pair i (correct: 2i/d); `stacked` puts
    every sine before every cosine; `column_major` is the right table flattened column by column.
    """
    half = d // 2
    rows = []
    for t in range(T):
        row = []
        for k in range(d):
            i, use_sin = (k % half, k < half) if stacked else (k // 2, k % 2 == 0)
            e = 2 * i / d if exponent is None else exponent(i, k, d)
            angle = (start + t) / 10000.0 ** e
            row.append(math.sin(angle) if use_sin != swap else math.cos(angle))
        rows.append(row)
    table = np.array(rows, dtype=np.float64).reshape(T, d)
    return table.reshape(-1, order="F").reshape(T, d) if column_major else table


_MISTAKES = [
    (dict(column_major=True), "looks like the table was flattened column by column; .reshape(-1) of the "
                              "(T, d_model) table goes row after row, so entry t * d_model + k is PE[t, k]"),
    (dict(swap=True), "looks like sin and cos are swapped: even columns 2i hold sin, odd columns 2i+1 hold cos"),
    (dict(start=1), "looks like positions start at 1 instead of 0"),
    (dict(exponent=lambda i, k, d: i / d), "looks like the exponent uses i/d_model instead of 2i/d_model"),
    (dict(exponent=lambda i, k, d: 0.0), "looks like every pair got frequency 1: is the exponent computed with "
                                         "integer division (2*i//d_model is always 0)?"),
    (dict(exponent=lambda i, k, d: k / d), "looks like the exponent uses the column index k/d_model, so the cos "
                                           "column gets another frequency than its sin partner"),
    (dict(stacked=True), "looks like all sin values fill the first d_model/2 columns and all cos values the "
                         "last d_model/2; here they alternate (sin in column 2i, cos in column 2i+1)"),
]


def _mistakes(T, d):
    return [(lambda options=options: _table(T, d, **options), hint) for options, hint in _MISTAKES]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _shape_hint(shape, T, d):
    if shape == (T, d):
        return "the table came back 2-D: flatten it with .reshape(-1)"
    if shape == (d, T):
        return "a transposed table; besides, flatten it with .reshape(-1)"
    if shape == (T * d // 2,):
        return "only d_model/2 values per position: each frequency needs a sin and a cos column"
    return ""


def _positions(sinusoidal_pos, T, d, seed=0):
    """The learner's result as the (T, d) table it flattens, and the tolerance."""
    table, precision, _ = call(sinusoidal_pos, seed, T, d, what=f"sinusoidal_pos({seed}, {T}, {d})",
                               shape=(T * d,), shape_hint=lambda shape: _shape_hint(shape, T, d))
    return table.reshape(T, d), precision.tolerance()


def _compare(table, T, d, atol):
    compare(table, _table(T, d), atol=atol, what=f"PE for T={T}, d_model={d}",
            mistakes=_mistakes(T, d) if T * d <= 4096 else (), mistakes_atol=1e-4)


def test_shape(sinusoidal_pos):
    """The result is the flat (T * d_model,) table"""
    for T, d in [(16, 8), (5, 2), (1, 6), (7, 12)]:
        _positions(sinusoidal_pos, T, d)


def test_seed_unused(sinusoidal_pos):
    """Any seed gives the same table"""
    T, d = 6, 8
    first, tol = _positions(sinusoidal_pos, T, d, seed=0)
    for seed in (1, 2026, 2 ** 31 - 1):
        other, _ = _positions(sinusoidal_pos, T, d, seed=seed)
        worst = np.abs(other - first)
        if not worst.max() <= tol:
            t, k = (int(n) for n in np.unravel_index(int(np.argmax(worst)), worst.shape))
            fail(f"sinusoidal_pos({seed}, {T}, {d}) differs from sinusoidal_pos(0, {T}, {d}) at PE[{t}, {k}] "
                 f"({num(other[t, k])} against {num(first[t, k])}): the seed is there for signature "
                 "consistency only and must not change the table", got=other, expected=first)


def test_sizes_cast_with_int(sinusoidal_pos):
    """Sizes given as floats (5.0, 8.0) or numpy integers are cast with int()"""
    for T, d in [(5.0, 8.0), (np.int64(5), np.int32(8))]:
        what = f"sinusoidal_pos(0, {T!r}, {d!r})"
        try:
            result = sinusoidal_pos(0, T, d)
        except (TypeError, ValueError, IndexError) as error:
            fail(f"{what} raised {type(error).__name__}: {error}; the sizes may arrive as floats or numpy "
                 "integers: cast them with T = int(T), d_model = int(d_model) first")
        table, precision, _ = call(lambda: result, what=what, shape=(40,),
                                   shape_hint=lambda shape: _shape_hint(shape, 5, 8))
        _compare(table.reshape(5, 8), 5, 8, precision.tolerance())


def test_position_zero(sinusoidal_pos):
    """At position t=0, even dims are 0 (sin) and odd dims are 1 (cos)"""
    for T, d in [(4, 8), (1, 2), (3, 16)]:
        table, tol = _positions(sinusoidal_pos, T, d)
        for k in range(d):
            want, name = (0.0, "sin(0)") if k % 2 == 0 else (1.0, "cos(0)")
            if not abs(table[0, k] - want) <= tol:
                fail(f"PE[0, {k}] (entry {k} of the result) for T={T}, d_model={d}: expected {name} = {want:g}, "
                     f"got {num(table[0, k])}{_diagnosis(table, T, d)}", got=table, expected=_table(T, d))


def test_hand_checked_entries(sinusoidal_pos):
    """Matches the formula at hand-checked entries, then everywhere"""
    # With d_model = 8 the frequencies 10000**(-2i/8) are exactly 1, 0.1, 0.01 and 0.001.
    T, d = 8, 8
    table, tol = _positions(sinusoidal_pos, T, d)
    for t, k, formula, want in [(3, 1, "cos(3 * 1)", math.cos(3)), (5, 2, "sin(5 * 0.1)", math.sin(0.5)),
                                (7, 5, "cos(7 * 0.01)", math.cos(0.07)), (6, 6, "sin(6 * 0.001)", math.sin(0.006))]:
        if not abs(table[t, k] - want) <= tol:
            want_text, got_text = num_pair(want, table[t, k])
            fail(f"PE[{t}, {k}] (entry {t * d + k} of the result) for T={T}, d_model={d}: expected {formula} = "
                 f"{want_text}, got {got_text}{_diagnosis(table, T, d)}", got=table, expected=_table(T, d))
    _compare(table, T, d, tol)


def test_values_in_range(sinusoidal_pos):
    """All values lie in [-1, 1]"""
    T, d = 100, 20
    table, tol = _positions(sinusoidal_pos, T, d)
    expect_finite(table, what="PE")
    expect_in_range(table, -1.0, 1.0, tol=tol, what=f"PE for T={T}, d_model={d}")


def test_no_collisions(sinusoidal_pos):
    """Different positions get different rows"""
    T, d = 64, 8
    table, tol = _positions(sinusoidal_pos, T, d)
    expect_finite(table, what="PE")
    # For the correct table the closest two rows are about 0.65 apart.
    expect_distinct_rows(table, min_distance=0.01, what=f"PE for T={T}, d_model={d}",
                         row_name=lambda t: f"position t={t}", expected=_table(T, d))


def test_long_sequence(sinusoidal_pos):
    """T = 2048 positions, past any training length (extrapolation)"""
    T, d = 2048, 32
    table, tol = _positions(sinusoidal_pos, T, d)
    expect_finite(table, what="PE")
    expect_in_range(table, -1.0, 1.0, tol=tol, what=f"PE for T={T}, d_model={d}")
    _compare(table, T, d, tol)
