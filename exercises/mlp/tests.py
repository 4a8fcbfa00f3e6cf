"""Hidden tests for mlp(x, W1, b1, W2, b2) = gelu(x @ W1 + b1) @ W2 + b2.

Expected values come from the plain formula below (math.tanh on every hidden
unit, sums over Python loops), written independently of solution.py.  When a
result is wrong, the tests rebuild the results of classic mistakes (erf GELU,
ReLU, a misplaced or missing bias, ...) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import Diagnosis, call, expected_got, num

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the formula, and the classic mistakes --------------------------------------------------------

def _gelu(v):
    return 0.5 * v * (1.0 + math.tanh(_SQRT_2_OVER_PI * (v + 0.044715 * v ** 3)))


def _gelu_erf(v):
    return 0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0)))


def _relu(v):
    return max(v, 0.0)


def _gelu_sigmoid(v):
    z = 1.702 * v
    return v / (1.0 + math.exp(-z)) if z >= 0 else v * math.exp(z) / (1.0 + math.exp(z))


def _identity(v):
    return v


def _mlp(x, W1, b1, W2, b2, *, act=_gelu, b1_inside=True, use_b1=True, use_b2=True, out_act=None):
    """The MLP written with loops over rows and units; the keywords reproduce known mistakes."""
    x, W1, b1, W2, b2 = (np.asarray(a, dtype=np.float64) for a in (x, W1, b1, W2, b2))
    T, C = x.shape
    F = W1.shape[1]
    out = np.empty((T, W2.shape[1]))
    for t in range(T):
        hidden = []
        for j in range(F):
            pre = float(np.dot(x[t], W1[:, j]))
            if use_b1 and b1_inside:
                pre += float(b1[j])
            value = act(pre)
            if use_b1 and not b1_inside:
                value += float(b1[j])
            hidden.append(value)
        for c in range(W2.shape[1]):
            value = sum(hidden[j] * float(W2[j, c]) for j in range(F))
            if use_b2:
                value += float(b2[c])
            if out_act is not None:
                value = out_act(value)
            out[t, c] = value
    return out


_MISTAKES = [
    (dict(act=_gelu_erf),
     "looks like the exact erf GELU 0.5*h*(1 + erf(h/sqrt(2))); this track uses GPT-2's tanh approximation "
     "0.5*h*(1 + tanh(sqrt(2/pi)*(h + 0.044715*h**3)))"),
    (dict(act=_relu),
     "looks like ReLU max(h, 0) instead of GELU"),
    (dict(act=_gelu_sigmoid),
     "looks like the sigmoid approximation h*sigmoid(1.702*h); use the tanh approximation of GELU"),
    (dict(act=_identity),
     "looks like no activation at all: apply gelu to x @ W1 + b1 before multiplying by W2"),
    (dict(b1_inside=False),
     "looks like b1 was added after the activation, gelu(x @ W1) + b1; it goes inside: gelu(x @ W1 + b1)"),
    (dict(use_b1=False),
     "looks like b1 is missing: the hidden layer is gelu(x @ W1 + b1)"),
    (dict(use_b2=False),
     "looks like b2 is missing: the output is gelu(x @ W1 + b1) @ W2 + b2"),
    (dict(out_act=_gelu),
     "looks like gelu was applied to the output too; there is no activation after @ W2 + b2"),
    (dict(act=_relu, use_b2=False),
     "looks like ReLU instead of GELU, and b2 is missing"),
]


def _mistakes(x, W1, b1, W2, b2):
    """(result, hint) for each classic mistake on these inputs."""
    candidates = [(lambda options=options: _mlp(x, W1, b1, W2, b2, **options), hint) for options, hint in _MISTAKES]
    if W1.shape[1] == W2.shape[0] == W2.shape[1]:  # F == C: swapping W1, W2 keeps the shape
        candidates.append((lambda: _mlp(x, W2, b1, W1, b2),
                           "looks like W1 and W2 were swapped: the first layer is x @ W1, the second @ W2"))
    return candidates


# Some inputs cannot tell two mistakes apart (with x = 0, gelu(x @ W1) + b1 and no activation both
# give b1 @ W2 + b2): then every matching mistake is named.
_diagnosis = Diagnosis(_mistakes, pick="all")


# ---- calling and comparing -------------------------------------------------------------------------


def _describe(x, W1):
    return f"mlp(x, W1, b1, W2, b2) with T={x.shape[0]}, C={x.shape[1]}, F={W1.shape[1]}"


def _output(mlp, x, W1, b1, W2, b2):
    """Call the learner's function; return (float64 copy of the result, tolerance factor) after the shape check."""
    T, C = x.shape
    F = W1.shape[1]

    def shape_hint(shape):
        if shape == (T, F):
            return "that is the hidden layer's shape: multiply by W2 and add b2 to get back to width C"
        if shape == (C, T) and C != T:
            return "looks transposed: one row per token, one column per feature"
        if len(shape) == 3:
            return "a 3-D result often comes from adding a bias of the wrong shape or from np.outer; keep (T, C)"
        return ""
    got, precision, _ = call(mlp, x, W1, b1, W2, b2, what=_describe(x, W1), shape=(T, C), shape_hint=shape_hint)
    return got, precision.tolerance(float64=1e-8, float32=3e-5, float16=3e-2)  # relative to the output's scale


