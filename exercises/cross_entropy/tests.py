"""Hidden tests for cross_entropy(logits, targets).

Expected values come from a plain-Python log-sum-exp below (math.exp, math.log),
written independently of solution.py.  The learner's result may be a Python
float, a numpy float scalar or a 0-d array: `_call` turns it into a float after
checking its type and shape.  When a loss is wrong, the tests compare it with
the losses that classic mistakes produce so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import as_float, diagnose, expected_got, num


# ---- the formula, in plain Python ---------------------------------------------------------------

def _lse(row):
    """log(sum(exp(row))) without overflow or underflow."""
    top = max(row)
    return top + math.log(sum(math.exp(v - top) for v in row))


def _log_probs(rows):
    """Log-softmax of each row of a list of lists."""
    out = []
    for row in rows:
        s = _lse(row)
        out.append([v - s for v in row])
    return out


def _loss(rows, targets):
    """The correct loss: mean over t of lse(row t) - row t[target t]."""
    return sum(_lse(row) - row[y] for row, y in zip(rows, targets)) / len(rows)


# ---- classic mistakes ---------------------------------------------------------------------------

def _candidates(rows, targets):
    """(value, hint) for the losses that classic mistakes give on these inputs."""
    T, V = len(rows), len(rows[0])
    loss = _loss(rows, targets)
    lp = _log_probs(rows)
    out = [
        (T * loss, "looks like the sum over positions instead of the mean: divide by T"),
        (loss / math.log(2.0), "looks like log base 2 (np.log2); the loss uses the natural log np.log"),
        (loss / V, "looks like the mean over all T*V entries of one_hot * log_probs; sum over the "
                   "vocabulary and average over positions only, i.e. divide by T, not T*V"),
        (-loss, "the sign is flipped: the loss is the mean of -log p, which is never negative"),
        (-sum(lp[i][y] for i in range(T) for y in targets) / (T * T),
         "looks like log_probs[:, targets], a (T, T) matrix, was averaged; pick one entry per row "
         "with log_probs[np.arange(T), targets]"),
        (-sum(sum(r) for r in lp) / (T * V),
         "looks like the average of every log-probability, not just of the targets' ones"),
        (-sum(row[y] for row, y in zip(rows, targets)) / T,
         "looks like the raw logits were used as log-probabilities: subtract the log-sum-exp of each row"),
        (sum(_lse([rows[i][y] for i in range(T)]) - rows[t][y] for t, y in enumerate(targets)) / T,
         "looks like the softmax was taken over positions (axis 0) instead of over the vocabulary "
         "(axis 1 / axis=-1)"),
        (-sum(math.exp(lp[t][y]) for t, y in enumerate(targets)) / T,
         "looks like probabilities were averaged without the log"),
    ]
    out.append((sum(_lse(row) - row[y - 1] for row, y in zip(rows, targets)) / T,
                "looks like each position was scored at targets[t] - 1: the ids are already 0-based"))
    for eps in (1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12, 1e-15):
        out.append((-sum(math.log(math.exp(lp[t][y]) + eps) for t, y in enumerate(targets)) / T,
                    f"looks like np.log(probs + {eps:g}) or a clip at {eps:g}: the epsilon caps each "
                    f"position's loss at {-math.log(eps):.3g}; compute log_probs = logits - logsumexp(logits) "
                    f"instead, which needs no epsilon"))
    if all(0 <= y < T for y in targets) and T <= V:
        out.append((-sum(lp[y][t] for t, y in enumerate(targets)) / T,
                    "looks like the indices were swapped: log_probs[targets, np.arange(T)] instead of "
                    "log_probs[np.arange(T), targets]"))
    return out


def _explain(got, rows, targets):
    """' (hint)' naming the classic mistake that gives `got`, or ''."""
    if not math.isfinite(got):
        if max(abs(v) for row in rows for v in row) > 700:
            if got == math.inf:
                return (" (looks like np.log of a probability that underflowed to 0, or of exp(x) / inf: "
                        "do not take the log of a softmax; compute log_probs = logits - logsumexp(logits), "
                        "with the row maximum factored out of the log-sum-exp)")
            return (" (np.exp overflows to inf above about 709: factor the row maximum out of the "
                    "log-sum-exp, m + log(sum(exp(z - m))), and stay in log space)")
        return ""
    # Name a mistake only when it is the one explanation: on some inputs two mistakes coincide.
    return diagnose(got, lambda: _candidates(rows, targets), correct=lambda: _loss(rows, targets), atol=1e-4,
                    rtol=1e-4, pick="unique")


# ---- calling the learner's function -------------------------------------------------------------

def _loss_of(cross_entropy, rows, targets, *, dtype=np.float64, as_list=False):
    """Call the learner's function; return (loss as a float, relative tolerance, description)."""
    logits = np.array(rows, dtype=dtype)
    precision = precision_of(logits)
    T, V = logits.shape
    targets = [int(y) for y in targets]
    arg = targets if as_list else np.array(targets, dtype=np.int64)
    if T <= 8:
        listed = f"[{', '.join(str(y) for y in targets)}]"
        shown = f"targets={listed} (a list)" if as_list else f"targets=np.array({listed})"
    else:
        shown = f"targets: a list of {T} ids" if as_list else f"targets: an integer array of {T} ids"
    what = f"cross_entropy(logits of shape {(T, V)}{' float32' if dtype == np.float32 else ''}, {shown})"
    result = cross_entropy(logits, arg)

    def shape_hint(shape):
        if shape == (T,):
            return "looks like the per-position losses: take their mean"
        if shape == (T, V):
            return "looks like a whole (T, V) matrix: pick each row's target and average"
        return "index it or use .mean() without keepdims to get a 0-d value" if shape == (1,) else ""
    value = as_float(result, precision, what, shape_hint=shape_hint)
    return value, precision.tolerance(float64=1e-7, float32=2e-5, float16=1e-2), what


