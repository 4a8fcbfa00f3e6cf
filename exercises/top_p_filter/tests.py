"""Hidden tests for top_p_filter(logits, top_p), nucleus filtering.

Expected values come from a plain-Python softmax (math.exp) and a plain sort below, written
independently of solution.py.  Every top_p is chosen away from the cumulative sums where the kept
set changes (by at least 1e-3, or at a sum that is exact in binary, such as 0.5 for four equal
logits), so that any correct order of additions keeps the same ids.  Keyword arguments of
_expected rebuild the classic mistakes (the prefix stopping below top_p, > instead of >=, no
renormalisation, ascending order, ties to the higher id, top-p on the logits) so that a failure
message can name the one it matches.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import call, diagnose


# ---- the formula, in plain Python ---------------------------------------------------------------

def _softmax(values):
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def _expected(logits, top_p, *, stop="reach", renormalise="kept sum", order="descending", ties="lower id",
              cumulate="probabilities"):
    """The filtered probabilities; the keyword arguments reproduce known mistakes.

    stop: "reach" (correct: the shortest prefix whose sum is >= top_p), "exceed" (sum > top_p) or
    "below" (the longest prefix whose sum stays below top_p, at least one id).  renormalise: "kept sum"
    (correct), "none" or "top_p".  order: "descending" (correct) or "ascending".  ties: "lower id"
    (correct) or "higher id".  cumulate: "probabilities" (correct) or "logits".
    """
    values = [float(v) for v in logits]
    probs = _softmax(values)
    sign = -1.0 if order == "descending" else 1.0
    tie = 1 if ties == "lower id" else -1
    ranked = sorted(range(len(probs)), key=lambda i: (sign * probs[i], tie * i))
    summed = values if cumulate == "logits" else probs
    kept, total = [], 0.0
    for i in ranked:
        if stop == "below" and kept and total + summed[i] >= top_p:
            break
        kept.append(i)
        total += summed[i]
        if (stop == "reach" and total >= top_p) or (stop == "exceed" and total > top_p):
            break
    mass = sum(probs[i] for i in kept)
    divisor = {"kept sum": mass, "none": 1.0, "top_p": top_p}[renormalise]
    out = np.zeros(len(probs))
    for i in kept:
        out[i] = probs[i] / divisor
    return out


_MISTAKES = [
    (dict(stop="below"), "looks like the prefix stops before its sum reaches top_p: keep the id that takes the "
                         "sum to top_p or beyond too (the shortest prefix whose sum is >= top_p)"),
    (dict(stop="exceed"), "looks like the prefix goes on until its sum is > top_p; it stops as soon as the sum is "
                          ">= top_p (here the sum reaches top_p exactly)"),
    (dict(renormalise="none"), "looks like the kept probabilities were not renormalised: divide them by their sum, "
                               "so that the result sums to 1"),
    (dict(renormalise="top_p"), "looks like the kept probabilities were divided by top_p; divide them by their own "
                                "sum, which is at least top_p"),
    (dict(order="ascending"), "looks like the ids were sorted by increasing probability; the most likely come first"),
    (dict(ties="higher id"), "looks like ties were broken towards the higher id (np.argsort(p)[::-1] does that); "
                             "among equal probabilities the lower id comes first: np.argsort(-p, kind='stable')"),
    (dict(cumulate="logits"), "looks like the running sum was taken over the logits; sum the probabilities "
                              "(the softmax of the logits)"),
]


def _explain(got, logits, top_p):
    """' (hint)' naming the classic mistake(s) whose result matches `got`, or ''."""
    if len(logits) > 2000:
        return ""
    if not np.isfinite(got).all():
        if max(abs(float(v)) for v in logits) > 700:
            return (" (np.exp overflows to inf above about 709, and inf / inf is nan: use softmax from step 5, "
                    "or subtract the maximum logit before exponentiating)")
        if top_p < 1.0:
            return (" (NaN: was nothing kept? at least one id is always kept, since the prefix stops at the "
                    "first id that takes the sum to top_p or beyond)")
        return ""
    correct = _expected(logits, top_p)
    if top_p >= 1.0 and np.count_nonzero(got) < np.count_nonzero(correct):
        return (" (with top_p = 1 every id is kept: when rounding keeps the running sum just below top_p, no "
                "prefix reaches it and all ids are kept; np.argmax(cumulative >= top_p) gives 0 then)")
    return diagnose(got, [(lambda options=options: _expected(logits, top_p, **options), hint)
                          for options, hint in _MISTAKES], correct=correct, atol=1e-5, pick="all")


# ---- calling and comparing ----------------------------------------------------------------------

def _shown(logits):
    if len(logits) <= 8:
        values = ", ".join(f"{float(v):.6g}" for v in logits)
        kind = ", dtype=np.float32" if logits.dtype == np.float32 else ""
        return f"np.array([{values}]{kind})"
    kind = " float32" if logits.dtype == np.float32 else ""
    return f"logits of shape ({len(logits)},){kind}"


def _kept(top_p_filter, logits, top_p, what=None):
    """Call the learner's function; return (float64 copy, tolerance, description)."""
    V = len(logits)

    def shape_hint(shape):
        if len(shape) == 1 and shape[0] < V:
            return ("only the kept ids? return all V probabilities, with 0 for the ids that are filtered out, "
                    "in the order of the ids")
        return ""
    got, precision, what = call(top_p_filter, logits, top_p, precision=precision_of(logits), shape=(V,),
                                shape_hint=shape_hint, what=what or f"top_p_filter({_shown(logits)}, top_p={top_p:g})")
    return got, precision.tolerance(float64=1e-9, float32=2e-5, float16=1e-2), what