def _compare(got, expected, factor, args, label=""):
    """Fail at the worst entry where `got` differs from `expected`, naming the mistake when one matches."""
    x, W1 = args[0], args[1]
    scale = max(1.0, float(np.abs(expected).max()))
    atol = factor * scale
    what = _describe(x, W1) + label
    bad = ~np.isfinite(got)
    if bad.any():
        t, c = (int(k) for k in np.argwhere(bad)[0])
        fail(f"{what}: entry [{t}, {c}] should be {num(expected[t, c])}, got {num(got[t, c])} "
             f"({int(bad.sum())} non-finite value(s))", got=got, expected=expected)
    error = np.abs(got - expected)
    if error.max() > atol:
        t, c = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > atol).sum())
        fail(f"{what}: entry [{t}, {c}] {expected_got(expected[t, c], got[t, c])} "
             f"({wrong} of {error.size} entries differ){_diagnosis(got, *args, atol=atol)}", got=got, expected=expected)


def _check(mlp, args, label=""):
    got, factor = _output(mlp, *args)
    _compare(got, _mlp(*args), factor, args, label)


def _random(seed, T, C, F, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, C))
    W1 = rng.normal(scale=1.0 / math.sqrt(C), size=(C, F))
    b1 = rng.normal(scale=0.5, size=F)
    W2 = rng.normal(scale=1.0 / math.sqrt(F), size=(F, C))
    b2 = rng.normal(scale=0.5, size=C)
    return tuple(a.astype(dtype) for a in (x, W1, b1, W2, b2))


# ---- tests -----------------------------------------------------------------------------------------

def test_shape(mlp):
    """Output shape is (T, C), also when the hidden width F differs from C"""
    for seed, (T, C, F) in enumerate([(4, 8, 32), (3, 5, 7), (1, 6, 24), (5, 4, 4)]):
        _output(mlp, *_random(seed, T, C, F))


def test_hand_checked(mlp):
    """Matches the statement's hand-checked example (T=2, C=2, F=3)"""
    x = np.array([[1.0, 2.0], [0.0, 0.0]])
    W1 = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]])
    b1 = np.array([0.0, -3.0, 1.0])
    W2 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b2 = np.array([0.5, -0.5])
    args = (x, W1, b1, W2, b2)
    got, factor = _output(mlp, *args)
    # Hidden pre-activations are [1, -1, 0] and [0, -3, 1]; gelu(1) = 0.841192, gelu(-1) = -0.158808,
    # gelu(-3) = -0.003637.
    g1, gm1, gm3 = _gelu(1.0), _gelu(-1.0), _gelu(-3.0)
    expected = np.array([[g1 + 0.5, gm1 - 0.5], [g1 + 0.5, gm3 + g1 - 0.5]])
    _compare(got, expected, factor, args)


def test_gelu_tanh_form(mlp):
    """The activation is GELU's tanh approximation (not ReLU, not the erf form)"""
    # W1 = W2 = identity and zero biases: the output is gelu applied to x itself, at values where
    # the erf form differs most (|h| near 2.7) and where ReLU differs (negative h).
    values = [-2.7, -1.5, -0.5, 0.0, 0.5, 1.0, 2.7, -4.0]
    C = len(values)
    x = np.array([values, [v / 2.0 for v in values]])
    eye = np.eye(C)
    args = (x, eye, np.zeros(C), eye.copy(), np.zeros(C))
    got, factor = _output(mlp, *args)
    _compare(got, _mlp(*args), factor, args, label=" with W1 = W2 = identity and zero biases (so the result is gelu(x))")


def test_biases(mlp):
    """b1 goes inside the GELU and b2 is added to the output"""
    T, C, F = 3, 4, 6
    x, W1, b1, W2, b2 = _random(11, T, C, F)
    # x = 0: every row is gelu(b1) @ W2 + b2.
    args = (np.zeros((T, C)), W1, b1, W2, b2)
    _check(mlp, args, label=" with x = 0 (every row should be gelu(b1) @ W2 + b2)")
    # W2 = 0: every row is exactly b2.
    args = (x, W1, b1, np.zeros((F, C)), b2)
    _check(mlp, args, label=" with W2 = 0 (every row should be b2)")


def test_random(mlp):
    """Matches gelu(x @ W1 + b1) @ W2 + b2 on random inputs (T=6, C=8, F=32)"""
    _check(mlp, _random(2024, 6, 8, 32))
    # F == C, so that W1 and W2 could be swapped without a shape error.
    _check(mlp, _random(7, 5, 6, 6))


def test_rows_independent(mlp):
    """Each token (row) is transformed on its own: mlp(x)[t] == mlp(x[t:t+1])[0]"""
    args = _random(5, 5, 4, 16)
    x = args[0]
    full, factor = _output(mlp, *args)
    for t in range(x.shape[0]):
        single_args = (x[t:t + 1].copy(), *args[1:])
        single, factor_1 = _output(mlp, *single_args)
        scale = max(1.0, float(np.abs(full[t]).max()))
        if np.abs(single[0] - full[t]).max() > max(factor, factor_1) * scale:
            c = int(np.argmax(np.abs(single[0] - full[t])))
            fail(f"row {t} of the result depends on the other rows: for x of shape {x.shape}, row {t} entry {c} "
                 f"is {num(full[t, c])}, but mlp on x[{t}:{t + 1}] alone gives {num(single[0, c])}; "
                 f"the MLP treats every position separately")
    _compare(full, _mlp(*args), factor, args)


def test_float32(mlp):
    """float32 inputs give the right values (within float32 precision)"""
    _check(mlp, _random(99, 7, 16, 64, dtype=np.float32), label=" (float32 inputs)")
