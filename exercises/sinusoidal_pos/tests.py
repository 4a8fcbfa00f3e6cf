"""Hidden tests for sinusoidal_pos(seed, T, d_model).

Expected values come from a small pure-Python formula below, written
independently of solution.py.  Wrong answers are compared with vectors built
from classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import as_array, expect_finite, fail, precision_of


def _flat_table(T, d, *, start=0, exponent=None, swap=False, stacked=False, column_major=False):
    """Flattened PE table from the formula; keyword arguments reproduce known mistakes."""
    half = d // 2
    table = [[0.0] * d for _ in range(T)]
    for t in range(T):
        for j in range(d):
            if stacked:
                i, use_sin = j % half, j < half
            else:
                i, use_sin = j // 2, j % 2 == 0
            if swap:
                use_sin = not use_sin
            e = 2 * i / d if exponent is None else exponent(i, d)
            angle = (start + t) / 10000.0 ** e
            table[t][j] = math.sin(angle) if use_sin else math.cos(angle)
    if column_major:
        values = [table[t][j] for j in range(d) for t in range(T)]
    else:
        values = [table[t][j] for t in range(T) for j in range(d)]
    return np.array(values, dtype=np.float64)


def _mistakes(seed):
    return [
        (dict(column_major=True),
         "looks like the table was flattened column by column (order='F' or a transpose); "
         "flatten row by row so that position 0 comes first"),
        (dict(swap=True),
         "looks like sin and cos are swapped: even columns 2i hold sin, odd columns 2i+1 hold cos"),
        (dict(start=seed),
         f"looks like the seed ({seed}) shifts the positions; the seed must be ignored"),
        (dict(start=1),
         "looks like positions start at 1 instead of 0"),
        (dict(exponent=lambda i, d: i / d),
         "looks like the exponent uses i/d_model instead of 2i/d_model"),
        (dict(stacked=True),
         "looks like all sin values come before all cos values in each row; they should alternate"),
    ]


def _diagnose(values, seed, T, d):
    for options, hint in _mistakes(seed):
        if options.get("start") == 0:
            continue
        if np.allclose(values, _flat_table(T, d, **options), rtol=0.0, atol=1e-4):
            return f" ({hint})"
    return ""


def _num(x):
    return f"{float(x):.6g}"


def _call(sinusoidal_pos, seed, T, d):
    """Call the learner's function; return (float64 copy, tolerance) after checking the shape."""
    precision = precision_of(seed, T, d)
    result = sinusoidal_pos(seed, T, d)
    tol = precision.tolerance()
    call = f"sinusoidal_pos({seed!r}, {T!r}, {d!r})"
    values = as_array(result, precision, what=call)
    n, m = int(T), int(d)
    shape = tuple(values.shape)
    if shape != (n * m,):
        hint = ""
        if shape in ((n, m), (m, n)):
            hint = " (looks like the 2-D table was returned; flatten it with .reshape(-1))"
        elif shape in ((1, n * m), (n * m, 1)):
            hint = " (a 1-D array is needed, not a single row or column; use .reshape(-1))"
        fail(f"{call}: expected a 1-D array of shape ({n * m},) (T*d_model values), got shape {shape}{hint}")
    return values, tol


def _compare(values, expected, atol, seed, T, d, diagnose=True):
    error = np.abs(values - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > atol:
        k = int(np.argmax(error))
        wrong = int((error > atol).sum())
        hint = _diagnose(values, seed, T, d) if diagnose else ""
        fail(f"result[{k}] (row {k // d}, column {k % d} of the table) for T={T}, d_model={d}: "
             f"expected {_num(expected[k])}, got {_num(values[k])} ({wrong} of {error.size} values differ){hint}",
             got=values, expected=expected)


def test_flat_shape(sinusoidal_pos):
    """Returns a flat 1-D array of length T*d_model"""
    for T, d in [(5, 8), (1, 2), (3, 12)]:
        _call(sinusoidal_pos, 0, T, d)


def test_position_zero(sinusoidal_pos):
    """The first d_model values (position 0) alternate 0, 1, 0, 1, ..."""
    seed, T, d = 0, 5, 8
    values, tol = _call(sinusoidal_pos, seed, T, d)
    for j in range(d):
        want, name = (0.0, "sin(0)") if j % 2 == 0 else (1.0, "cos(0)")
        if not abs(values[j] - want) <= tol:
            fail(f"result[{j}] (position 0, column {j}) for T={T}, d_model={d}: expected {name} = {want:g}, "
                 f"got {_num(values[j])}{_diagnose(values, seed, T, d)}")


def test_formula_row_major(sinusoidal_pos):
    """Matches the sinusoidal formula, flattened row by row"""
    # d_model = 8 gives the frequencies 1, 0.1, 0.01 and 0.001.
    seed, T, d = 3, 7, 8
    values, tol = _call(sinusoidal_pos, seed, T, d)
    for t, j, formula in [(2, 1, "cos(2 * 1)"), (4, 2, "sin(4 * 0.1)"), (6, 5, "cos(6 * 0.01)")]:
        angle = t / 10000.0 ** (2 * (j // 2) / d)
        want = math.sin(angle) if j % 2 == 0 else math.cos(angle)
        k = t * d + j
        if not abs(values[k] - want) <= tol:
            fail(f"result[{k}] (row {t}, column {j} of the table) for T={T}, d_model={d}: "
                 f"expected {formula} = {_num(want)}, got {_num(values[k])}{_diagnose(values, seed, T, d)}")
    _compare(values, _flat_table(T, d), tol, seed, T, d)


def test_seed_ignored(sinusoidal_pos):
    """The seed does not change the output"""
    T, d = 4, 6
    reference, tol = _call(sinusoidal_pos, 0, T, d)
    for seed in (1, 12345):
        values, tol_seed = _call(sinusoidal_pos, seed, T, d)
        difference = np.abs(values - reference)
        difference[np.isnan(difference)] = np.inf
        if difference.max() > max(tol, tol_seed):
            k = int(np.argmax(difference))
            hint = _diagnose(values, seed, T, d)
            fail(f"result[{k}] for T={T}, d_model={d}: expected the same value as with seed=0 "
                 f"({_num(reference[k])}), got {_num(values[k])} with seed={seed}; "
                 f"the encodings are deterministic and must not depend on the seed{hint}")


def test_sizes_cast_to_int(sinusoidal_pos):
    """Accepts sizes given as floats or numpy integers"""
    for T, d in [(6.0, 4.0), (np.int64(5), np.int32(8)), (np.float64(3.0), 6)]:
        values, tol = _call(sinusoidal_pos, 0, T, d)
        _compare(values, _flat_table(int(T), int(d)), tol, 0, int(T), int(d))


def test_long_sequence(sinusoidal_pos):
    """Longer sequences still match the formula (T=512, d_model=64)"""
    seed, T, d = 0, 512, 64
    values, tol = _call(sinusoidal_pos, seed, T, d)
    expect_finite(values, what="the result")
    # Loose tolerance: float32 angles near 511 are only good to about 3e-5.
    _compare(values, _flat_table(T, d), max(tol, 1e-3), seed, T, d, diagnose=False)
