"""Hidden tests for rope(x, base=10000.0).

Expected values come from a small pure-Python formula below (math.cos/math.sin,
one pair at a time), written independently of solution.py.  When a result is
wrong, the tests compare it with results built from classic mistakes so the
message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, fail, precision_of
from grader.core.testkit import Diagnosis, checked_array, expected_got, num


def _rotated(rows, base=10000.0, *, half=False, block=None, exponent=None, start=0,
             angle_pair=None, overwrite=False, degrees=False):
    """rope of `rows` (a float64 array) from the formula; keyword arguments reproduce known mistakes.

    half: pairs (i, i + d/2) instead of (2i, 2i+1).
    block(c, s): the 2x2 matrix applied to (x[a], x[b]) (correct: [[c, -s], [s, c]]).
    exponent(i, d): e in omega_i = base**(-e) (correct: 2i/d).
    start: the position of row 0 (correct: 0).
    angle_pair(j, d): the pair whose angle output column j uses (correct: its own pair).
    overwrite: out[b] is computed from the already rotated out[a] instead of x[a].
    degrees: the angle t * omega_i is taken for degrees and converted to radians.
    """
    T, d = len(rows), len(rows[0])
    out = [[0.0] * d for _ in range(T)]
    for t in range(T):
        x = [float(v) for v in rows[t]]

        def cos_sin(pair):
            e = 2 * pair / d if exponent is None else exponent(pair, d)
            angle = (start + t) * base ** (-e)
            if degrees:
                angle = math.radians(angle)
            return math.cos(angle), math.sin(angle)

        for i in range(d // 2):
            a, b = (i, i + d // 2) if half else (2 * i, 2 * i + 1)
            ca, sa = cos_sin(i if angle_pair is None else angle_pair(a, d))
            cb, sb = cos_sin(i if angle_pair is None else angle_pair(b, d))
            ma = [ca, -sa] if block is None else block(ca, sa)[0]
            mb = [sb, cb] if block is None else block(cb, sb)[1]
            out[t][a] = ma[0] * x[a] + ma[1] * x[b]
            first = out[t][a] if overwrite else x[a]
            out[t][b] = mb[0] * first + mb[1] * x[b]
    return np.array(out, dtype=np.float64).reshape(T, d)


_MISTAKES = [
    (dict(half=True),
     "looks like pairs (i, i + d/2) were rotated, the \"rotate_half\" layout of GPT-NeoX and Llama's "
     "Hugging Face code; here the pairs are interleaved: columns (2i, 2i+1)"),
    (dict(block=lambda c, s: [[c, s], [-s, c]]),
     "looks like every pair was rotated by -angle: both sin terms have the wrong sign; "
     "out[2i] = x[2i]*cos - x[2i+1]*sin and out[2i+1] = x[2i]*sin + x[2i+1]*cos"),
    (dict(block=lambda c, s: [[c, -s], [-s, c]]),
     "looks like the sin term of out[2i+1] has the wrong sign: out[2i+1] = x[2i]*sin + x[2i+1]*cos"),
    (dict(block=lambda c, s: [[c, s], [s, c]]),
     "looks like the sin term of out[2i] has the wrong sign: out[2i] = x[2i]*cos - x[2i+1]*sin"),
    (dict(overwrite=True),
     "looks like column 2i was overwritten with its rotated value before column 2i+1 was computed "
     "from it; compute both outputs from the original x"),
    (dict(exponent=lambda i, d: i / d),
     "looks like the exponent uses i/d instead of 2i/d"),
    (dict(exponent=lambda i, d: 4 * i / d),
     "looks like the exponent uses 2i/(d/2) = 4i/d instead of 2i/d"),
    (dict(exponent=lambda i, d: 0.0),
     "looks like every pair rotates by t radians: is the exponent computed with integer division "
     "(2*i//d is always 0)?"),
    (dict(exponent=lambda i, d: -2 * i / d),
     "looks like the angle uses base**(+2i/d) instead of base**(-2i/d): omega_i shrinks from 1 "
     "towards 1/base"),
    (dict(degrees=True),
     "looks like the angles were treated as degrees; t * omega_i is already in radians"),
    (dict(start=1),
     "looks like positions start at 1 instead of 0: row 0 must come back unchanged"),
    (dict(angle_pair=lambda j, d: j % (d // 2)),
     "looks like the d/2 angles were spread over the d columns with np.tile (pairs 0, 1, 2, ..., 0, 1, 2, ...) "
     "instead of np.repeat (0, 0, 1, 1, ...): both columns of pair i use the angle of pair i"),
]


def _mistakes(rows, base):
    """(result, hint) for each classic mistake (none on large inputs), each computed only when reached."""
    T, d = rows.shape
    if T * d > 4096:
        return []
    candidates = list(_MISTAKES)
    if base != 10000.0:
        candidates.insert(0, (dict(base=10000.0), f"looks like the base argument ({base:g}) was ignored "
                                                   "and 10000 was used"))
    return [(lambda options=options: _rotated(rows, **{"base": base, **options}), hint)
            for options, hint in candidates] + [(rows, "x came back unchanged: every row t > 0 must be rotated")]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _describe(rows, base, index=""):
    """How the call is shown in messages, e.g. 'rope(x, base=100)[1, 2] for float32 x of shape (4, 6)'."""
    call = "rope(x)" if base == 10000.0 else f"rope(x, base={base:g})"
    kind = "x" if rows.dtype == np.float64 else f"{rows.dtype} x"
    return f"{call}{index} for {kind} of shape {tuple(rows.shape)}"


def _rotated_rows(rope, rows, base=10000.0):
    """Call the learner's function; return (float64 copy, absolute tolerance) after checking the shape."""
    T, d = rows.shape
    what = _describe(rows, base)

    def shape_hint(shape):
        if shape == (d, T):
            return "looks like rows and columns are swapped: one row per position t"
        if shape == (T, d // 2) or shape == (T, d // 2, 2):
            return "every pair gives two output columns: out[t, 2i] and out[t, 2i+1]"
        return ""
    kwargs = {} if base == 10000.0 else {"base": base}
    result = rope(rows.copy(), **kwargs)
    if issubclass(type(result), np.ndarray) and np.issubdtype(np.asarray(result).dtype, np.complexfloating):
        fail(f"{what} should hold real floating-point numbers, got dtype {np.asarray(result).dtype}; "
             f"if you rotated complex numbers, turn them back into (x[2i], x[2i+1]) columns, e.g. "
             f"np.stack([z.real, z.imag], axis=-1).reshape({T}, {d})")
    precision = precision_of(rows)
    got = checked_array(result, precision, what=what, shape=(T, d), shape_hint=shape_hint)
    expect_finite(got, what=what)
    # Fair to float32 and to float32 angles (even in a float64 result): an angle t * omega_i
    # in float32 is good to about t * 1e-7 radians, and an output entry is off by that times |x|.
    scale = max(1.0, float(np.abs(rows).max())) * max(1.0, T - 1.0)
    return got, precision.tolerance(float64=1e-6) * scale


def _compare(got, rows, base, atol):
    """Fail at the worst entry where `got` differs from the formula."""
    expected = _rotated(rows.astype(np.float64), base)
    error = np.abs(got - expected)
    if error.max() > atol:
        t, j = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > atol).sum())
        fail(f"{_describe(rows, base, f'[{t}, {j}]')}: {expected_got(expected[t, j], got[t, j])} "
             f"({wrong} of {error.size} entries differ){_diagnosis(got, rows.astype(np.float64), base)}",
             got=got, expected=expected)


