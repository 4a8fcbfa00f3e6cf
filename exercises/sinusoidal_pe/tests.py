"""Hidden tests for sinusoidal_pe(T, C).

Expected values come from a small pure-Python formula below (math.sin/math.cos),
written independently of solution.py.  When a table is wrong, the tests compare
it with tables built from classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, expect_in_range, fail
from grader.core.testkit import Diagnosis, call, compare, num, num_pair


def _table(T, C, *, start=0, exponent=None, swap=False, stacked=False, degrees=False):
    """PE table from the formula; the keyword arguments reproduce known mistakes.

    exponent(i, j, C) gives e in omega = 1 / 10000**e for column j of pair i
    (correct: 2i/C).  `stacked` puts all sin columns before all cos columns.
    """
    half = C // 2
    rows = []
    for t in range(T):
        row = []
        for j in range(C):
            if stacked:
                i, use_sin = j % half, j < half
            else:
                i, use_sin = j // 2, j % 2 == 0
            if swap:
                use_sin = not use_sin
            e = 2 * i / C if exponent is None else exponent(i, j, C)
            angle = (start + t) / 10000.0 ** e
            if degrees:
                angle = math.radians(angle)
            row.append(math.sin(angle) if use_sin else math.cos(angle))
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(T, C)


_MISTAKES = [
    (dict(swap=True),
     "looks like sin and cos are swapped: even columns 2i hold sin, odd columns 2i+1 hold cos"),
    (dict(start=1),
     "looks like positions start at 1 instead of 0"),
    (dict(exponent=lambda i, j, C: i / C),
     "looks like the exponent uses i/C instead of 2i/C"),
    (dict(exponent=lambda i, j, C: 0.0),
     "looks like every pair got frequency 1: is the exponent computed with integer division "
     "(2*i//C is always 0)?"),
    (dict(exponent=lambda i, j, C: j / C),
     "looks like the exponent uses the column index j/C, so the cos column gets a different "
     "frequency from its sin partner; both columns of pair i use 2i/C"),
    (dict(stacked=True),
     "looks like all sin values fill the first C/2 columns and all cos values the last C/2; "
     "they should alternate (sin in column 2i, cos in column 2i+1)"),
    (dict(degrees=True),
     "looks like the angles were treated as degrees; the angle t*omega_i is already in radians"),
]


def _mistakes(T, C):
    """(table, hint) for each classic mistake, each table computed only when a diagnosis reaches it."""
    return [(lambda: _table(T, C).T,
             "looks like rows and columns are swapped: row t should be the encoding of position t")] + [
        (lambda options=options: _table(T, C, **options), hint) for options, hint in _MISTAKES]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _shape_hint(shape, T, C):
    if shape == (C, T):
        return "looks like rows and columns are swapped: one row per position, one column per dimension"
    if shape == (T * C,):
        return "looks like the table was flattened; keep it 2-D"
    if shape == (T, C // 2):
        return "only C/2 columns: each frequency needs both a sin column and a cos column"
    if len(shape) == 2 and shape[1] == C and shape[0] < T:
        return f"looks like the table stops at {shape[0]} positions; compute it for whatever T is asked"
    return ""


def _pe_table(sinusoidal_pe, T, C):
    """The learner's table (float64 copy) and the tolerance, after checking the shape."""
    table, precision, _ = call(sinusoidal_pe, T, C, what=f"sinusoidal_pe({T}, {C})", shape=(T, C),
                               shape_hint=lambda shape: _shape_hint(shape, T, C))
    return table, precision.tolerance()


def _compare(table, expected, atol, T, C):
    """Fail at the worst entry where `table` differs from `expected`."""
    compare(table, expected, atol=atol, what=f"PE for T={T}, C={C}",
            mistakes=_mistakes(T, C) if T * C <= 4096 else (), mistakes_atol=1e-4)


def test_shape(sinusoidal_pe):
    """Output shape is (T, C)"""
    for T, C in [(16, 8), (5, 2), (1, 6), (7, 12)]:
        _pe_table(sinusoidal_pe, T, C)


