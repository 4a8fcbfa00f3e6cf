"""Hidden tests for cross_entropy_grad(logits, targets).

Expected values come from a plain-Python softmax below (math.exp), written
independently of solution.py, and one test checks the result against central
finite differences of a plain-Python cross-entropy loss.  When a gradient is
wrong, the tests compare it with the gradients that classic mistakes produce so
the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import expect_finite, fail
from grader.core.random_checks import array, compare_on_random_inputs
from grader.core.testkit import call, diagnose, expect_gradient, expected_got


# ---- the formula, in plain Python ---------------------------------------------------------------

def _softmax(row):
    top = max(row)
    exps = [math.exp(v - top) for v in row]
    total = sum(exps)
    return [e / total for e in exps]


def _grad(rows, targets, *, scale=None, sign=1.0, onehot=None, probs=None):
    """(softmax - onehot) / T from the formula; the keyword arguments reproduce known mistakes.

    onehot(t, j, targets) says whether entry [t, j] gets the 1 (correct: j == targets[t]);
    probs(rows) gives the matrix the one-hot is subtracted from (correct: row-wise softmax).
    """
    T, V = len(rows), len(rows[0])
    P = probs(rows) if probs is not None else [_softmax(row) for row in rows]
    onehot = onehot or (lambda t, j, ys: j == ys[t])
    scale = 1.0 / T if scale is None else scale
    return np.array([[sign * scale * (P[t][j] - (1.0 if onehot(t, j, targets) else 0.0))
                      for j in range(V)] for t in range(T)], dtype=np.float64).reshape(T, V)


def _loss(rows, targets):
    """Mean cross-entropy, plain Python, stable."""
    total = 0.0
    for row, y in zip(rows, targets):
        top = max(row)
        total += top + math.log(sum(math.exp(v - top) for v in row)) - row[y]
    return total / len(rows)


def _softmax_columns(rows):
    columns = [_softmax(list(column)) for column in zip(*rows)]
    return [list(row) for row in zip(*columns)]


def _log_softmax(rows):
    out = []
    for row in rows:
        top = max(row)
        s = top + math.log(sum(math.exp(v - top) for v in row))
        out.append([v - s for v in row])
    return out


def _mistakes(T, V, targets):
    """(options for _grad, hint) for classic mistakes."""
    out = [
        (dict(scale=1.0), "looks like the division by T is missing: the loss is a mean over T positions, "
                          "so every entry is divided by T (without it, this is the gradient of the sum)"),
        (dict(sign=-1.0), "the sign is flipped: the gradient is softmax minus one-hot, not one-hot minus softmax"),
        (dict(scale=1.0 / V), "looks like a division by V, the vocabulary size: divide by the number of "
                              "positions T (the loss is a mean over positions)"),
        (dict(scale=1.0 / (T * V)), "looks like a division by T*V: divide by the number of positions T only"),
        (dict(onehot=lambda t, j, ys: False), "looks like the one-hot of the targets was never subtracted: "
                                             "subtract 1 at column targets[t] of each row t"),
        (dict(onehot=lambda t, j, ys: j < len(ys) and ys[j] == t), "looks like the one-hot was built on the wrong axis "
                                              "(Y[targets, arange(T)] = 1 marks row targets[t], column t); "
                                              "row t needs its 1 in column targets[t]"),
        (dict(probs=_softmax_columns), "looks like the softmax was taken over positions (axis 0) instead of over "
                                       "the vocabulary (axis 1 / axis=-1)"),
        (dict(probs=_log_softmax), "looks like the log-softmax was used; the gradient uses the softmax "
                                   "probabilities themselves"),
        (dict(onehot=lambda t, j, ys: j == (ys[t] - 1) % V), "looks like the 1 was subtracted at targets[t] - 1: "
                                                        "the ids are already 0-based"),
    ]
    return out


def _explain(got, rows, targets):
    """' (hint)' naming the one classic mistake that reproduces `got`, or ''."""
    T, V = len(rows), len(rows[0])
    if T * V > 4096:
        return ""
    if not np.isfinite(got).all():
        if max(abs(v) for row in rows for v in row) > 700:
            return (" (np.exp overflows to inf above about 709, and inf / inf is nan: subtract each row's "
                    "maximum before exponentiating)")
        return ""
    # Name a mistake only when it is the one explanation: on some inputs two mistakes coincide.
    return diagnose(got, [(lambda options=options: _grad(rows, targets, **options), hint)
                          for options, hint in _mistakes(T, V, targets)],
                    correct=lambda: _grad(rows, targets), atol=1e-5, pick="unique")


# ---- calling the learner's function -------------------------------------------------------------

def _describe(T, V, targets, as_list, dtype):
    if T <= 8:
        listed = f"[{', '.join(str(y) for y in targets)}]"
        shown = f"targets={listed} (a list)" if as_list else f"targets=np.array({listed})"
    else:
        shown = f"targets: a list of {T} ids" if as_list else f"targets: an integer array of {T} ids"
    kind = " float32" if dtype == np.float32 else ""
    return f"cross_entropy_grad(logits of shape {(T, V)}{kind}, {shown})"


def _gradient(cross_entropy_grad, rows, targets, *, dtype=np.float64, as_list=False):
    """Call the learner's function; return (float64 copy of the gradient, tolerance, description)."""
    logits = np.array(rows, dtype=dtype)
    T, V = logits.shape
    targets = [int(y) for y in targets]

    def shape_hint(shape):
        if shape == (V, T):
            return "looks transposed: one row per position, one column per vocabulary entry"
        if shape == (T, T):
            return "a (T, T) result: was the one-hot built with np.eye(T) or indexed as [:, targets]?"
        if shape in ((), (1,)):
            return "looks like the loss itself: return the whole gradient matrix"
        return "one value per position: the gradient has an entry for every logit" if shape == (T,) else ""
    grad, precision, what = call(cross_entropy_grad, logits, targets if as_list else np.array(targets, dtype=np.int64),
                                 what=_describe(T, V, targets, as_list, dtype), shape=(T, V), shape_hint=shape_hint)
    return grad, precision.tolerance(), what