def _random(shape, seed):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=shape).round(3)


def test_shape(rope):
    """Output shape is (T, d), the shape of x"""
    for T, d in [(5, 8), (1, 2), (3, 6), (7, 4)]:
        _rotated_rows(rope, _random((T, d), T * 10 + d))


def test_position_zero_unchanged(rope):
    """Row t = 0 comes back unchanged (rotation by angle 0)"""
    for T, d in [(4, 8), (1, 2), (3, 6)]:
        rows = _random((T, d), 100 + T)
        got, atol = _rotated_rows(rope, rows)
        error = np.abs(got[0] - rows[0])
        if error.max() > atol:
            j = int(np.argmax(error))
            fail(f"{_describe(rows, 10000.0, f'[0, {j}]')}: expected x[0, {j}] = {num(rows[0, j])} "
                 f"(at t = 0 every angle is 0, so row 0 is not rotated), got {num(got[0, j])}"
                 f"{_diagnosis(got, rows, 10000.0)}")


def test_hand_checked_entries(rope):
    """Matches the rotation formula at hand-checked entries"""
    # x = ones((3, 4)): omega_0 = 1 and omega_1 = 1/10000**(2/4) = 0.01.
    rows = np.ones((3, 4))
    got, atol = _rotated_rows(rope, rows)
    entries = [
        (1, 0, "cos(1) - sin(1)", math.cos(1.0) - math.sin(1.0)),
        (1, 1, "sin(1) + cos(1)", math.sin(1.0) + math.cos(1.0)),
        (2, 0, "cos(2) - sin(2)", math.cos(2.0) - math.sin(2.0)),
        (2, 1, "sin(2) + cos(2)", math.sin(2.0) + math.cos(2.0)),
        (1, 2, "cos(0.01) - sin(0.01)", math.cos(0.01) - math.sin(0.01)),
        (2, 3, "sin(0.02) + cos(0.02)", math.sin(0.02) + math.cos(0.02)),
    ]
    for t, j, formula, want in entries:
        if not abs(got[t, j] - want) <= atol:
            fail(f"rope(np.ones((3, 4)))[{t}, {j}]: expected {formula} = {num(want)}, got {num(got[t, j])}"
                 f"{_diagnosis(got, rows, 10000.0)}")
    # A single pair (d = 2) traces the unit circle: row t is (cos t, sin t).
    rows = np.array([[1.0, 0.0]] * 5)
    got, atol = _rotated_rows(rope, rows)
    _compare(got, rows, 10000.0, atol)
    rows = np.array([[0.5, -1.0, 2.0, 0.25, -0.75, 1.5]] * 4)
    got, atol = _rotated_rows(rope, rows)
    _compare(got, rows, 10000.0, atol)