def test_position_zero(sinusoidal_pe):
    """At position t=0, even dims are 0 (sin) and odd dims are 1 (cos)"""
    for T, C in [(4, 8), (1, 2), (3, 16)]:
        table, tol = _pe_table(sinusoidal_pe, T, C)
        for j in range(C):
            want, name = (0.0, "sin(0)") if j % 2 == 0 else (1.0, "cos(0)")
            got = table[0, j]
            if not abs(got - want) <= tol:
                fail(f"PE[0, {j}] for T={T}, C={C}: expected {name} = {want:g}, got {num(got)}"
                     f"{_diagnosis(table, T, C)}", got=table, expected=_table(T, C))


def test_hand_checked_entries(sinusoidal_pe):
    """Matches the explicit formula at a hand-checked entry"""
    # With C = 8 the frequencies 1/10000**(2i/8) are exactly 1, 0.1, 0.01 and 0.001.
    T, C = 8, 8
    table, tol = _pe_table(sinusoidal_pe, T, C)
    entries = [
        (3, 1, "cos(3 * 1)"),
        (5, 2, "sin(5 * 0.1)"),
        (7, 5, "cos(7 * 0.01)"),
        (6, 6, "sin(6 * 0.001)"),
    ]
    for t, j, formula in entries:
        i = j // 2
        angle = t / 10000.0 ** (2 * i / C)
        want = math.sin(angle) if j % 2 == 0 else math.cos(angle)
        got = table[t, j]
        if not abs(got - want) <= tol:
            want_text, got_text = num_pair(want, got)
            fail(f"PE[{t}, {j}] for T={T}, C={C}: expected {formula} = {want_text}, got {got_text}"
                 f"{_diagnosis(table, T, C)}", got=table, expected=_table(T, C))
    # The hand-checked entries agree; now every other entry of the same table.
    _compare(table, _table(T, C), tol, T, C)


def test_values_in_range(sinusoidal_pe):
    """All values lie in [-1, 1]"""
    T, C = 100, 20
    table, tol = _pe_table(sinusoidal_pe, T, C)
    expect_finite(table, what="PE")
    outside = (table < -1.0 - tol) | (table > 1.0 + tol)
    if outside.any():
        t, j = (int(k) for k in np.argwhere(outside)[0])
        hint = ""
        angles = np.array([[t_ / 10000.0 ** (2 * (j_ // 2) / C) for j_ in range(C)] for t_ in range(T)])
        if np.allclose(table[:, 0::2], angles[:, 0::2], atol=1e-4):
            hint = " (looks like the raw angles t*omega_i were stored without applying sin/cos)"
        fail(f"PE[{t}, {j}] for T={T}, C={C}: expected a value in [-1, 1], got {num(table[t, j])} "
             f"({int(outside.sum())} of {table.size} values outside){hint}", got=table, expected=_table(T, C))


def test_no_collisions(sinusoidal_pe):
    """Different positions produce different encodings (no collisions)"""
    T, C = 64, 8
    table, tol = _pe_table(sinusoidal_pe, T, C)
    expect_finite(table, what="PE")
    distance = np.sqrt(((table[:, None, :] - table[None, :, :]) ** 2).sum(axis=2))
    distance[np.arange(T), np.arange(T)] = np.inf
    a, b = (int(k) for k in np.unravel_index(int(np.argmin(distance)), distance.shape))
    a, b = min(a, b), max(a, b)
    # For the correct table the closest pair of rows is about 0.65 apart.
    if distance[a, b] < 0.01:
        hint = ""
        if np.ptp(table, axis=0).max() <= 1e-6:
            hint = " (every row is the same: the angle must grow with the position t)"
        fail(f"positions t={a} and t={b} (T={T}, C={C}) have almost the same encoding: "
             f"expected rows at least 0.01 apart, got distance {num(distance[a, b])}{hint}",
             got=table, expected=_table(T, C))


def test_long_sequence(sinusoidal_pe):
    """Larger sequence length still produces a valid table (extrapolation)"""
    T, C = 2048, 32
    table, tol = _pe_table(sinusoidal_pe, T, C)
    expect_finite(table, what="PE")
    expect_in_range(table, -1.0, 1.0, tol=tol, what=f"PE for T={T}, C={C}")
    # Loose tolerance: in float32 an angle near 2047 is only good to about 1e-4.
    _compare(table, _table(T, C), max(tol, 1e-3), T, C)