def _compare(got, rows, targets, tol, what):
    """Fail at the worst entry where `got` differs from the formula."""
    want = _grad(rows, targets)
    error = np.abs(got - want)
    error[np.isnan(error)] = np.inf
    if error.max() > tol:
        t, j = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > tol).sum())
        fail(f"{what}[{t}, {j}]: {expected_got(want[t, j], got[t, j])} "
             f"({wrong} of {error.size} entries differ){_explain(got, rows, targets)}")


def _check(cross_entropy_grad, rows, targets, **options):
    got, tol, what = _gradient(cross_entropy_grad, rows, targets, **options)
    if options.get("dtype") == np.float32:
        rows = [[float(v) for v in np.array(row, dtype=np.float32)] for row in rows]
    _compare(got, rows, targets, tol, what)
    return got


def _random_case(seed, T, V, scale=2.0):
    rng = np.random.default_rng(seed)
    rows = [[float(v) for v in row] for row in rng.normal(0.0, scale, size=(T, V))]
    targets = [int(y) for y in rng.integers(0, V, size=T)]
    return rows, targets


# ---- tests --------------------------------------------------------------------------------------

def test_shape(cross_entropy_grad):
    """Output shape is (T, V), the shape of the logits"""
    for seed, T, V in [(1, 3, 5), (2, 1, 4), (3, 6, 2)]:
        rows, targets = _random_case(seed, T, V)
        _gradient(cross_entropy_grad, rows, targets)


def test_hand_checked(cross_entropy_grad):
    """Matches hand-checked values"""
    # The statement's examples.
    _check(cross_entropy_grad, [[2.0, 1.0, 0.1], [0.5, 2.5, 0.0]], [0, 1])
    got, tol, what = _gradient(cross_entropy_grad, [[0.0] * 4, [0.0] * 4], [3, 0])
    want = [[0.125, 0.125, 0.125, -0.375], [-0.375, 0.125, 0.125, 0.125]]
    for t in range(2):
        for j in range(4):
            if not abs(got[t, j] - want[t][j]) <= tol:
                fail(f"{what} with every logit 0, entry [{t}, {j}]: expected (1/4 - {1 if want[t][j] < 0 else 0}) / 2 "
                     f"= {want[t][j]:g}, got {got[t, j]:.6g}{_explain(got, [[0.0] * 4] * 2, [3, 0])}")
    # softmax([0, ln 3]) = [1/4, 3/4]; target 1, T = 1: [1/4, 3/4 - 1].
    _check(cross_entropy_grad, [[0.0, math.log(3.0)]], [1])


