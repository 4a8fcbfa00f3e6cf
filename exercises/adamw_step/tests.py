"""Hidden tests for adamw_step(param, grad, m, v, t, lr, beta1, beta2, eps, weight_decay).

Expected values come from a plain-Python AdamW below (math.sqrt, one entry at a time), written
independently of solution.py, and from a two-step trace whose numbers are written out by hand.  The
tests compare the new m, the new v and the update param_new - param (not the parameter alone: a
weight-decay mistake of lr * wd = 1e-5 hides in a relative tolerance on the parameter).  When a
result is wrong, it is compared with the results of classic mistakes so the message can name one.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, call_many

DEFAULTS = dict(beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01)


# ---- the formula, in plain Python ---------------------------------------------------------------

def _adamw(param, grad, m, v, t, lr, beta1, beta2, eps, weight_decay, mistake=None):
    """(param, m, v) as flat lists, one entry at a time; `mistake` reproduces a classic one."""
    out_p, out_m, out_v, out_mh, out_vh = [], [], [], [], []
    for p, g, m0, v0 in zip(param, grad, m, v):
        if mistake == "l2":                       # L2 regularisation: decay folded into the gradient
            g = g + weight_decay * p
        m1 = beta1 * m0 + (1 - beta1) * g
        v1 = beta2 * v0 + (1 - beta2) * g * g
        step = t + 1 if mistake == "t_from_zero" else t
        m_hat, v_hat = m1 / (1 - beta1 ** step), v1 / (1 - beta2 ** step)
        if mistake == "no_correction":
            m_hat, v_hat = m1, v1
        adam = m_hat / (math.sqrt(v_hat + eps) if mistake == "eps_inside" else math.sqrt(v_hat) + eps)
        if mistake == "l2":
            new = p - lr * adam
        elif mistake == "decay_after":
            new = (p - lr * adam) * (1 - lr * weight_decay)
        elif mistake == "decay_without_lr":
            new = p * (1 - weight_decay) - lr * adam
        else:
            new = p * (1 - lr * weight_decay) - lr * adam
        out_p.append(new)
        out_m.append(m1)
        out_v.append(v1)
        out_mh.append(m_hat)
        out_vh.append(v_hat)
    if mistake == "corrected_moments":
        return out_p, out_mh, out_vh
    return out_p, out_m, out_v


_MISTAKES = [
    ("l2", "looks like L2 regularisation: weight_decay * param was added to the gradient (it then goes through "
           "m, v and the division by sqrt(v_hat)); AdamW decouples it: param * (1 - lr * weight_decay)"),
    ("t_from_zero", "looks like the bias correction counts steps from 0 (1 - beta ** (t + 1)); t is already "
                    "this step's number, 1 on the first step: use 1 - beta1 ** t and 1 - beta2 ** t"),
    ("no_correction", "looks like the bias correction is missing: divide m by 1 - beta1 ** t and v by "
                      "1 - beta2 ** t before the step"),
    ("corrected_moments", "looks like the bias-corrected m_hat and v_hat were returned; return the running "
                          "moments m and v themselves (the next step corrects them again)"),
    ("eps_inside", "looks like eps was added inside the square root (sqrt(v_hat + eps)); AdamW divides by "
                   "sqrt(v_hat) + eps"),
    ("decay_after", "looks like the decay was applied after the Adam step ((param - lr * step) * (1 - lr * wd)); "
                    "both use the old param: param * (1 - lr * weight_decay) - lr * m_hat / (sqrt(v_hat) + eps)"),
    ("decay_without_lr", "looks like the decay is param * (1 - weight_decay): it is scaled by the learning rate, "
                         "param * (1 - lr * weight_decay)"),
]


def _mistakes(case):
    """((update, m, v) stacked, hint) for each classic mistake (none on large cases)."""
    if len(case["param"]) > 500:
        return []
    return [(lambda mistake=mistake: np.stack(_expected(case, mistake)), hint) for mistake, hint in _MISTAKES]


# got = (update, m, v), stacked; a mistake is named only when it is the one explanation.
_diagnosis = Diagnosis(_mistakes, correct=lambda case: np.stack(_expected(case)), atol=1e-12, rtol=1e-4,
                       pick="unique")


def _expected(case, mistake=None):
    """(update, m, v) as float64 arrays of param's shape, from the plain formula."""
    shape = np.shape(case["param"])
    flat = [np.asarray(case[name], dtype=np.float64).ravel().tolist() for name in ("param", "grad", "m", "v")]
    settings = dict(DEFAULTS, **{k: case[k] for k in DEFAULTS if k in case})
    new, m, v = _adamw(*flat, case["t"], case["lr"], mistake=mistake, **settings)
    update = np.array(new) - np.array(flat[0])
    return tuple(np.array(a, dtype=np.float64).reshape(shape) for a in (update, m, v))


