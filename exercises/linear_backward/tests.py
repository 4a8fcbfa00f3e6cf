"""Hidden tests for linear_backward(x, W, dout).

Expected values come from a loop over the rows of x below (one outer product per row), written
independently of solution.py, and one test checks every entry against central differences of the
layer's loss sum(dout * (x @ W + b)) computed in plain Python.  When a gradient is wrong, the tests
compare it with what classic mistakes give so the message can name the mistake.
"""

import numpy as np

from grader.core.checks import expect_finite, precision_of
from grader.core.testkit import call_many, compare, expect_gradient

NAMES = ("dx", "dW", "db")


# ---- the gradients, row by row ------------------------------------------------------------------

def _rows(a, width):
    """The rows of `a` (float64) as a list of 1-D arrays: one per position, of every sequence."""
    return list(np.asarray(a, dtype=np.float64).reshape(-1, width))


def _expected(x, W, dout):
    """(dx, dW, db) in float64: dx row by row, dW and db summed over the rows."""
    W = np.asarray(W, dtype=np.float64)
    C_in, C_out = W.shape
    xs, ds = _rows(x, C_in), _rows(dout, C_out)
    dx = np.array([W @ d for d in ds]).reshape(np.shape(x))
    dW = np.zeros((C_in, C_out))
    db = np.zeros(C_out)
    for row, d in zip(xs, ds):
        dW += np.outer(row, d)
        db += d
    return dx, dW, db


def _mistakes(x, W, dout):
    """{name: [(wrong value, hint)]} for classic mistakes that keep the right shape."""
    x, W, dout = (np.asarray(a, dtype=np.float64) for a in (x, W, dout))
    dx, dW, db = _expected(x, W, dout)
    N = max(1, dx.size // W.shape[0])
    out = {"dx": [], "dW": [], "db": []}
    if W.shape[0] == W.shape[1]:
        out["dx"].append((dout @ W, "looks like dout @ W: the input gradient is dout @ W.T"))
        out["dW"].append((dW.T, "looks transposed: dW[i, j] sums x[..., i] * dout[..., j], that is x.T @ dout"))
    out["dW"].append((dW / N, f"looks like a mean over the {N} rows: W is used by every row, so its gradient is "
                              "the sum of the rows' gradients, not their mean"))
    out["db"].append((db / N, f"looks like a mean over the {N} rows: b is added to every row, so its gradient is "
                              "the sum of dout over the rows, not their mean"))
    if x.ndim == 3 and x.shape[0] > 1:
        last = _expected(x[-1], W, dout[-1])
        first = _expected(x[0], W, dout[0])
        for name, index in (("dW", 1), ("db", 2)):
            out[name].append((last[index], "looks like only the last sequence of the batch counts: was it "
                                           "overwritten in a loop over the batch instead of added up?"))
            out[name].append((first[index], "looks like only the first sequence of the batch counts: sum over "
                                            "every leading axis, the batch included"))
    return out


def _shape_hint(name, shape, x_shape, C_in, C_out):
    """What a result of the wrong shape suggests, or ''."""
    lead = tuple(x_shape[:-1])
    if name == "dx" and shape == lead + (C_out,):
        return "the shape of dout: the input gradient is dout @ W.T, of the shape of x"
    if name == "dW":
        if shape == (C_out, C_in):
            return "looks transposed: dW has the shape of W, (C_in, C_out); it is x.T @ dout on 2-D arrays"
        if len(lead) == 2 and shape == (lead[0], C_in, C_out):
            return "one matrix per sequence of the batch: sum over every leading axis, the batch included"
        if shape == ():
            return "a single number: for a 1-D x, x.T @ dout is no outer product; use np.outer(x, dout)"
        if len(x_shape) == 3 and shape == (C_in, x_shape[1], C_out):
            return "numpy's .T reverses every axis of a 3-D x: flatten the leading axes first"
    if name == "db" and shape != (C_out,):
        if len(lead) == 2 and shape == (lead[1], C_out):
            return "dout.sum(axis=0) sums the batch axis only: sum over every leading axis"
        if shape == lead + (C_out,):
            return "the shape of dout: b is added to every row, so sum dout over every leading axis"
        if shape == ():
            return "a single number: db has one entry per output, the sum of dout over every leading axis"
    return ""


# ---- calling the learner's function -------------------------------------------------------------

def _describe(x, W, dout, dout_as_list):
    kind = f" {x.dtype}" if x.dtype != np.float64 else ""
    shown = f"dout: a nested list of shape {dout.shape}" if dout_as_list else f"dout of shape {dout.shape}"
    return f"linear_backward(x of shape {x.shape}{kind}, W of shape {W.shape}, {shown})"


def _gradients(linear_backward, x, W, dout, *, dout_as_list=False):
    """Call the learner's function; return ((dx, dW, db) as float64 arrays, precision, description)."""
    C_in, C_out = W.shape
    return call_many(linear_backward, x, W, dout.tolist() if dout_as_list else dout, names=NAMES,
                     shapes=[x.shape, (C_in, C_out), (C_out,)], precision=precision_of(x, W, dout),
                     what=_describe(x, W, dout, dout_as_list),
                     shape_hint=lambda name, shape: _shape_hint(name, shape, x.shape, C_in, C_out))


def _tolerance(precision, expected):
    """Absolute tolerance for one result, scaled to its largest entry."""
    scale = max(1.0, float(np.abs(expected).max()) if expected.size else 1.0)
    return precision.tolerance(float64=1e-9, float32=5e-5) * scale


def _compare(got, x, W, dout, precision, what):
    """Fail at the worst entry of the first result that differs from the row-by-row formula."""
    for name, mine, want in zip(NAMES, got, _expected(x, W, dout)):
        tol = _tolerance(precision, want)
        compare(mine, want, atol=tol, what=f"{name} of {what}", mistakes=lambda name=name: _mistakes(x, W, dout)[name],
                mistakes_atol=tol, pick="unique")


def _check(linear_backward, x, W, dout, **options):
    got, precision, what = _gradients(linear_backward, x, W, dout, **options)
    _compare(got, x, W, dout, precision, what)
    return got


def _random_case(seed, lead, C_in, C_out, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, size=lead + (C_in,)).astype(dtype)
    W = rng.normal(0.0, 0.5, size=(C_in, C_out)).astype(dtype)
    dout = rng.normal(0.0, 1.0, size=lead + (C_out,)).astype(dtype)
    return x, W, dout


# ---- tests --------------------------------------------------------------------------------------

def test_shapes(linear_backward):
    """Returns (dx, dW, db) of shapes x.shape, W.shape and (C_out,)"""
    for seed, lead, C_in, C_out in [(1, (4,), 3, 5), (2, (6,), 5, 2), (3, (1,), 1, 4)]:
        _gradients(linear_backward, *_random_case(seed, lead, C_in, C_out))


def test_hand_checked(linear_backward):
    """Matches the statement's worked example"""
    x = np.array([[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]])
    W = np.array([[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]])
    dout = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0]])
    (dx, dW, db), _, what = _gradients(linear_backward, x, W, dout)
    hand = {"dx": (dx, [[-1.0, 2.0], [1.0, 1.0], [2.0, 5.0]]),
            "dW": (dW, [[-1.0, 2.0, -1.0], [4.0, 1.0, 4.0]]),
            "db": (db, [3.0, 2.0, 1.0])}
    for name, (mine, want) in hand.items():
        compare(mine, want, atol=1e-9, what=f"{name} of {what}", mistakes=lambda name=name: _mistakes(x, W, dout)[name],
                mistakes_atol=1e-9, pick="unique")


