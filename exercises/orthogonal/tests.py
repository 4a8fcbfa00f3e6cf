"""Hidden tests for orthogonal(seed, n_rows, n_cols, gain=1.0).

No test assumes a particular sequence of draws.  Orthonormality is checked to rounding; the distribution
over many seeds by the sign of every entry (each positive with probability exactly 1/2 for a uniformly
distributed matrix: flipping the sign of one row or column keeps the distribution).  The two statistical
checks fail a correct solution with probability below 1e-11 and 2e-12, so below 1e-10 in all.
"""

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import binomial_range, call, expect_seeded, num

FALSE_FAILURE = 1e-11


def _matrix(orthogonal, seed, n_rows, n_cols, gain):
    def hint(shape):
        if shape == (n_rows, n_cols):
            return "that is the matrix: flatten it with .reshape(-1)"
        if len(shape) == 1 and shape[0] == min(n_rows, n_cols) ** 2:
            return "looks like a square Q from the QR of the wide matrix: take the QR of its transpose instead"
        return ""
    what = f"orthogonal({seed}, {n_rows}, {n_cols}, gain={gain})"
    got, _, _ = call(orthogonal, seed, n_rows, n_cols, gain, what=what, shape=(n_rows * n_cols,), shape_hint=hint)
    return got.reshape(n_rows, n_cols), what


def _expect_orthonormal(orthogonal, seed, n_rows, n_cols, gain):
    w, what = _matrix(orthogonal, seed, n_rows, n_cols, gain)
    gram, side = (w @ w.T, "rows") if n_rows <= n_cols else (w.T @ w, "columns")
    product = "W @ W.T" if side == "rows" else "W.T @ W"
    size = gram.shape[0]
    error = np.abs(gram - gain ** 2 * np.eye(size))
    if error.max() <= 1e-10 * gain ** 2:
        return
    i, j = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
    hint = ""
    for wrong, words in ((gain ** 4, "looks like the matrix was multiplied by gain squared"),
                         (1.0, "looks like the gain was left out")):
        if abs(wrong - gain ** 2) > 1e-6 and np.abs(gram - wrong * np.eye(size)).max() <= 1e-8 * wrong:
            hint = f" ({words})"
            break
    if not hint and np.abs(np.diag(gram) - gain ** 2).max() <= 1e-8 * gain ** 2:
        hint = f" (the {side} have the right length but are not orthonormal: they need orthogonalising, e.g. by QR)"
    fail(f"{what}: the {side} should be orthonormal times gain, {product} = gain² I = {num(gain ** 2)} I, but entry "
         f"[{i}, {j}] of {product} is {num(float(gram[i, j]))}{hint}")


def test_shape_and_dtype(orthogonal):
    """Returns a flat float64 array of n_rows * n_cols entries (tall, wide, square, 1 x 1)"""
    for shape in ((6, 4), (3, 7), (5, 5), (1, 1)):
        _matrix(orthogonal, 0, *shape, 1.0)


def test_tall_has_orthonormal_columns(orthogonal):
    """Tall (8 x 5): W.T @ W = I to 1e-10"""
    _expect_orthonormal(orthogonal, 1, 8, 5, 1.0)


def test_wide_has_orthonormal_rows(orthogonal):
    """Wide (3 x 7): W @ W.T = I to 1e-10"""
    _expect_orthonormal(orthogonal, 2, 3, 7, 1.0)


def test_gain(orthogonal):
    """With gain 2.5 (square 6 x 6 and wide 4 x 9): W @ W.T = 6.25 I"""
    _expect_orthonormal(orthogonal, 3, 6, 6, 2.5)
    _expect_orthonormal(orthogonal, 4, 4, 9, 2.5)


def test_no_sign_is_favoured(orthogonal):
    """Over 60 seeds, every entry (3 x 3 and 2 x 4) is positive about half the time"""
    seeds = range(1000, 1060)
    shapes = ((3, 3), (2, 4))
    entries = sum(rows * cols for rows, cols in shapes)
    # Exact binomial tails, each entry at 1e-11 / 17: a correct solution fails with probability below 1e-11.
    low, high = binomial_range(len(seeds), 0.5, FALSE_FAILURE / entries)
    for rows, cols in shapes:
        positive = np.zeros((rows, cols), dtype=int)
        for seed in seeds:
            w, _ = _matrix(orthogonal, seed, rows, cols, 1.0)
            positive += w > 0
        i, j = (int(k) for k in np.unravel_index(int(np.argmax(np.abs(positive - len(seeds) / 2))), positive.shape))
        if not low <= positive[i, j] <= high:
            on_diagonal = i == j and rows == cols
            hint = (" (looks like the signs of R's diagonal were not folded into Q: np.linalg.qr's sign convention "
                    "biases the diagonal)") if on_diagonal else ""
            fail(f"orthogonal(seed, {rows}, {cols}): entry [{i}, {j}] is positive in {positive[i, j]} of {len(seeds)} "
                 f"seeds; for a uniformly distributed matrix it is positive with probability 1/2, so between "
                 f"{low} and {high} times (outside with probability below {FALSE_FAILURE / entries:.1g}){hint}")


def test_one_by_one(orthogonal):
    """A 1 x 1 matrix is +gain or -gain, and over 40 seeds both occur"""
    signs = set()
    for seed in range(40):
        w, what = _matrix(orthogonal, seed, 1, 1, 1.5)
        value = float(w[0, 0])
        if abs(abs(value) - 1.5) > 1e-12:
            fail(f"{what} should be 1.5 or -1.5, got {num(value)}")
        signs.add(value > 0)
    if len(signs) == 1:
        # A correct solution gives one sign for all 40 seeds with probability 2 * 2^-40, below 2e-12.
        fail(f"orthogonal(seed, 1, 1, gain=1.5) gave {'+' if True in signs else '-'}1.5 for all 40 seeds; it should be "
             f"either sign with probability 1/2 (looks like the signs of R's diagonal were not folded into Q)")


def test_seed_decides(orthogonal):
    """The same seed gives the same matrix, 20 seeds give 20 different ones"""
    expect_seeded(orthogonal, 3, 3, 1.0, what="orthogonal(seed, 3, 3, 1.0)")


def test_sizes_cast_with_int(orthogonal):
    """n_rows and n_cols may be floats or numpy integers: they are cast with int()"""
    call(orthogonal, 0, 3.0, np.int64(5), what="orthogonal(0, 3.0, np.int64(5))", shape=(15,))