# ---- calling the learner's function -------------------------------------------------------------

def _describe(case):
    shape = np.shape(case["param"])
    kind = f"{shape}" + (" float32" if np.asarray(case["param"]).dtype == np.float32 else "")
    extras = "".join(f", {k}={case[k]}" for k in DEFAULTS if k in case)
    return f"adamw_step(param of shape {kind}, grad, m, v, t={case['t']}, lr={case['lr']}{extras})"


def _update(adamw_step, case):
    """Call the learner's function; return ((update, m, v) as float64 arrays, precision, description)."""
    arrays = {name: case[name] for name in ("param", "grad", "m", "v")}
    settings = {k: case[k] for k in DEFAULTS if k in case}
    shape = tuple(np.shape(case["param"]))
    out, precision, what = call_many(
        adamw_step, case["param"], case["grad"], case["m"], case["v"], case["t"], case["lr"], **settings,
        names=("param", "m", "v"), shapes=(shape,) * 3, precision=precision_of(*arrays.values()), what=_describe(case),
        shape_hint=lambda name, got: "was the array flattened or summed?" if np.prod(got) != np.prod(shape) else "")
    param = np.asarray(case["param"], dtype=np.float64)
    return (out[0] - param, out[1], out[2]), precision, what


def _compare(got, case, precision, what):
    """Fail at the worst entry of the update, m or v that differs from the formula."""
    want = _expected(case)
    tol = precision.tolerance(float64=1e-9, float32=2e-5, float16=2e-2)
    # Relative to each array's size; the update also carries the rounding of the new parameter.
    param = np.asarray(case["param"], dtype=np.float64)
    rounding = 4 * float(np.finfo(precision.dtype).eps) * float(np.abs(param).max())
    for name, g, w in zip(("update param_new - param", "new m", "new v"), got, want):
        atol = tol * float(np.abs(w).max()) + (rounding if name.startswith("update") else 0.0) + 1e-300
        error = np.abs(g - w)
        error[np.isnan(error)] = np.inf
        if error.size and error.max() > atol:
            index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
            wrong = int((error > atol).sum())
            shown = f"[{', '.join(str(i) for i in index)}]"
            fail(f"{what}: the {name}{shown} should be {w[index]:.10g}, got {g[index]:.10g} "
                 f"({wrong} of {error.size} entries differ){_diagnosis(np.stack(got), case)}",
                 got=g if g.ndim <= 2 else None, expected=w if w.ndim <= 2 else None)


def _check(adamw_step, case):
    got, precision, what = _update(adamw_step, case)
    _compare(got, case, precision, what)
    return got


def _random_case(seed, shape, *, t, lr, dtype=np.float64, **settings):
    rng = np.random.default_rng(seed)
    case = dict(param=rng.normal(0, 1, shape), grad=rng.normal(0, 0.5, shape), m=rng.normal(0, 0.1, shape),
                v=rng.uniform(0, 0.05, shape), t=t, lr=lr, **settings)
    for name in ("param", "grad", "m", "v"):
        case[name] = case[name].astype(dtype)
    return case


# ---- tests --------------------------------------------------------------------------------------

