"""Hidden tests for embedding_backward(ids, dout, V).

Expected values come from plain Python below (one pass over the positions, adding each position's
row of dout into the row of its id), written independently of solution.py, and one test checks the
result against central differences of a plain-Python token embedding.  When a gradient is wrong, the
tests rebuild the results of classic mistakes (repeated ids overwriting instead of accumulating, a
mean instead of a sum, ...) so the message can name the mistake.
"""

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import Diagnosis, call, expect_gradient


# ---- the expected gradient, in plain Python ------------------------------------------------------

def _flat(ids, dout):
    """The ids as a flat list of ints and the rows of dout in the same order, as lists of floats."""
    ids = np.asarray(ids).reshape(-1).tolist()
    rows = np.asarray(dout, dtype=np.float64)
    return [int(i) for i in ids], rows.reshape(len(ids), rows.shape[-1]).tolist()


def _expected(ids, dout, V):
    """Row v is the sum of dout over every position holding id v; a float64 (V, C) array."""
    flat, rows = _flat(ids, dout)
    C = np.asarray(dout).shape[-1]
    table = [[0.0] * C for _ in range(V)]
    for i, row in zip(flat, rows):
        table[i] = [a + b for a, b in zip(table[i], row)]
    return np.array(table, dtype=np.float64).reshape(V, C)


# ---- classic mistakes, rebuilt ---------------------------------------------------------------------

def _last_write_wins(ids, dout, V):
    """What dW[ids] += dout gives: numpy's buffered fancy indexing keeps one write per repeated id."""
    flat, rows = _flat(ids, dout)
    table = np.zeros((V, len(rows[0])))
    for i, row in zip(flat, rows):
        table[i] = row
    return table


def _mean_of_repeats(ids, dout, V):
    flat, _ = _flat(ids, dout)
    counts = np.array([max(1, flat.count(v)) for v in range(V)], dtype=np.float64)[:, None]
    return _expected(ids, dout, V) / counts


def _per_sequence_writes(ids, dout, V):
    """dW[ids[b]] += dout[b] for each sequence b: accumulates across sequences, overwrites within one."""
    ids, dout = np.asarray(ids), np.asarray(dout, dtype=np.float64)
    table = np.zeros((V, dout.shape[-1]))
    for b in range(ids.shape[0]):
        table += _last_write_wins(ids[b], dout[b], V)
    return table


def _mistakes(ids, dout, V):
    """(result, hint) for each classic mistake on these inputs."""
    candidates = [
        (lambda: _last_write_wins(ids, dout, V),
         "looks like dW[ids] += dout: it adds dout to a copy of the rows dW[ids] and assigns the copy back, so "
         "a repeated id keeps only one position's gradient; use np.add.at(dW, ids, dout), which accumulates, "
         "or a loop over the positions"),
        (lambda: _mean_of_repeats(ids, dout, V),
         "looks like the gradients of a repeated id were averaged: they add up, one term per position"),
    ]
    if np.asarray(ids).ndim == 2:
        candidates.append((lambda: _per_sequence_writes(ids, dout, V),
                           "looks like one dW[ids[b]] += dout[b] per sequence: within a sequence, repeated ids "
                           "still overwrite each other; accumulate over every position"))
    return candidates


_diagnosis = Diagnosis(_mistakes, correct=_expected, rtol=1e-6)


# ---- calling the learner's function -------------------------------------------------------------

def _describe(ids, dout, V, ids_list, dout_list):
    shape = np.asarray(ids).shape
    ids_part = f"ids {'(a list) ' if ids_list else ''}of shape {shape}"
    dout_array = np.asarray(dout)
    kind = "" if dout_list or dout_array.dtype == np.float64 else f" {dout_array.dtype}"
    dout_part = f"dout {'(a list) ' if dout_list else ''}of shape {dout_array.shape}{kind}"
    return f"embedding_backward({ids_part}, {dout_part}, V={V})"


