"""Hidden tests for token_embedding(ids, W_E).

Expected results are built with plain Python loops over nested lists (for each
id, the row of W_E with that index, copied entry by entry), independently of
solution.py.  When a result has the wrong shape or the wrong rows, the message
names the classic mistake it matches (columns instead of rows, .T on a batch,
one-hot vectors never multiplied by W_E, ids off by one, wrap-around, ...).
"""

import numpy as np

from grader.core.checks import as_array, fail, precision_of
from grader.core.testkit import num


def _ids_text(ids_list):
    """The ids as the learner would write them, shortened when long."""
    text = repr(ids_list)
    return text if len(text) <= 60 else f"ids of shape {np.array(ids_list).shape}"


def _lookup(ids_list, rows):
    """Expected result as nested lists: each id (at any depth) replaced by a copy of rows[id]."""
    if isinstance(ids_list, list):
        return [_lookup(item, rows) for item in ids_list]
    return [float(value) for value in rows[ids_list]]


def _shape_hint(shape, ids_shape, V, C):
    """' (hint)' naming the mistake that gives a result of this wrong shape, or ''."""
    n = int(np.prod(ids_shape))
    if shape == tuple(ids_shape) + (V,):
        return (" (looks like the one-hot vectors of the ids: multiplying them by W_E gives the embeddings, "
                "and indexing the rows, W_E[ids], gives the same without building them)")
    if shape == (C,) + tuple(ids_shape):
        return (" (looks like one column per id, e.g. W_E.T[:, ids] or W_E.T @ one_hot.T; the result has "
                "one row per id, row v of W_E for id v: W_E[ids])")
    if len(ids_shape) > 1 and shape == tuple(ids_shape[::-1]) + (C,):
        return (" (looks like .T applied to a (C, B, T) array, e.g. W_E.T[:, ids].T: .T reverses every "
                "axis, so the batch and time axes are swapped too; index the rows directly, W_E[ids])")
    if shape == (V, C):
        return " (looks like W_E itself; pick one row per id)"
    if len(ids_shape) > 1 and shape == (n, C):
        return " (looks like the ids were flattened; the result keeps the shape of ids, with C appended)"
    if shape == tuple(ids_shape):
        return " (one number per id; each id needs its whole row of C values)"
    if len(shape) == 2 and shape[1] == C and shape[0] < n:
        return (" (fewer rows than ids: was np.unique or a set used? every id gets its own row, "
                "repeats included)")
    return ""


def _value_hint(got, ids, W_E):
    """' (hint)' naming the mistake whose result matches `got` (same shape as expected), or ''."""
    V = W_E.shape[0]
    candidates = [
        ((ids + 1) % V, "looks like every id is off by one (row id + 1); row 0 of W_E is token 0"),
        ((ids - 1) % V, "looks like every id is off by one (row id - 1); ids count from 0, row 0 is token 0"),
        (np.sort(ids, axis=-1), "looks like the ids were sorted; keep them in the order given"),
        (np.zeros_like(ids), "looks like every id got row 0"),
    ]
    for rows, hint in candidates:
        if np.allclose(got, W_E[rows], rtol=0.0, atol=1e-4):
            return f" ({hint})"
    if W_E.shape[0] == W_E.shape[1] and np.allclose(got, W_E.T[ids], rtol=0.0, atol=1e-4):
        return " (looks like columns of W_E were taken; token v's vector is row v)"
    return ""