def test_shapes(adamw_step):
    """Returns (param, m, v): three arrays of param's shape"""
    for seed, shape in [(1, (3,)), (2, (2, 3)), (3, (2, 2, 3)), (4, (1,))]:
        _update(adamw_step, _random_case(seed, shape, t=3, lr=0.01))


def test_first_step(adamw_step):
    """First step (t = 1) from zero moments matches hand-checked values"""
    # m = 0.1 g and v = 0.001 g^2; corrected they are g and g^2, so the Adam step is g / (|g| + eps),
    # about the sign of g (0 where g = 0); the decay multiplies param by 1 - 0.1 * 0.1 = 0.99.
    case = dict(param=np.array([1.0, -2.0, 0.5, 3.0]), grad=np.array([0.1, -0.3, 0.0, 2.0]),
                m=np.zeros(4), v=np.zeros(4), t=1, lr=0.1, weight_decay=0.1)
    (update, m, v), precision, what = _update(adamw_step, case)
    hand = [("update param_new - param", update, [-0.01 - 0.1, 0.02 + 0.1, -0.005, -0.03 - 0.1]),
            ("new m", m, [0.01, -0.03, 0.0, 0.2]), ("new v", v, [1e-5, 9e-5, 0.0, 0.004])]
    for name, got, want in hand:
        for i, w in enumerate(want):
            if not abs(got[i] - w) <= 1e-7 * max(1.0, abs(w)) + (1e-8 if name.startswith("update") else 1e-14):
                fail(f"{what}: the {name}[{i}] should be {w:.6g} (by hand), got {got[i]:.10g}"
                     f"{_diagnosis(np.stack((update, m, v)), case)}")
    _compare((update, m, v), case, precision, what)


def test_two_step_trace(adamw_step):
    """Two steps match a hand-computed trace: m, v and the update of each step"""
    lr, wd = 0.05, 0.2
    param = np.array([0.5, -1.0, 2.0])
    g1, g2 = np.array([0.2, -0.1, 0.4]), np.array([-0.4, -0.3, 0.1])
    # Step 1 (t = 1): m1 = 0.1 g1, v1 = 0.001 g1^2, the corrected moments are g1 and g1^2.
    m1, v1 = [0.02, -0.01, 0.04], [4e-5, 1e-5, 1.6e-4]
    # update1 = -lr * wd * param - lr * g1 / (|g1| + eps): about [-0.005 - 0.05, 0.01 + 0.05, -0.02 - 0.05].
    update1 = [-lr * wd * p - lr * g / (abs(g) + 1e-8) for p, g in zip(param, g1)]
    # Step 2 (t = 2): m2 = 0.9 m1 + 0.1 g2, v2 = 0.999 v1 + 0.001 g2^2; corrected by 1 - 0.9^2 = 0.19
    # and 1 - 0.999^2 = 0.001999; the decay acts on the parameter after step 1.
    m2 = [0.018 - 0.04, -0.009 - 0.03, 0.036 + 0.01]
    v2 = [3.996e-5 + 1.6e-4, 9.99e-6 + 9e-5, 1.5984e-4 + 1e-5]
    param1 = [p + u for p, u in zip(param, update1)]
    update2 = [-lr * wd * p - lr * (m / 0.19) / (math.sqrt(v / 0.001999) + 1e-8)
               for p, m, v in zip(param1, m2, v2)]
    case1 = dict(param=param, grad=g1, m=np.zeros(3), v=np.zeros(3), t=1, lr=lr, weight_decay=wd)
    (u, m, v), precision, what = _update(adamw_step, case1)
    _trace_check(1, what, (u, m, v), (update1, m1, v1), case1)
    # The second step starts from what the first returned (as a training loop does), which must match the
    # trace by now; the inputs are the trace's own numbers.
    case2 = dict(param=np.array(param1), grad=g2, m=np.array(m1), v=np.array(v1), t=2, lr=lr, weight_decay=wd)
    got2, precision, what = _update(adamw_step, case2)
    _trace_check(2, what, got2, (update2, m2, v2), case2)


