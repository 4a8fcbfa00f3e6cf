"""Hidden tests for relative_shift(delta, C).

Expected values come from small pure-Python formulas below (math.sin/math.cos),
written independently of solution.py.  Wrong matrices are compared with
matrices built from classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, fail
from grader.core.testkit import Diagnosis, call, expected_got, num


def _frequency(i, C):
    return 1.0 / 10000.0 ** (2 * i / C)


def _pe_row(t, C):
    """Sinusoidal encoding of position t (any integer, negative allowed)."""
    row = []
    for i in range(C // 2):
        row += [math.sin(t * _frequency(i, C)), math.cos(t * _frequency(i, C))]
    return np.array(row, dtype=np.float64)


def _matrix(delta, C, *, block=None, angle=None, dense=False):
    """Shift matrix from the formula; keyword arguments reproduce known mistakes.

    angle(delta, i, C) gives the rotation angle of pair i (correct: delta * omega_i);
    block(c, s) gives the 2x2 block as nested lists (correct: [[c, s], [-s, c]]).
    """
    M = np.zeros((C, C), dtype=np.float64)
    for i in range(C // 2):
        a = delta * _frequency(i, C) if angle is None else angle(delta, i, C)
        c, s = math.cos(a), math.sin(a)
        cells = [[c, s], [-s, c]] if block is None else block(c, s)
        rows = [2 * i] if not dense else range(0, C, 2)
        for r in rows:
            for dr in range(2):
                for dc in range(2):
                    M[r + dr, 2 * i + dc] = cells[dr][dc]
    return M


_MISTAKES = [
    (dict(block=lambda c, s: [[c, -s], [s, c]]),
     "looks like every 2x2 block is transposed ([[cos, -sin], [sin, cos]]), which shifts by -delta; "
     "the rows act on (sin, cos) in that order"),
    (dict(block=lambda c, s: [[c, s], [s, c]]),
     "looks like a sign is missing: cos(a + b) = cos(a)cos(b) - sin(a)sin(b), so the block is "
     "[[cos, sin], [-sin, cos]]"),
    (dict(angle=lambda delta, i, C: delta / 10000.0 ** (i / C)),
     "looks like the frequencies use i/C instead of 2i/C"),
    (dict(angle=lambda delta, i, C: _frequency(i, C)),
     "looks like delta is not used: every block rotates by omega_i instead of delta * omega_i"),
    (dict(angle=lambda delta, i, C: delta * 10000.0 ** (2 * i / C)),
     "looks like delta was multiplied by the wavelength 10000^(2i/C) instead of the frequency 1/10000^(2i/C)"),
    (dict(dense=True),
     "looks like values were written into whole (C/2, C/2) grids, e.g. with M[0::2, 0::2] = ...; "
     "only the 2x2 blocks on the diagonal may be non-zero"),
]


def _mistakes(delta, C):
    """(matrix, hint) for each classic mistake, each matrix computed only when a diagnosis reaches it."""
    return [(lambda options=options: _matrix(delta, C, **options), hint) for options, hint in _MISTAKES]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _shift(relative_shift, delta, C):
    """Call the learner's function; return (float64 copy, tolerance) after checking the shape."""
    def shape_hint(shape):
        if shape == (C // 2, 2, 2):
            return "looks like a stack of the C/2 blocks; place them on the diagonal of a (C, C) matrix"
        return ""
    M, precision, what = call(relative_shift, delta, C, what=f"relative_shift({delta}, {C})", shape=(C, C),
                              shape_hint=shape_hint)
    expect_finite(M, what=what)
    return M, precision.tolerance()


def test_shape(relative_shift):
    """Output shape is (C, C)"""
    for delta, C in [(3, 8), (1, 2), (-5, 6), (0, 16)]:
        _shift(relative_shift, delta, C)


def test_block_diagonal(relative_shift):
    """Zero outside the 2x2 diagonal blocks"""
    for delta, C in [(3, 8), (-7, 12)]:
        M, tol = _shift(relative_shift, delta, C)
        rows, cols = np.indices((C, C))
        outside = (rows // 2 != cols // 2) & (np.abs(M) > tol)
        if outside.any():
            r, c = (int(v) for v in np.argwhere(outside)[0])
            fail(f"M[{r}, {c}] for delta={delta}, C={C}: expected 0 (outside the 2x2 diagonal blocks), "
                 f"got {num(M[r, c])} ({int(outside.sum())} such entries are non-zero){_diagnosis(M, delta, C)}",
                 got=M, expected=_matrix(delta, C))


def test_identity_at_zero(relative_shift):
    """delta = 0 gives the identity matrix"""
    for C in (8, 6):
        M, tol = _shift(relative_shift, 0, C)
        error = np.abs(M - np.eye(C))
        if error.max() > tol:
            r, c = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
            fail(f"M[{r}, {c}] for delta=0, C={C}: expected {1 if r == c else 0} (shifting by 0 changes nothing), "
                 f"got {num(M[r, c])}{_diagnosis(M, 0, C)}", got=M, expected=np.eye(C))


def test_hand_checked_entries(relative_shift):
    """Matches the rotation blocks at hand-checked entries"""
    # C = 4 has the frequencies omega_0 = 1 and omega_1 = 1/10000^(2/4) = 0.01; delta = 2.
    delta, C = 2, 4
    M, tol = _shift(relative_shift, delta, C)
    entries = [
        (0, 0, "cos(2 * 1)", math.cos(2.0)),
        (0, 1, "sin(2 * 1)", math.sin(2.0)),
        (1, 0, "-sin(2 * 1)", -math.sin(2.0)),
        (1, 1, "cos(2 * 1)", math.cos(2.0)),
        (2, 3, "sin(2 * 0.01)", math.sin(delta * _frequency(1, C))),
        (3, 2, "-sin(2 * 0.01)", -math.sin(delta * _frequency(1, C))),
    ]
    for r, c, formula, want in entries:
        if not abs(M[r, c] - want) <= tol:
            fail(f"M[{r}, {c}] for delta={delta}, C={C}: expected {formula} = {num(want)}, got {num(M[r, c])}"
                 f"{_diagnosis(M, delta, C)}")
    for delta, C in [(2, 4), (-3, 8)]:
        M, tol = _shift(relative_shift, delta, C)
        expected = _matrix(delta, C)
        error = np.abs(M - expected)
        if error.max() > tol:
            r, c = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
            fail(f"M[{r}, {c}] for delta={delta}, C={C}: {expected_got(expected[r, c], M[r, c])}"
                 f"{_diagnosis(M, delta, C)}", got=M, expected=expected)


def test_shifts_encodings(relative_shift):
    """Shifts encodings: M_delta @ PE[t] equals PE[t+delta], also for negative delta"""
    cases = [(8, delta, t) for delta in (1, 5, -3, 17, -40) for t in (0, 2, 9, 30)] + [(16, 37, 7), (6, -11, 4)]
    matrices = {}
    for C, delta, t in cases:
        if (delta, C) not in matrices:
            matrices[(delta, C)] = _shift(relative_shift, delta, C)
        M, tol = matrices[(delta, C)]
        got = M @ _pe_row(t, C)
        want = _pe_row(t + delta, C)
        error = np.abs(got - want)
        if error.max() > tol:
            j = int(np.argmax(error))
            fn = "sin" if j % 2 == 0 else "cos"
            fail(f"(M_delta @ PE[t])[{j}] for delta={delta}, t={t}, C={C}: expected PE[{t + delta}, {j}] = "
                 f"{fn}({t + delta} * omega_{j // 2}) = {num(want[j])}, got {num(got[j])}{_diagnosis(M, delta, C)}")


def test_composition(relative_shift):
    """Shifting by a then by b equals shifting by a+b"""
    for a, b, C in [(3, 4, 8), (-2, 7, 6), (10, -10, 8)]:
        A, tol_a = _shift(relative_shift, a, C)
        B, tol_b = _shift(relative_shift, b, C)
        S, tol_s = _shift(relative_shift, a + b, C)
        product = B @ A
        error = np.abs(product - S)
        tol = 2 * max(tol_a, tol_b, tol_s)
        if error.max() > tol:
            r, c = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
            fail(f"(M_b @ M_a)[{r}, {c}] for a={a}, b={b}, C={C}: expected M_{a + b}[{r}, {c}] = "
                 f"{num(S[r, c])} (your relative_shift({a + b}, {C})), got {num(product[r, c])}"
                 f"{_diagnosis(A, a, C)}")


def test_orthogonal(relative_shift):
    """M_delta is orthogonal (a pure rotation)"""
    for delta, C in [(7, 8), (-13, 10)]:
        M, tol = _shift(relative_shift, delta, C)
        gram = M.T @ M
        error = np.abs(gram - np.eye(C))
        if error.max() > 2 * tol:
            r, c = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
            fail(f"(M_delta^T M_delta)[{r}, {c}] for delta={delta}, C={C}: expected {1 if r == c else 0}, "
                 f"got {num(gram[r, c])}; a rotation keeps lengths, so M_delta^T M_delta must be the identity"
                 f"{_diagnosis(M, delta, C)}")