def _check(token_embedding, ids, W_E):
    """Call the learner's function on valid ids and compare with the loop-built lookup."""
    ids_list = np.asarray(ids).tolist()
    ids_array = np.array(ids_list, dtype=np.int64)
    V, C = W_E.shape
    call = f"token_embedding({_ids_text(ids_list)}, W_E) with W_E of shape ({V}, {C})"
    precision = precision_of(ids, W_E)
    try:
        result = token_embedding(ids, W_E)
    except IndexError as error:
        fail(f"{call}: every id is in [0, {V}) here (0 and V-1 = {V - 1} are valid too), "
             f"but your function raised IndexError: {error}")
    tol = precision.tolerance() * max(1.0, float(np.abs(W_E).max()))  # float32 table: float32 rounding
    got = as_array(result, precision, what=call)
    expected = np.array(_lookup(ids_list, W_E.tolist()), dtype=np.float64).reshape(ids_array.shape + (C,))
    shape = tuple(got.shape)
    if shape != expected.shape:
        fail(f"{call}: expected shape {expected.shape} (the shape of ids, {tuple(ids_array.shape)}, "
             f"followed by C = {C}), got {shape}{_shape_hint(shape, ids_array.shape, V, C)}")
    error = np.abs(got - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > tol:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        where = "[" + ", ".join(str(k) for k in index) + "]"
        token = int(ids_array[index[:-1]])
        wrong = int((error > tol).sum())
        fail(f"{call}, entry {where}: expected W_E[{token}, {index[-1]}] = {num(expected[index])} "
             f"(id {token} at position {list(index[:-1])}), got {num(got[index])} "
             f"({wrong} of {error.size} entries differ){_value_hint(got, ids_array, W_E)}",
             got=got, expected=expected)
    return got


def _expect_index_error(token_embedding, ids, W_E, why):
    """The learner's function must raise IndexError for these ids."""
    ids_list = np.asarray(ids).tolist()
    ids_array = np.array(ids_list, dtype=np.int64)
    V, C = W_E.shape
    call = f"token_embedding({_ids_text(ids_list)}, W_E) with W_E of shape ({V}, {C})"
    precision = precision_of(ids, W_E)
    try:
        result = token_embedding(ids, W_E)
    except IndexError:
        return
    hint = ""
    if issubclass(type(result), np.ndarray):
        got = np.array(result, copy=True, subok=False)
        if got.dtype.kind == "f" and got.shape == ids_array.shape + (C,):
            if (ids_array < 0).any() and (ids_array >= -V).all() and (ids_array < V).all() and np.allclose(
                    got, W_E[ids_array], rtol=0.0, atol=1e-4):
                hint = (" (it returned W_E[ids] with the negative id wrapped around: numpy reads W_E[-1] "
                        "as the last row, so check for ids < 0 yourself and raise IndexError)")
            elif np.allclose(got, W_E[ids_array % V], rtol=0.0, atol=1e-4):
                hint = " (it returned rows of the ids taken modulo V; an id outside [0, V) is an error)"
            elif np.allclose(got, W_E[np.clip(ids_array, 0, V - 1)], rtol=0.0, atol=1e-4):
                hint = " (it returned rows of the ids clipped to [0, V-1]; an id outside [0, V) is an error)"
    fail(f"{call}: expected IndexError ({why}), but your function returned a result instead of raising{hint}")


def _table(V, C):
    """W_E with W_E[v, c] = v + c/10, so every entry says which row and column it came from."""
    return np.array([[v + c / 10 for c in range(C)] for v in range(V)], dtype=np.float64)


def test_shape(token_embedding):
    """Output shape is (T, C) for ids of shape (T,)"""
    for V, C, ids in [(7, 4, [1, 5, 2]), (10, 3, [9, 0, 4, 4, 8, 1]), (3, 6, [2]), (50, 8, list(range(0, 50, 3)))]:
        _check(token_embedding, np.array(ids, dtype=np.int64), _table(V, C))


def test_hand_checked_rows(token_embedding):
    """Row t of the result is row ids[t] of W_E (hand-checked, ids 0 and V-1 included)"""
    # V = 5, C = 3, W_E[v, c] = v + c/10: each value names the row and the column it comes from.
    W_E = np.array([[0.0, 0.1, 0.2],
                    [1.0, 1.1, 1.2],
                    [2.0, 2.1, 2.2],
                    [3.0, 3.1, 3.2],
                    [4.0, 4.1, 4.2]])
    ids = np.array([3, 0, 4, 4, 1])
    got = _check(token_embedding, ids, W_E)
    by_hand = [[3.0, 3.1, 3.2], [0.0, 0.1, 0.2], [4.0, 4.1, 4.2], [4.0, 4.1, 4.2], [1.0, 1.1, 1.2]]
    for t, row in enumerate(by_hand):
        for c, want in enumerate(row):
            if not abs(got[t, c] - want) <= 1e-6:
                fail(f"token_embedding([3, 0, 4, 4, 1], W_E)[{t}, {c}]: expected {want} "
                     f"(row {ids[t]} of W_E), got {num(got[t, c])}")
    # Non-round values, a square table and a single id.
    rng = np.random.default_rng(1)
    _check(token_embedding, np.array([2, 5, 0, 5, 3]), rng.standard_normal((6, 6)))
    _check(token_embedding, np.array([6]), rng.standard_normal((7, 2)))


def test_batch(token_embedding):
    """Ids of shape (B, T) give a result of shape (B, T, C)"""
    rng = np.random.default_rng(2)
    _check(token_embedding, np.array([[3, 1, 0], [0, 0, 4]]), _table(5, 4))
    _check(token_embedding, rng.integers(0, 9, size=(4, 3)), rng.standard_normal((9, 5)))
    _check(token_embedding, np.array([[1, 2, 0, 2]]), rng.standard_normal((3, 7)))


def test_list_ids(token_embedding):
    """Ids given as Python lists of ints work like integer arrays"""
    rng = np.random.default_rng(3)
    _check(token_embedding, [4, 1, 1, 0, 6], _table(7, 3))
    _check(token_embedding, [[2, 0], [5, 5], [1, 3]], rng.standard_normal((6, 4)))
    _check(token_embedding, [0], rng.standard_normal((2, 5)))


def test_out_of_range(token_embedding):
    """An id outside [0, V) raises IndexError, negative ids included (no wrap-around)"""
    W_E = _table(5, 3)
    cases = [
        ([0, 5, 2], "id 5 is not below V = 5: the valid ids are 0 to 4"),
        ([1, -1], "id -1 is negative; W_E[-1] would silently give the last row"),
        ([-5, 2], "id -5 is negative; W_E[-5] would silently give row 0"),
        ([3, 12], "id 12 is not below V = 5"),
        ([[0, 1], [2, -2]], "id -2 in the second sequence is negative"),
        ([[4, 4], [7, 0]], "id 7 in the second sequence is not below V = 5"),
    ]
    for ids, why in cases:
        _expect_index_error(token_embedding, np.array(ids, dtype=np.int64), W_E, why)
    _expect_index_error(token_embedding, [2, -3], W_E, "id -3 is negative")
    _expect_index_error(token_embedding, [5], W_E, "id 5 is not below V = 5")


def test_larger_float32(token_embedding):
    """Larger random table and ids, in float64 and float32"""
    rng = np.random.default_rng(4)
    W_E = rng.standard_normal((64, 24))
    ids = rng.integers(0, 64, size=(3, 20))
    _check(token_embedding, ids, W_E)
    _check(token_embedding, ids.astype(np.int32), W_E.astype(np.float32))
    _check(token_embedding, rng.integers(0, 64, size=40), W_E.astype(np.float32))