def _gradient(embedding_backward, ids, dout, V, *, ids_list=False, dout_list=False):
    """Call the learner's function; return (float64 copy of dW_E, tolerance, description)."""
    ids, dout = np.asarray(ids), np.asarray(dout)
    given_ids = ids.tolist() if ids_list else ids
    given_dout = dout.tolist() if dout_list else dout
    C = dout.shape[-1]

    def shape_hint(shape):
        if shape == (C, V):
            return "looks transposed: one row per vocabulary entry, one column per feature"
        if len(shape) == 2 and shape[1] == C and shape[0] == int(ids.max()) + 1:
            return "ids.max() + 1 rows: the table has V rows, and the rows of ids that never occur are 0"
        if shape == dout.shape:
            return ("the shape of dout: the gradient of W_E has one row per vocabulary entry; add the row of "
                    "each position into the row of its id")
        if len(shape) == 2 and shape[1] == C and shape[0] == len(set(ids.reshape(-1).tolist())):
            return "one row per distinct id: the table has V rows, one per vocabulary entry"
        return ""
    got, precision, what = call(embedding_backward, given_ids, given_dout, V, shape=(V, C), shape_hint=shape_hint,
                                what=_describe(ids, dout, V, ids_list, dout_list))
    return got, precision.tolerance(float64=1e-9, float32=1e-5), what