def _trace_check(step, what, got, want, case):
    for name, g, w in zip(("update param_new - param", "new m", "new v"), got, want):
        for i, value in enumerate(w):
            if not abs(g[i] - value) <= 1e-7 * abs(value) + 1e-12:
                fail(f"step {step} of the trace, {what}: the {name}[{i}] should be {value:.10g}, got {g[i]:.10g}"
                     f"{_diagnosis(np.stack(got), case)}")


def test_decoupled_weight_decay(adamw_step):
    """Weight decay shrinks the parameter apart from the adaptive step (decoupled, as in PyTorch's AdamW)"""
    # With a zero gradient and zero moments the Adam step is 0: only the decay moves the parameter.
    param = np.array([[1.0, -2.0, 0.25], [4.0, 0.0, -0.5]])
    case = dict(param=param, grad=np.zeros((2, 3)), m=np.zeros((2, 3)), v=np.zeros((2, 3)), t=1, lr=0.1,
                weight_decay=0.3)
    (update, m, v), precision, what = _update(adamw_step, case)
    want = -0.1 * 0.3 * param
    for index in np.ndindex(param.shape):
        if not abs(update[index] - want[index]) <= 1e-9:
            fail(f"{what} with a zero gradient and zero moments: the update param_new - param at {list(index)} "
                 f"should be -lr * weight_decay * param = {want[index]:.6g}, got {update[index]:.6g}"
                 f"{_diagnosis(np.stack((update, m, v)), case)}")
    _compare((update, m, v), case, precision, what)
    # A large lr * weight_decay tells the decay of the old parameter from a decay after the step.
    for seed in (5, 6):
        _check(adamw_step, _random_case(seed, (3, 4), t=4, lr=0.5, weight_decay=0.5))


def test_bias_correction(adamw_step):
    """Bias correction divides by 1 - beta ** t, with t the step's number (1 on the first step)"""
    for t in (1, 2, 3, 10, 1000):
        _check(adamw_step, _random_case(7, (2, 5), t=t, lr=0.01, weight_decay=0.0))


def test_eps_outside_sqrt(adamw_step):
    """eps is added to sqrt(v_hat), outside the square root"""
    # Gradients near eps: the step g / (|g| + eps) is far from g / sqrt(g^2 + eps).
    case = dict(param=np.array([0.3, -0.3, 1.0]), grad=np.array([1e-8, -3e-9, 2e-7]), m=np.zeros(3),
                v=np.zeros(3), t=1, lr=0.01)
    _check(adamw_step, case)
    _check(adamw_step, _random_case(8, (4, 3), t=2, lr=0.01, eps=1e-3))


def test_defaults_and_settings(adamw_step):
    """Uses the default beta1, beta2, eps and weight_decay, and the values passed instead"""
    _check(adamw_step, _random_case(9, (3, 3), t=5, lr=0.02))
    _check(adamw_step, _random_case(10, (3, 3), t=5, lr=0.02, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=0.1))


def test_random_cases(adamw_step):
    """Larger random cases match the formula (1-D to 3-D arrays, many steps and learning rates)"""
    cases = [(11, (64,), 1, 3e-4, 0.1), (12, (16, 24), 7, 1e-3, 0.01), (13, (4, 5, 6), 250, 6e-4, 0.0),
             (14, (8, 8), 2, 1.0, 1.0), (15, (20, 3), 30, 0.05, 0.5)]
    for seed, shape, t, lr, wd in cases:
        _check(adamw_step, _random_case(seed, shape, t=t, lr=lr, weight_decay=wd))


def test_float32(adamw_step):
    """float32 inputs: the result matches within a float32 tolerance"""
    for seed, shape, t, lr, wd in [(16, (5, 7), 1, 0.01, 0.1), (17, (30,), 12, 0.5, 0.5)]:
        _check(adamw_step, _random_case(seed, shape, t=t, lr=lr, weight_decay=wd, dtype=np.float32))