def _compare(got, expected, tol, what, logits, top_p, why=""):
    bad = ~np.isfinite(got)
    if bad.any():
        i = int(np.argmax(bad))
        fail(f"{what}[{i}]: expected {expected[i]:.6g}, got {got[i]} ({int(bad.sum())} non-finite value(s))"
             f"{_explain(got, logits, top_p)}", got=got, expected=expected)
    error = np.abs(got - expected)
    if error.max() > tol:
        i = int(np.argmax(error))
        wrong = int((error > tol).sum())
        kept = "kept" if expected[i] > 0 else "filtered out"
        fail(f"{what}[{i}]: expected {expected[i]:.6g} (id {i} is {kept}), got {got[i]:.6g} ({wrong} of "
             f"{error.size} entries differ){why}{_explain(got, logits, top_p)}", got=got, expected=expected)


def _check(top_p_filter, logits, top_p, what=None):
    got, tol, what = _kept(top_p_filter, logits, top_p, what)
    _compare(got, _expected(logits, top_p), tol, what, logits, top_p)
    return got


def _cumulative(logits):
    """The running sums of the probabilities, most likely first (ties: lower id first), in plain Python."""
    probs = _softmax([float(v) for v in logits])
    ranked = sorted(range(len(probs)), key=lambda i: (-probs[i], i))
    sums, total = [], 0.0
    for i in ranked:
        total += probs[i]
        sums.append(total)
    return sums


def _top_p_keeping(logits, k):
    """A top_p that keeps exactly k ids: halfway between the sums of the first k - 1 and the first k."""
    sums = [0.0] + _cumulative(logits)
    return (sums[k - 1] + sums[k]) / 2


def _random_logits(seed, V, scale=2.0, dtype=np.float64):
    return np.round(np.random.default_rng(seed).normal(size=V) * scale, 3).astype(dtype)


# ---- tests --------------------------------------------------------------------------------------

def test_shape(top_p_filter):
    """Returns V probabilities, one per id"""
    for seed, V, top_p in [(1, 5, 0.5), (2, 1, 0.9), (3, 12, 0.99)]:
        _kept(top_p_filter, _random_logits(seed, V), top_p)


def test_hand_checked(top_p_filter):
    """Matches hand-checked values: probabilities 0.15, 0.5, 0.05, 0.3"""
    # Sorted: id 1 (0.5), id 3 (0.3), id 0 (0.15), id 2 (0.05); running sums 0.5, 0.8, 0.95, 1.
    logits = np.log(np.array([0.15, 0.5, 0.05, 0.3]))
    cases = [(0.7, [0.0, 0.5 / 0.8, 0.0, 0.3 / 0.8], "ids 1 and 3 (0.5 + 0.3 = 0.8 >= 0.7), divided by 0.8"),
             (0.9, [0.15 / 0.95, 0.5 / 0.95, 0.0, 0.3 / 0.95], "ids 1, 3 and 0 (sum 0.95 >= 0.9), divided by 0.95"),
             (0.4, [0.0, 1.0, 0.0, 0.0], "id 1 alone (0.5 >= 0.4)")]
    for top_p, expected, how in cases:
        got, tol, what = _kept(top_p_filter, logits, top_p,
                               f"top_p_filter(np.log([0.15, 0.5, 0.05, 0.3]), top_p={top_p})")
        _compare(got, np.array(expected), tol, what, logits, top_p, f"; this top_p keeps {how}")


def test_sums_to_one(top_p_filter):
    """The result sums to 1, keeps the most likely ids in proportion and zeroes the rest"""
    for seed, V, k in [(10, 8, 3), (11, 20, 7), (12, 6, 1)]:
        logits = _random_logits(seed, V)
        top_p = _top_p_keeping(logits, k)
        got, tol, what = _kept(top_p_filter, logits, top_p)
        total = float(got.sum())
        if not abs(total - 1.0) <= 10 * tol:
            fail(f"{what}: the probabilities should sum to 1, got {total:.6g}{_explain(got, logits, top_p)}")
        kept = int(np.count_nonzero(got))
        if kept != k:
            fail(f"{what}: expected {k} id(s) kept, the shortest prefix of the most likely ids whose probabilities "
                 f"sum to at least top_p (the first {k} sum to {_cumulative(logits)[k - 1]:.6g}), got {kept} "
                 f"nonzero value(s){_explain(got, logits, top_p)}")
        _compare(got, _expected(logits, top_p), tol, what, logits, top_p)


