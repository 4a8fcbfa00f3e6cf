"""Hidden tests for sincos_2d(seed, H, W, d_model).

Expected values come from the 1-D formula written again below with math.sin/math.cos, independently of
solution.py and of step 1's reference.  The flat result is looked at as its (H * W, d_model) table, and a
wrong table is matched against the classic mistakes (MAE's layout among them) to name it.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, expect_in_range, fail
from grader.core.testkit import Diagnosis, call, compare, expect_distinct_rows, num, num_pair


def _encoding(t, D, *, stacked=False, exponent_width=None):
    """Row t of the 1-D table of width D: interleaved (or `stacked`: sines, then cosines); the exponent 2i
    is divided by `exponent_width` (correct: D)."""
    half, width = D // 2, exponent_width or D
    angles = [t / 10000.0 ** (2 * i / width) for i in range(half)]
    if stacked:
        return [math.sin(a) for a in angles] + [math.cos(a) for a in angles]
    return [f(a) for a in angles for f in (math.sin, math.cos)]


def _table(H, W, d, *, column_first=False, stacked=False, column_major=False, full_width=False):
    """The (H * W, d) table; the keyword arguments reproduce known mistakes."""
    D = d // 2
    cells = [(p % H, p // H) if column_major else (p // W, p % W) for p in range(H * W)]
    rows = []
    for r, c in cells:
        first, second = (c, r) if column_first else (r, c)
        options = dict(stacked=stacked, exponent_width=d if full_width else None)
        rows.append(_encoding(first, D, **options) + _encoding(second, D, **options))
    return np.array(rows, dtype=np.float64).reshape(H * W, d)


_MISTAKES = [
    (dict(column_first=True, stacked=True), "looks like MAE's layout: its first half encodes the column and "
                                            "each half puts all sines before all cosines; here the row comes "
                                            "first and sines and cosines alternate"),
    (dict(column_first=True), "looks like the first half encodes the column and the second the row (MAE's "
                              "meshgrid order); here the row r comes first"),
    (dict(stacked=True), "looks like each half puts all its sines before its cosines; they alternate, as in "
                         "step 1's table"),
    (dict(column_major=True), "looks like the patches are numbered column by column (c * H + r); row-major "
                              "order numbers patch (r, c) as r * W + c"),
    (dict(full_width=True), "looks like the frequencies use d_model in the exponent; each half is a 1-D table "
                            "of width d_model/2, so pair i has frequency 10000**(-2i / (d_model/2))"),
]


def _mistakes(H, W, d):
    return [(lambda options=options: _table(H, W, d, **options), hint) for options, hint in _MISTAKES]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _shape_hint(shape, H, W, d):
    if shape in ((H * W, d), (H, W, d)):
        return "the table came back with more than one axis: flatten it with .reshape(-1)"
    if shape == (H * W * d // 2,):
        return "half the values: each patch needs a row half and a column half, each d_model/2 wide"
    return ""


def _grid(sincos_2d, H, W, d, seed=0):
    """The learner's result as the (H * W, d) table it flattens, and the tolerance."""
    table, precision, _ = call(sincos_2d, seed, H, W, d, what=f"sincos_2d({seed}, {H}, {W}, {d})",
                               shape=(H * W * d,), shape_hint=lambda shape: _shape_hint(shape, H, W, d))
    return table.reshape(H * W, d), precision.tolerance()


def _compare(table, H, W, d, atol):
    compare(table, _table(H, W, d), atol=atol, what=f"the table for H={H}, W={W}, d_model={d}",
            mistakes=_mistakes(H, W, d) if H * W * d <= 4096 else (), mistakes_atol=1e-4)


def test_shape(sincos_2d):
    """The result is the flat (H * W * d_model,) table"""
    for H, W, d in [(2, 3, 4), (4, 4, 8), (1, 5, 12), (3, 1, 16)]:
        _grid(sincos_2d, H, W, d)


def test_seed_unused(sincos_2d):
    """Any seed gives the same table"""
    H, W, d = 2, 3, 8
    first, tol = _grid(sincos_2d, H, W, d, seed=0)
    for seed in (1, 2026):
        other, _ = _grid(sincos_2d, H, W, d, seed=seed)
        if not np.abs(other - first).max() <= tol:
            fail(f"sincos_2d({seed}, {H}, {W}, {d}) differs from sincos_2d(0, {H}, {W}, {d}): the seed is there "
                 "for signature consistency only and must not change the table", got=other, expected=first)