def test_rows_sum_to_zero(cross_entropy_grad):
    """Each row sums to 0, and its only negative entry is at its target"""
    # Square on purpose (T == V), with targets that are not a permutation of the rows, so a one-hot
    # built on the wrong axis has the right shape but the wrong entries.
    rows, _ = _random_case(4, 4, 4, scale=1.0)
    targets = [2, 2, 0, 1]
    got, tol, what = _gradient(cross_entropy_grad, rows, targets)
    expect_finite(got, what=what)
    T, V = got.shape
    for t in range(T):
        total = float(got[t].sum())
        if abs(total) > 4 * tol + 1e-12:
            fail(f"{what}: row {t} should sum to 0 (softmax sums to 1, minus the single 1 of the one-hot), "
                 f"got {total:.6g}{_explain(got, rows, targets)}")
    for t in range(T):
        for j in range(V):
            negative = got[t, j] < 0
            if negative != (j == targets[t]):
                expected = "negative (softmax - 1 at the target)" if j == targets[t] else "positive (softmax - 0)"
                fail(f"{what}[{t}, {j}]: expected a {expected} entry since targets[{t}] = {targets[t]}, "
                     f"got {got[t, j]:.6g}{_explain(got, rows, targets)}")
    _compare(got, rows, targets, tol, what)


def test_finite_differences(cross_entropy_grad):
    """Agrees with finite differences of the cross-entropy loss"""
    rows, targets = _random_case(5, 3, 5)
    got, tol, what = _gradient(cross_entropy_grad, rows, targets, as_list=True)
    expect_finite(got, what=what)
    expect_gradient(got, lambda logits: _loss(logits.tolist(), targets), np.array(rows), h=1e-5,
                    atol=max(tol, 1e-7), rtol=0.0, what=what,
                    mistakes=[(lambda options=options: _grad(rows, targets, **options), hint)
                              for options, hint in _mistakes(len(rows), len(rows[0]), targets)])


def test_large_logits(cross_entropy_grad):
    """Logits of magnitude 1e4 give finite, correct gradients"""
    rows = [[1e4, 0.0, -1e4], [-1e4, 1e4, 1e4 - 1.0], [5.0, -1e4, 1e4]]
    got, tol, what = _gradient(cross_entropy_grad, rows, [1, 2, 2])
    if not np.isfinite(got).all():
        fail(f"{what} contains non-finite values (NaN or inf){_explain(got, rows, [1, 2, 2])}")
    _compare(got, rows, [1, 2, 2], tol, what)


def test_random_cases(cross_entropy_grad):
    """Larger random cases match the formula (targets as a list or an array, float64 and float32)"""
    for seed, T, V, dtype, as_list in [(6, 16, 50, np.float64, False), (7, 8, 9, np.float64, True),
                                       (8, 32, 100, np.float32, False), (9, 5, 300, np.float32, True)]:
        rows, targets = _random_case(seed, T, V, scale=4.0)
        _check(cross_entropy_grad, rows, targets, dtype=dtype, as_list=as_list)


def test_random_logit_ranges(cross_entropy_grad):
    """Matches the formula on 30 random cases whose rows lie far apart (logits from -1000 to 1000)"""
    # Rows far below the array's overall maximum expose a shift by one maximum for the whole array.
    compare_on_random_inputs(
        cross_entropy_grad, lambda logits, targets: _grad(logits.tolist(), targets.tolist()),
        {"logits": array(("T", "V"), low=-1000, high=1000), "targets": array(("T",), low=0, high="V", dtype="int64")},
        dims={"T": (1, 5), "V": (2, 6)}, count=30, seed=0)