def test_top_p_one(top_p_filter):
    """top_p = 1 keeps every id: the result is the softmax, even when rounding keeps the sum below 1"""
    # With these logits the running sum of float64 probabilities ends just below 1.0 for some of the
    # seeds, so no prefix reaches top_p = 1; every id is kept all the same.
    for seed in (20, 21, 22, 23, 24, 25):
        _check(top_p_filter, _random_logits(seed, 7, scale=1.0), 1.0)


def test_tiny_top_p(top_p_filter):
    """A tiny top_p keeps one id, the most likely, with probability 1"""
    _check(top_p_filter, _random_logits(30, 9), 1e-6)
    _check(top_p_filter, np.array([0.1, -0.2, 0.3, 0.0, 0.25, -0.1, 0.2, 0.05, 0.15]), 0.01)


def test_ties(top_p_filter):
    """Equal probabilities are taken in order of id, the lower id first"""
    # Probabilities [0.1470, 0.3995, 0.3995, 0.0541]: top_p = 0.3 keeps id 1, not id 2; 0.6 keeps both.
    _check(top_p_filter, np.array([1.0, 2.0, 2.0, 0.0]), 0.3)
    _check(top_p_filter, np.array([1.0, 2.0, 2.0, 0.0]), 0.6)
    # Probabilities [0.5761, 0.2119, 0.2119, 0.0]: top_p = 0.7 keeps ids 0 and 1, not 2.
    _check(top_p_filter, np.array([3.0, 2.0, 2.0, -30.0]), 0.7)
    # Five equal logits after an unlikely one: top_p = 0.5 keeps the first three of them.
    _check(top_p_filter, np.array([-3.0, 0.0, 0.0, 0.0, 0.0, 0.0]), 0.5)


def test_exact_boundary(top_p_filter):
    """A running sum exactly equal to top_p stops the prefix there (sum >= top_p)"""
    # Equal logits give probabilities 1/4 and 1/8, exact in binary: the sums are exactly 0.25, 0.5, ...
    _check(top_p_filter, np.zeros(4), 0.5)
    _check(top_p_filter, np.zeros(4), 0.25)
    _check(top_p_filter, np.full(8, 1.5), 0.75)
    _check(top_p_filter, np.zeros(4, dtype=np.float32), 0.5)


def test_float32(top_p_filter):
    """float32 logits give the right values (within float32 precision, top_p 1e-3 away from any boundary)"""
    for seed, V, k in [(40, 10, 4), (41, 50, 12)]:
        logits = _random_logits(seed, V, dtype=np.float32)
        sums = [0.0] + _cumulative(logits)
        top_p = sums[k - 1] + 2e-3 if sums[k] - sums[k - 1] > 4e-3 else _top_p_keeping(logits, k)
        if min(top_p - sums[k - 1], sums[k] - top_p) < 1e-3:
            fail(f"test error: seed {seed} puts top_p within 1e-3 of a boundary")
        _check(top_p_filter, logits, top_p)


def test_large_logits(top_p_filter):
    """Logits of magnitude 1e4 give finite, correct probabilities"""
    _check(top_p_filter, np.array([1e4, 1e4 - 1.0, -1e4, 1e4 - 0.5, 0.0]), 0.9)


def test_large(top_p_filter):
    """Larger case: V = 1000, top_p = 0.9 (a few hundred ids kept)"""
    logits = _random_logits(50, 1000, scale=1.5)
    sums = _cumulative(logits)
    k = next(i for i, total in enumerate(sums) if total >= 0.9) + 1
    _check(top_p_filter, logits, _top_p_keeping(logits, k))


def test_random(top_p_filter):
    """Matches the definition on 40 random cases, V from 2 to 12, top_p halfway between two running sums"""
    rng = np.random.default_rng(60)
    for case in range(40):
        V = int(rng.integers(2, 13))
        logits = np.round(rng.normal(size=V) * rng.choice([0.5, 2.0, 5.0]), 2)
        sums = [0.0] + _cumulative(logits)
        # k ids kept, k drawn among those at least 1e-6 apart from the previous sum (a margin any order of
        # additions keeps)
        k = int(rng.choice([k for k in range(1, V + 1) if sums[k] - sums[k - 1] > 2e-6]))
        top_p = _top_p_keeping(logits, k)
        _check(top_p_filter, logits, top_p, f"top_p_filter({_shown(logits)}, top_p={top_p:.9g}) (random case {case})")