def test_finite_differences(linear_backward):
    """Agrees with central differences of sum(dout * (x @ W + b)) for every entry of x, W and b"""
    x, W, dout = _random_case(4, (3,), 4, 2)
    b = np.random.default_rng(5).normal(0.0, 1.0, size=2)
    (dx, dW, db), _, what = _gradients(linear_backward, x, W, dout)

    def loss(x, W, b):
        return sum(float(dout[n, j]) * (sum(float(x[n, i]) * float(W[i, j]) for i in range(W.shape[0])) + float(b[j]))
                   for n in range(x.shape[0]) for j in range(W.shape[1]))

    losses = {"dx": (lambda a: loss(a, W, b), x), "dW": (lambda a: loss(x, a, b), W),
              "db": (lambda a: loss(x, W, a), b)}
    for name, got in zip(NAMES, (dx, dW, db)):
        function, array = losses[name]
        expect_gradient(got, function, array, h=1e-5, atol=1e-7, rtol=1e-7, what=f"{name} of {what}",
                        mistakes=lambda name=name: _mistakes(x, W, dout)[name])


def test_square_weights(linear_backward):
    """A square W: dx is dout @ W.T, not dout @ W, and dW is not transposed"""
    for seed, T, C in [(6, 5, 3), (7, 2, 4)]:
        _check(linear_backward, *_random_case(seed, (T,), C, C))


def test_batch(linear_backward):
    """A 3-D x (B, T, C_in): dW and db are summed over the batch and the positions"""
    for seed, lead, C_in, C_out in [(8, (3, 4), 5, 2), (9, (2, 1), 3, 3), (10, (4, 3), 2, 6)]:
        _check(linear_backward, *_random_case(seed, lead, C_in, C_out))


def test_single_vector(linear_backward):
    """A 1-D x: dW is the outer product of x and dout, db is dout"""
    _check(linear_backward, np.array([1.0, -2.0]), np.array([[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]),
           np.array([0.5, 1.0, -1.0]))
    for seed, C_in, C_out in [(11, 4, 3), (12, 3, 3), (13, 1, 5)]:
        _check(linear_backward, *_random_case(seed, (), C_in, C_out))


def test_dout_as_list(linear_backward):
    """dout given as a (nested) list of floats"""
    for seed, lead, C_in, C_out in [(14, (3,), 2, 4), (15, (2, 3), 4, 3), (16, (), 3, 2)]:
        _check(linear_backward, *_random_case(seed, lead, C_in, C_out), dout_as_list=True)


def test_float32(linear_backward):
    """float32 inputs (2-D and 3-D), compared at float32 precision"""
    for seed, lead, C_in, C_out in [(17, (8,), 6, 10), (18, (3, 5), 7, 4), (19, (), 5, 3)]:
        _check(linear_backward, *_random_case(seed, lead, C_in, C_out, dtype=np.float32))


def test_large(linear_backward):
    """A large case: a batch of 4 sequences of 64 positions, C_in = 64, C_out = 96"""
    x, W, dout = _random_case(20, (4, 64), 64, 96)
    got = _check(linear_backward, x, W, dout)
    for name, array in zip(NAMES, got):
        expect_finite(array, what=name)