def _check(cross_entropy, rows, targets, **options):
    """Compare the learner's loss on (rows, targets) with the formula; return it."""
    got, rtol, what = _loss_of(cross_entropy, rows, targets, **options)
    if options.get("dtype") == np.float32:
        rows = [[float(v) for v in np.array(row, dtype=np.float32)] for row in rows]
    want = _loss(rows, targets)
    # Logits are only known to rtol * |logit|, and so is the loss: scale with both.
    scale = max(1.0, abs(want), max(abs(v) for row in rows for v in row))
    if not (math.isfinite(got) and abs(got - want) <= rtol * scale):
        fail(f"{what}: {expected_got(want, got)}{_explain(got, rows, targets)}")
    return got


def _random_case(seed, T, V, scale=2.0):
    rng = np.random.default_rng(seed)
    rows = [[float(v) for v in row] for row in rng.normal(0.0, scale, size=(T, V))]
    targets = [int(y) for y in rng.integers(0, V, size=T)]
    return rows, targets


# ---- tests --------------------------------------------------------------------------------------

def test_returns_a_number(cross_entropy):
    """Returns one number (a float or a 0-d array), not one loss per position"""
    for seed, T, V in [(1, 3, 4), (2, 1, 5), (3, 6, 2)]:
        rows, targets = _random_case(seed, T, V)
        _loss_of(cross_entropy, rows, targets)


def test_hand_checked(cross_entropy):
    """Matches hand-checked values (equal logits give ln V)"""
    # Worked example of the statement: (0.41703 + 0.19673) / 2.
    _check(cross_entropy, [[2.0, 1.0, 0.1], [0.5, 2.5, 0.0]], [0, 1])
    # Equal logits: the uniform distribution costs ln V at every position, whatever the targets.
    for T, V, targets in [(2, 4, [3, 0]), (3, 5, [1, 4, 2]), (1, 2, [1])]:
        got, rtol, what = _loss_of(cross_entropy, [[0.0] * V for _ in range(T)], targets)
        want = math.log(V)
        if not (math.isfinite(got) and abs(got - want) <= rtol * max(1.0, want)):
            fail(f"{what} with every logit 0: expected ln {V} = {num(want)}, got {num(got)}"
                 f"{_explain(got, [[0.0] * V for _ in range(T)], targets)}")
    # A one-row case small enough to check by hand: softmax([ln 1, ln 3]) = [1/4, 3/4].
    _check(cross_entropy, [[0.0, math.log(3.0)]], [0])


def test_mean_over_positions(cross_entropy):
    """Averages over positions: repeating the positions leaves the loss unchanged"""
    rows, targets = _random_case(4, 3, 5)
    once = _check(cross_entropy, rows, targets)
    for copies in (2, 4):
        got, rtol, what = _loss_of(cross_entropy, rows * copies, targets * copies)
        if not (math.isfinite(got) and abs(got - once) <= rtol * max(1.0, abs(once)) + 1e-9):
            hint = ""
            if abs(got - copies * once) <= 1e-6 * max(1.0, abs(copies * once)):
                hint = " (it grew with the number of positions: that is a sum, the loss is the mean over positions)"
            fail(f"{what}: the same 3 positions repeated {copies} times should give the same loss as once, "
                 f"{num(once)}, got {num(got)}{hint or _explain(got, rows * copies, targets * copies)}")


def test_each_position_own_target(cross_entropy):
    """Each position is scored at its own target (targets as a list or an integer array)"""
    # Distinct, deliberately unsorted targets, with V > T so that mixed-up indices still run.
    rows, _ = _random_case(5, 4, 7)
    targets = [5, 0, 6, 2]
    _check(cross_entropy, rows, targets)
    _check(cross_entropy, rows, targets, as_list=True)
    # Changing one target changes the loss by exactly the gap between two log-probabilities / T.
    _check(cross_entropy, rows, [5, 0, 6, 3], as_list=True)
    rows, targets = _random_case(6, 5, 3)
    _check(cross_entropy, rows, targets, as_list=True)


def test_large_logits(cross_entropy):
    """Logits of magnitude 1e4 do not overflow"""
    # Every target holds its row's maximum, so the probabilities involved are not tiny.
    _check(cross_entropy, [[1e4, 1e4 - 2.0, -1e4], [-1e4, -1e4 + 1.0, -1e4 + 3.0]], [0, 2])
    _check(cross_entropy, [[1e4, 1e4, 1e4, 1e4]], [2])


def test_confidently_wrong(cross_entropy):
    """A confidently wrong prediction gives a large but finite loss"""
    # The target's probability is e^-10000 or e^-20000, far below the smallest float: only a
    # log-softmax computed in log space gets 1e4 and 2e4 here.
    _check(cross_entropy, [[1e4, 0.0], [-1e4, 1e4]], [1, 1])
    _check(cross_entropy, [[1e4, -1e4, 5.0]], [1])
    _check(cross_entropy, [[0.0, 800.0, -800.0], [3.0, 1.0, 2.0]], [2, 0])


def test_random_cases(cross_entropy):
    """Larger random cases match the formula, in float64 and float32"""
    for seed, T, V, dtype in [(7, 16, 50, np.float64), (8, 32, 100, np.float64),
                              (9, 16, 50, np.float32), (10, 8, 300, np.float32)]:
        rows, targets = _random_case(seed, T, V, scale=4.0)
        _check(cross_entropy, rows, targets, dtype=dtype)