def _check(embedding_backward, ids, dout, V, **options):
    """Compare the learner's gradient with the plain-Python one; return it."""
    got, base, what = _gradient(embedding_backward, ids, dout, V, **options)
    expected = _expected(ids, dout, V)
    tol = base * max(1.0, float(np.abs(expected).max()))
    error = np.abs(got - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > tol:
        v, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        flat = np.asarray(ids).reshape(-1).tolist()
        count = flat.count(v)
        where = f"id {v} occurs {count} time(s) in ids" if count else f"id {v} never occurs in ids, so its row is 0"
        wrong = int((error > tol).sum())
        fail(f"{what}[{v}, {c}]: expected {expected[v, c]:.8g}, got {got[v, c]:.8g} ({where}; {wrong} of "
             f"{error.size} entries differ){_diagnosis(got, ids, dout, V)}", got=got, expected=expected)
    return got


def _random(seed, shape, V, C, dtype=np.float64):
    rng = np.random.default_rng(seed)
    # The platform's index type, as np.array([...]) gives: np.bincount refuses int64 ids on 32-bit Pyodide.
    ids = rng.integers(0, V, size=shape).astype(np.intp)
    return ids, rng.normal(0.0, 1.0, size=shape + (C,)).astype(dtype)


# ---- tests --------------------------------------------------------------------------------------

def test_shape(embedding_backward):
    """Output shape is (V, C), for ids of shape (T,) and (B, T)"""
    for seed, shape, V, C in [(0, (5,), 7, 3), (1, (2, 4), 6, 2), (2, (1,), 3, 4), (3, (3, 1), 10, 5)]:
        _gradient(embedding_backward, *_random(seed, shape, V, C), V)


def test_hand_checked(embedding_backward):
    """Hand-checked: ids = [2, 0, 2] with V = 4 (rows 0 and 2 of dout add up), and the statement's batch example"""
    ids, dout = np.array([2, 0, 2]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    got, _, what = _gradient(embedding_backward, ids, dout, 4)
    want = [[3.0, 4.0], [0.0, 0.0], [6.0, 8.0], [0.0, 0.0]]
    for v, why in ((2, "positions 0 and 2 hold id 2: [1, 2] + [5, 6]"), (0, "position 1 holds id 0"),
                   (1, "id 1 never occurs"), (3, "id 3 never occurs")):
        if not np.allclose(got[v], want[v], rtol=0.0, atol=1e-12):
            fail(f"{what}: row {v} should be {want[v]} ({why}), got {np.round(got[v], 6).tolist()}"
                 f"{_diagnosis(got, ids, dout, 4)}", got=got, expected=np.array(want))
    # The statement's batch example.
    _check(embedding_backward, np.array([[1, 1], [3, 1]]), np.array([[[1.0, 0.5], [2.0, -1.0]],
                                                                      [[0.5, 0.5], [4.0, 0.0]]]), 5)


def test_repeated_ids(embedding_backward):
    """Repeated ids accumulate: the gradient of a row adds one term per position holding it"""
    # Every id repeated, within a sequence and across sequences.
    _check(embedding_backward, np.array([3, 3, 3, 1, 3]), np.arange(10.0).reshape(5, 2) - 4.0, 4)
    _check(embedding_backward, np.array([[0, 2, 0], [2, 2, 0]]), np.random.default_rng(4).normal(size=(2, 3, 3)), 3)
    # Sums of dout: the gradient of sum(W_E[ids] * dout) adds up over the positions.
    ids, dout = _random(5, (20,), 4, 3)
    got, base, what = _gradient(embedding_backward, ids, dout, 4)
    total, want = got.sum(axis=0), dout.sum(axis=0)
    if not np.allclose(total, want, rtol=0.0, atol=10 * base * max(1.0, float(np.abs(want).max()))):
        fail(f"{what}: the rows should add up to dout summed over the positions, {np.round(want, 6).tolist()} "
             f"(each position adds its row of dout once), got {np.round(total, 6).tolist()}"
             f"{_diagnosis(got, ids, dout, 4)}")
    _check(embedding_backward, ids, dout, 4)


def test_unused_ids(embedding_backward):
    """An id that never occurs gets a row of zeros, including the last ids of the vocabulary"""
    ids, dout = np.array([[4, 0, 4], [1, 0, 1]]), np.random.default_rng(6).normal(size=(2, 3, 3))
    got = _check(embedding_backward, ids, dout, 9)
    for v in (2, 3, 5, 6, 7, 8):
        if np.abs(got[v]).max() != 0.0:
            fail(f"embedding_backward(ids={ids.tolist()}, dout, V=9): id {v} never occurs, so row {v} should be "
                 f"exactly 0, got {np.round(got[v], 6).tolist()}")
    _check(embedding_backward, np.array([0]), np.array([[1.5, -2.0]]), 6)


def test_finite_differences(embedding_backward):
    """Agrees with central differences of the token embedding"""
    rng = np.random.default_rng(7)
    V, C = 5, 3
    ids, dout = rng.integers(0, V, size=(2, 4)).astype(np.intp), rng.normal(size=(2, 4, C))
    W = rng.normal(size=(V, C))
    got, _, what = _gradient(embedding_backward, ids, dout, V)

    def loss(W):  # sum(token_embedding(ids, W) * dout) in plain Python
        return sum(sum(W[i][c] * g[c] for c in range(C)) for i, g in zip(*_flat(ids, dout)))

    expect_gradient(got, lambda W: loss(W.tolist()), W, h=1e-6, atol=1e-6, rtol=1e-6,
                    what=f"{what}, for the loss sum(token_embedding(ids, W_E) * dout)",
                    mistakes=lambda: _mistakes(ids, dout, V))


def test_lists(embedding_backward):
    """ids and dout may be lists (of ints, of rows)"""
    ids, dout = _random(8, (6,), 5, 2)
    _check(embedding_backward, ids, dout, 5, ids_list=True)
    _check(embedding_backward, ids, dout, 5, dout_list=True)
    ids, dout = _random(9, (2, 3), 4, 3)
    _check(embedding_backward, ids, dout, 4, ids_list=True, dout_list=True)


def test_float32(embedding_backward):
    """float32 dout gives a gradient within float32 precision"""
    _check(embedding_backward, *_random(10, (16,), 6, 8, dtype=np.float32), 6)
    _check(embedding_backward, *_random(11, (3, 10), 12, 4, dtype=np.float32), 12)


def test_large(embedding_backward):
    """A larger case: V = 1000, C = 64, ids of shape (8, 128)"""
    _check(embedding_backward, *_random(12, (8, 128), 1000, 64), 1000)