def test_preserves_pair_lengths(rope):
    """Each pair (x[t, 2i], x[t, 2i+1]) keeps its length: a rotation"""
    for T, d in [(6, 8), (5, 10)]:
        rows = _random((T, d), 200 + d)
        got, atol = _rotated_rows(rope, rows)
        before = np.hypot(rows[:, 0::2], rows[:, 1::2])
        after = np.hypot(got[:, 0::2], got[:, 1::2])
        error = np.abs(after - before)
        if error.max() > atol:
            t, i = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
            fail(f"{_describe(rows, 10000.0)}: the length of pair {i} (columns {2 * i}, {2 * i + 1}) in row {t} "
                 f"should stay {num(before[t, i])}, got {num(after[t, i])}; a rotation keeps lengths"
                 f"{_diagnosis(got, rows, 10000.0)}")


def test_relative_positions(rope):
    """The dot product of rotated query row t and key row s depends only on t - s"""
    T, d = 8, 6
    q = _random((d,), 301)
    k = _random((d,), 302)
    Q, K = np.tile(q, (T, 1)), np.tile(k, (T, 1))
    got_q, atol_q = _rotated_rows(rope, Q)
    got_k, atol_k = _rotated_rows(rope, K)
    scores = got_q @ got_k.T
    atol = 4 * d * max(atol_q, atol_k)
    worst, where = 0.0, None
    for t in range(T):
        for s in range(T):
            m = min(t, s)
            error = abs(scores[t, s] - scores[t - m, s - m])
            if error > worst:
                worst, where = error, (t, s, t - m, s - m)
    if worst > atol:
        t, s, t0, s0 = where
        hint = _diagnosis(got_q, Q, 10000.0) or _diagnosis(got_k, K, 10000.0)
        fail(f"with the same q in every row of Q and the same k in every row of K (d={d}), "
             f"rope(Q)[{t}] . rope(K)[{s}] should equal rope(Q)[{t0}] . rope(K)[{s0}] = {num(scores[t0, s0])} "
             f"(same offset t - s = {t - s}), got {num(scores[t, s])}; rotating both by their own positions "
             f"leaves only the relative angle{hint}")


def test_base_argument(rope):
    """The base argument sets the frequencies: omega_i = base ** (-2i/d)"""
    for T, d, base in [(5, 4, 100.0), (6, 8, 10.0), (4, 6, 500000.0)]:
        rows = _random((T, d), 400 + d)
        got, atol = _rotated_rows(rope, rows, base)
        _compare(got, rows, base, atol)


def test_larger_input(rope):
    """Larger random inputs match the formula, in float64 and in float32"""
    rows = _random((16, 32), 500)
    got, atol = _rotated_rows(rope, rows)
    _compare(got, rows, 10000.0, atol)
    rows = _random((12, 16), 501).astype(np.float32)
    got, atol = _rotated_rows(rope, rows)
    _compare(got, rows, 10000.0, atol)