def test_sizes_cast_with_int(sincos_2d):
    """Sizes given as floats (2.0, 3.0, 8.0) are cast with int()"""
    what = "sincos_2d(0, 2.0, 3.0, 8.0)"
    try:
        result = sincos_2d(0, 2.0, 3.0, 8.0)
    except (TypeError, ValueError, IndexError) as error:
        fail(f"{what} raised {type(error).__name__}: {error}; the sizes may arrive as floats: cast them with "
             "int() first")
    table, precision, _ = call(lambda: result, what=what, shape=(48,),
                               shape_hint=lambda shape: _shape_hint(shape, 2, 3, 8))
    _compare(table.reshape(6, 8), 2, 3, 8, precision.tolerance())


def test_origin(sincos_2d):
    """The patch at (0, 0) is sin 0, cos 0, ... in both halves"""
    H, W, d = 3, 2, 8
    table, tol = _grid(sincos_2d, H, W, d)
    want = np.tile([0.0, 1.0], d // 2)
    if not np.abs(table[0] - want).max() <= tol:
        fail(f"position 0 (r = 0, c = 0) for H={H}, W={W}, d_model={d}: expected {want.tolist()}, got "
             f"{[num(v) for v in table[0]]}{_diagnosis(table, H, W, d)}", got=table, expected=_table(H, W, d))


def test_hand_checked_entries(sincos_2d):
    """Matches hand-checked entries, then the whole table"""
    # d_model = 16: each half is 8 wide, with frequencies 1, 0.1, 0.01, 0.001.
    H, W, d = 3, 5, 16
    table, tol = _grid(sincos_2d, H, W, d)
    entries = [  # (r, c, column, formula, value)
        (2, 0, 0, "sin(2 * 1), row half", math.sin(2)),
        (2, 0, 8, "sin(0), column half", 0.0),
        (1, 4, 3, "cos(1 * 0.1), row half", math.cos(0.1)),
        (1, 4, 12, "sin(4 * 0.01), column half", math.sin(0.04)),
        (0, 3, 9, "cos(3 * 1), column half", math.cos(3)),
    ]
    for r, c, k, formula, want in entries:
        p = r * W + c
        if not abs(table[p, k] - want) <= tol:
            want_text, got_text = num_pair(want, table[p, k])
            fail(f"entry [{p}, {k}] (patch r={r}, c={c}; entry {p * d + k} of the result) for H={H}, W={W}, "
                 f"d_model={d}: expected {formula} = {want_text}, got {got_text}{_diagnosis(table, H, W, d)}",
                 got=table, expected=_table(H, W, d))
    _compare(table, H, W, d, tol)


def test_row_major(sincos_2d):
    """Row-major order: the row half changes every W patches, the column half every patch"""
    for H, W, d in [(2, 5, 8), (4, 3, 8)]:
        table, tol = _grid(sincos_2d, H, W, d)
        half = d // 2
        for p in range(1, H * W):
            same_row = p % W != 0
            moved = np.abs(table[p, :half] - table[p - 1, :half]).max() > tol
            if moved == same_row:
                fail(f"H={H}, W={W}, d_model={d}: the first half (the row's encoding) "
                     + ("changed" if moved else "stayed the same")
                     + f" between positions {p - 1} and {p}, "
                     + ("which are in the same grid row" if same_row else "which start a new grid row")
                     + f" (position p is row p // W, column p % W){_diagnosis(table, H, W, d)}",
                     got=table, expected=_table(H, W, d))
        _compare(table, H, W, d, tol)


def test_values_in_range(sincos_2d):
    """All values lie in [-1, 1]"""
    H, W, d = 10, 10, 16
    table, tol = _grid(sincos_2d, H, W, d)
    expect_finite(table, what="the table")
    expect_in_range(table, -1.0, 1.0, tol=tol, what=f"the table for H={H}, W={W}, d_model={d}")


def test_no_collisions(sincos_2d):
    """Every patch gets its own vector"""
    H, W, d = 8, 6, 8
    table, tol = _grid(sincos_2d, H, W, d)
    expect_finite(table, what="the table")
    # For the correct table the closest two patches are about 0.65 apart.
    expect_distinct_rows(table, min_distance=0.01, what=f"the table for H={H}, W={W}, d_model={d}",
                         row_name=lambda p: f"patch {p} (r={p // W}, c={p % W})", expected=_table(H, W, d))


def test_large_grid(sincos_2d):
    """A 64 x 32 grid: 2048 patches"""
    H, W, d = 64, 32, 16
    table, tol = _grid(sincos_2d, H, W, d)
    expect_finite(table, what="the table")
    _compare(table, H, W, d, tol)
