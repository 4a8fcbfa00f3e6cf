"""Hidden tests for position_similarity(T, C).

Expected values come from the closed form S[p1, p2] = sum_i cos((p1 - p2) w_i),
computed below with math.cos, independently of solution.py.  Wrong matrices
are compared with matrices built from classic mistakes so the message can
name the mistake.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, fail
from grader.core.testkit import Diagnosis, call, expected_got, num


def _frequency(i, C):
    return 1.0 / 10000.0 ** (2 * i / C)


def _similarity(T, C, term=None):
    """S[p1, p2] = sum over pairs i of term(p1, p2, i, C); the default term is cos((p1 - p2) w_i)."""
    if term is None:
        term = lambda p1, p2, i, C: math.cos((p1 - p2) * _frequency(i, C))
    S = np.zeros((T, T), dtype=np.float64)
    for p1 in range(T):
        for p2 in range(T):
            S[p1, p2] = sum(term(p1, p2, i, C) for i in range(C // 2))
    return S


_MISTAKES = [
    (lambda S, T, C: S / (C / 2),
     "looks like the rows were normalised (cosine similarity); use the raw dot products, "
     "whose diagonal is C/2"),
    (lambda S, T, C: 2 * S,
     "looks like every pair was counted twice: the sum has C/2 terms, one per frequency, not C"),
    (lambda S, T, C: _similarity(T, C, lambda p1, p2, i, C: math.sin(p1 * _frequency(i, C))
                                 * math.sin(p2 * _frequency(i, C))),
     "looks like only the sin columns were used; the cos columns belong in the dot product too"),
    (lambda S, T, C: _similarity(T, C, lambda p1, p2, i, C: math.cos((p1 + p2) * _frequency(i, C))),
     "looks like the sin*sin terms were subtracted instead of added: sin(a)sin(b) + cos(a)cos(b) "
     "= cos(a - b), while cos(a)cos(b) - sin(a)sin(b) = cos(a + b)"),
    (lambda S, T, C: _similarity(T, C, lambda p1, p2, i, C: math.cos((p1 - p2) / 10000.0 ** (i / C))),
     "looks like the frequencies use i/C instead of 2i/C"),
]


def _mistakes(T, C):
    """(matrix, hint) for each classic mistake, each matrix computed only when a diagnosis reaches it."""
    return [(lambda build=build: build(_similarity(T, C), T, C), hint) for build, hint in _MISTAKES]


_diagnosis = Diagnosis(_mistakes, atol=1e-4)


def _similarities(position_similarity, T, C):
    """Call the learner's function; return (float64 copy, tolerance) after checking shape and finiteness."""
    def shape_hint(shape):
        if shape == (C, C):
            return "looks like PE.T @ PE, which compares dimensions; PE @ PE.T compares positions"
        if shape == (T, C):
            return "looks like the encoding table itself was returned, not the dot products of its rows"
        return ""
    S, precision, what = call(position_similarity, T, C, what=f"position_similarity({T}, {C})", shape=(T, T),
                              shape_hint=shape_hint)
    expect_finite(S, what=what)
    # Entries are sums of C/2 terms, so rounding errors grow with C.
    return S, precision.tolerance() * max(1.0, C / 2)


def test_shape(position_similarity):
    """Output shape is (T, T)"""
    for T, C in [(6, 8), (10, 4), (1, 2), (3, 16)]:
        _similarities(position_similarity, T, C)


def test_diagonal(position_similarity):
    """Diagonal entries equal C/2"""
    for T, C in [(12, 8), (5, 6)]:
        S, tol = _similarities(position_similarity, T, C)
        for p in range(T):
            if not abs(S[p, p] - C / 2) <= tol:
                fail(f"S[{p}, {p}] for T={T}, C={C}: expected C/2 = {C // 2} (each pair adds "
                     f"sin^2 + cos^2 = 1), got {num(S[p, p])}{_diagnosis(S, T, C)}")


def test_symmetric(position_similarity):
    """Matrix is symmetric"""
    T, C = 16, 8
    S, tol = _similarities(position_similarity, T, C)
    error = np.abs(S - S.T)
    if error.max() > tol:
        p1, p2 = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
        p1, p2 = min(p1, p2), max(p1, p2)
        fail(f"S[{p2}, {p1}] for T={T}, C={C}: expected S[{p1}, {p2}] = {num(S[p1, p2])} "
             f"(a dot product does not depend on the order), got {num(S[p2, p1])}{_diagnosis(S, T, C)}")


def test_depends_only_on_offset(position_similarity):
    """Depends only on the offset p1 - p2 (Toeplitz)"""
    T, C = 20, 8
    S, tol = _similarities(position_similarity, T, C)
    error = np.abs(S[1:, 1:] - S[:-1, :-1])
    if error.max() > tol:
        p1, p2 = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
        fail(f"S[{p1 + 1}, {p2 + 1}] for T={T}, C={C}: expected the same value as S[{p1}, {p2}] = "
             f"{num(S[p1, p2])} (both pairs have offset {p1 - p2}), got {num(S[p1 + 1, p2 + 1])}"
             f"{_diagnosis(S, T, C)}")


def test_hand_checked_entries(position_similarity):
    """Matches the cosine sum at hand-checked entries"""
    # C = 8 has the frequencies 1, 0.1, 0.01 and 0.001.
    T, C = 10, 8
    S, tol = _similarities(position_similarity, T, C)
    for p1, p2 in [(2, 7), (0, 3), (9, 1)]:
        d = p1 - p2
        want = sum(math.cos(d * _frequency(i, C)) for i in range(C // 2))
        formula = f"cos({d}) + cos({d * 0.1:g}) + cos({d * 0.01:g}) + cos({d * 0.001:g})"
        if not abs(S[p1, p2] - want) <= tol:
            fail(f"S[{p1}, {p2}] for T={T}, C={C}: expected {formula} = {num(want)}, "
                 f"got {num(S[p1, p2])}{_diagnosis(S, T, C)}")
    expected = _similarity(T, C)
    error = np.abs(S - expected)
    if error.max() > tol:
        p1, p2 = (int(v) for v in np.unravel_index(int(np.argmax(error)), error.shape))
        fail(f"S[{p1}, {p2}] for T={T}, C={C}: {expected_got(expected[p1, p2], S[p1, p2])}"
             f"{_diagnosis(S, T, C)}")


def test_bounded(position_similarity):
    """All values lie in [-C/2, C/2]"""
    T, C = 50, 6
    S, tol = _similarities(position_similarity, T, C)
    outside = np.abs(S) > C / 2 + tol
    if outside.any():
        p1, p2 = (int(v) for v in np.argwhere(outside)[0])
        fail(f"S[{p1}, {p2}] for T={T}, C={C}: expected a value in [-{C // 2}, {C // 2}] "
             f"(a sum of {C // 2} cosines), got {num(S[p1, p2])} "
             f"({int(outside.sum())} values outside){_diagnosis(S, T, C)}")
