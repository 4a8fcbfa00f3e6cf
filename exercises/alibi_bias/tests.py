"""Hidden tests for alibi_bias(n_heads, T).

Expected values come from a small pure-Python formula below (one entry at a
time, float('-inf') for the masked ones), written independently of
solution.py.  The -inf entries are checked exactly with np.isneginf and the
finite ones with a tolerance, separately (the generic close/finite checks do
not handle -inf).  When a result is wrong, the tests compare it with results
built from classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import call, diagnose, num

NEG_INF = float("-inf")


def _slope(h, n_heads):
    return 2.0 ** (-8.0 * (h + 1) / n_heads)


def _paper_slopes(n_heads):
    """Slopes of the ALiBi paper's code, which treats head counts that are not powers of 2 differently."""
    def power_of_2(n):
        start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
        return [start * start ** k for k in range(n)]
    if math.log2(n_heads).is_integer():
        return power_of_2(n_heads)
    closest = 2 ** int(math.floor(math.log2(n_heads)))
    return power_of_2(closest) + _paper_slopes(2 * closest)[0::2][: n_heads - closest]


def _bias(n_heads, T, *, slope=None, sign=-1.0, transpose=False, fill=NEG_INF, mask_diagonal=False,
          no_mask=False):
    """The bias from the formula; keyword arguments reproduce known mistakes.

    slope(h, n_heads): the slope of head h (correct: 2 ** (-8 (h+1) / n_heads)).
    sign: the bias below the diagonal is sign * m * (i - j) (correct: -1).
    transpose: the masked triangle is below the diagonal and the bias is above.
    fill: the value of masked entries (correct: -inf).
    mask_diagonal: the diagonal is masked too.
    no_mask: nothing is masked: -m * |i - j| everywhere.
    """
    out = []
    for h in range(n_heads):
        m = _slope(h, n_heads) if slope is None else slope(h, n_heads)
        rows = []
        for i in range(T):
            row = []
            for j in range(T):
                q, k = (j, i) if transpose else (i, j)
                if no_mask:
                    row.append(-m * abs(q - k))
                elif k > q or (mask_diagonal and k == q):
                    row.append(fill)
                else:
                    row.append(sign * m * (q - k))
            rows.append(row)
        out.append(rows)
    return np.array(out, dtype=np.float64).reshape(n_heads, T, T)


_MISTAKES = [
    (dict(slope=lambda h, n: 2.0 ** (-8.0 * h / n)),
     "looks like the slope exponent uses h instead of h + 1: head 0 got slope 2^0 = 1; "
     "the slopes are 2^(-8(h+1)/n_heads)"),
    (dict(sign=1.0),
     "looks like the sign is flipped: the entries below the diagonal are +m*(i - j) (or -m*(j - i)); "
     "they must be -m*(i - j) <= 0, so that keys farther in the past are penalised more"),
    (dict(transpose=True),
     "looks like the mask is on the wrong triangle (rows and columns swapped): row i is the query, "
     "column j the key, and the -inf entries are the future keys j > i, above the diagonal"),
    (dict(fill=0.0),
     "looks like the masked entries are 0 instead of -inf: above the diagonal (j > i) every entry is -inf"),
    (dict(mask_diagonal=True),
     "looks like the diagonal is masked too: a query may attend to its own position (j = i), where the bias is 0; "
     "mask only j > i (np.triu(..., k=1))"),
    (dict(no_mask=True),
     "looks like there is no causal mask: -m*|i - j| everywhere; the entries with j > i must be -inf"),
    (dict(slope=lambda h, n: 2.0 ** (-8.0 * (n - h) / n)),
     "looks like the slopes are in reverse order: head 0 has the largest slope 2^(-8/n_heads), "
     "the last head the smallest, 2^-8"),
    (dict(slope=lambda h, n: 2.0 ** (-(h + 1.0))),
     "looks like the slopes 1/2, 1/4, 1/8, ... of 8 heads were used; the exponent is -8(h+1)/n_heads"),
    (dict(slope=lambda h, n: 2.0 ** (-8.0 / n)),
     "looks like every head got the slope of head 0; head h has 2^(-8(h+1)/n_heads)"),
    (dict(slope=lambda h, n: 2.0 ** ((-8 * (h + 1)) // n)),
     "looks like the slope exponent was computed with integer division (-8*(h+1)//n_heads); "
     "use true division: the exponent is a fraction when n_heads does not divide 8(h+1)"),
    (dict(slope=lambda h, n: 2.0 ** -((8 * (h + 1)) // n)),
     "looks like the slope exponent was computed with integer division (8*(h+1)//n_heads); "
     "use true division: the exponent is a fraction when n_heads does not divide 8(h+1)"),
    (dict(slope=lambda h, n: _paper_slopes(n)[h]),
     "looks like the ALiBi paper's recipe for head counts that are not powers of 2; here every n_heads uses "
     "m_h = 2^(-8(h+1)/n_heads)"),
]


def _matches(got, want, atol=1e-6):
    """Same -inf/+inf/NaN pattern and finite parts within atol."""
    if got.shape != want.shape:
        return False
    finite = np.isfinite(want)
    if not np.array_equal(np.isfinite(got), finite):
        return False
    if not np.array_equal(got[~finite], want[~finite]):
        return False
    return bool(np.allclose(got[finite], want[finite], rtol=0.0, atol=atol))


def _explain(got, n_heads, T):
    """' (hint)' naming the classic mistake that reproduces `got` (on small inputs), or ''."""
    if n_heads * T * T > 4096:
        return ""
    found = diagnose(got, [(lambda options=options: _bias(n_heads, T, **options), hint) for options, hint in _MISTAKES])
    stand_in = np.where(got <= -1e4, NEG_INF, got)
    if not found and T > 1 and _matches(stand_in, _bias(n_heads, T)):
        return (" (looks like a large negative number stands in for -inf; softmax would give almost the "
                "same weights, but the bias asked for is exactly -inf: use -np.inf or float('-inf'))")
    return found


def _biases(alibi_bias, n_heads, T, *, values=True):
    """Call the learner's function; return (float64 copy, absolute tolerance) after checking the shape.

    With `values`, also fail on NaN entries (0 * inf), which no other check would explain.
    """
    def shape_hint(shape):
        if shape == (T, T):
            return "looks like a single head: stack one (T, T) matrix per head, head 0 first"
        if shape == (T, T, n_heads):
            return "looks like the head axis is last; it comes first: bias[h] is head h's (T, T) matrix"
        return "looks like only the slopes; build the whole (n_heads, T, T) bias" if shape == (n_heads,) else ""
    got, precision, what = call(alibi_bias, n_heads, T, what=f"alibi_bias({n_heads}, {T})", shape=(n_heads, T, T),
                                shape_hint=shape_hint)
    if values and np.isnan(got).any():
        h, i, j = (int(k) for k in np.argwhere(np.isnan(got))[0])
        fail(f"{what}[{h}, {i}, {j}] is NaN ({int(np.isnan(got).sum())} NaN entries); NaN usually comes from "
             f"0 * inf or inf - inf, e.g. multiplying a 0/1 mask by -inf. Build the mask with np.where or by "
             f"assigning -np.inf to the masked entries")
    # Entries reach (T - 1) * m_h; float32 (or float32 slopes) are good to about 1e-7 of that,
    # so float64 results also get a floor of 1e-6 per unit of distance.
    return got, max(precision.tolerance(), 1e-6) * max(1.0, T - 1.0)


def _check_mask(got, n_heads, T):
    """Fail unless every entry above the diagonal is exactly -inf and every other entry is finite."""
    what = f"alibi_bias({n_heads}, {T})"
    i, j = np.indices((T, T))
    future = np.broadcast_to(j > i, got.shape)
    not_masked = future & ~np.isneginf(got)
    if not_masked.any():
        h, r, c = (int(k) for k in np.argwhere(not_masked)[0])
        value = got[h, r, c]
        hint = _explain(got, n_heads, T)
        fail(f"{what}[{h}, {r}, {c}] (key j={c} after query i={r}): expected -inf, got {num(value)} "
             f"({int(not_masked.sum())} of {int(future.sum())} entries above the diagonal are not -inf){hint}")
    wrong = ~future & ~np.isfinite(got)
    if wrong.any():
        h, r, c = (int(k) for k in np.argwhere(wrong)[0])
        fail(f"{what}[{h}, {r}, {c}] (key j={c}, query i={r}, j <= i): expected the finite value "
             f"{num(_bias(n_heads, T)[h, r, c])}, got {num(got[h, r, c])} ({int(wrong.sum())} entries on or "
             f"below the diagonal are not finite){_explain(got, n_heads, T)}")


def _compare(got, n_heads, T, atol):
    """Fail at the first wrong -inf entry or at the worst finite entry."""
    _check_mask(got, n_heads, T)
    expected = _bias(n_heads, T)
    finite = np.isfinite(expected)
    error = np.zeros(got.shape)
    error[finite] = np.abs(got[finite] - expected[finite])
    if error.max() > atol:
        h, i, j = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > atol).sum())
        fail(f"alibi_bias({n_heads}, {T})[{h}, {i}, {j}]: expected -m_{h} * ({i} - {j}) = {num(expected[h, i, j])}, "
             f"got {num(got[h, i, j])} ({wrong} of {int(finite.sum())} finite entries differ)"
             f"{_explain(got, n_heads, T)}")


def test_shape(alibi_bias):
    """Output shape is (n_heads, T, T)"""
    for n_heads, T in [(8, 5), (1, 1), (3, 4), (2, 1), (4, 7)]:
        _biases(alibi_bias, n_heads, T, values=False)


def test_future_is_masked(alibi_bias):
    """Entries with j > i (future keys) are exactly -inf, all others finite"""
    for n_heads, T in [(2, 4), (3, 5), (1, 2)]:
        got, _ = _biases(alibi_bias, n_heads, T)
        _check_mask(got, n_heads, T)


def test_diagonal_is_zero(alibi_bias):
    """The diagonal is 0: no penalty for attending to one's own position"""
    for n_heads, T in [(4, 5), (1, 3)]:
        got, atol = _biases(alibi_bias, n_heads, T)
        diagonal = got[:, np.arange(T), np.arange(T)]
        bad = ~(np.abs(diagonal) <= atol)
        if bad.any():
            h, i = (int(k) for k in np.argwhere(bad)[0])
            fail(f"alibi_bias({n_heads}, {T})[{h}, {i}, {i}]: expected 0 (distance i - j = 0), "
                 f"got {num(diagonal[h, i])} ({int(bad.sum())} of {diagonal.size} diagonal entries differ)"
                 f"{_explain(got, n_heads, T)}")


def test_slopes(alibi_bias):
    """Head h has slope m_h = 2^(-8(h+1)/n_heads): a geometric sequence from 2^(-8/n_heads)"""
    for n_heads in (8, 4, 6, 1, 16):
        T = 3
        got, atol = _biases(alibi_bias, n_heads, T)
        for h in range(n_heads):
            want = _slope(h, n_heads)
            value = got[h, 1, 0]
            if not abs(-value - want) <= atol:
                fail(f"alibi_bias({n_heads}, {T})[{h}, 1, 0] = -m_{h} * (1 - 0): expected -2^(-8*{h + 1}/{n_heads}) "
                     f"= {num(-want)}, got {num(value)}; for {n_heads} head(s) the slopes are "
                     f"{', '.join(num(_slope(k, n_heads)) for k in range(min(n_heads, 4)))}"
                     f"{', ...' if n_heads > 4 else ''}, each 2^(-8/{n_heads}) = {num(_slope(0, n_heads))} "
                     f"times the previous one{_explain(got, n_heads, T)}")


def test_hand_checked_entries(alibi_bias):
    """Matches the formula at hand-checked entries (2 heads, T = 4)"""
    # Two heads: m_0 = 2^(-8/2) = 1/16 and m_1 = 2^(-16/2) = 1/256.
    n_heads, T = 2, 4
    got, atol = _biases(alibi_bias, n_heads, T)
    entries = [
        (0, 1, 0, "-(1/16) * (1 - 0)", -0.0625),
        (0, 3, 0, "-(1/16) * (3 - 0)", -0.1875),
        (0, 3, 2, "-(1/16) * (3 - 2)", -0.0625),
        (1, 2, 1, "-(1/256) * (2 - 1)", -0.00390625),
        (1, 3, 0, "-(1/256) * (3 - 0)", -0.01171875),
        (1, 2, 2, "-(1/256) * (2 - 2)", 0.0),
        (0, 0, 3, "key 3 is after query 0", NEG_INF),
        (1, 1, 2, "key 2 is after query 1", NEG_INF),
    ]
    for h, i, j, formula, want in entries:
        value = got[h, i, j]
        if math.isinf(want):
            ok, expected = bool(np.isneginf(value)), f"-inf ({formula})"
        else:
            ok, expected = abs(value - want) <= atol, f"{formula} = {num(want)}"
        if not ok:
            fail(f"alibi_bias({n_heads}, {T})[{h}, {i}, {j}]: expected {expected}, got {num(value)}"
                 f"{_explain(got, n_heads, T)}")
    _compare(got, n_heads, T, atol)


def test_linear_in_distance(alibi_bias):
    """Within a head the bias depends only on the distance i - j, linearly"""
    n_heads, T = 3, 6
    got, atol = _biases(alibi_bias, n_heads, T)
    for h in range(n_heads):
        step = got[h, 1, 0]
        if not np.isfinite(step):
            fail(f"alibi_bias({n_heads}, {T})[{h}, 1, 0] (key 0, one position before query 1): expected the "
                 f"finite bias -m_{h}, got {num(step)}{_explain(got, n_heads, T)}")
        for i in range(T):
            for j in range(i + 1):
                want = (i - j) * step
                if not abs(got[h, i, j] - want) <= atol:
                    fail(f"alibi_bias({n_heads}, {T})[{h}, {i}, {j}]: expected (i - j) times the bias at "
                         f"distance 1, {i - j} * {num(step)} = {num(want)}, got {num(got[h, i, j])}; "
                         f"the penalty grows linearly with the distance{_explain(got, n_heads, T)}")


def test_larger_cases(alibi_bias):
    """Larger cases: 12 heads (not a power of 2) with T = 16, one head, 16 heads"""
    for n_heads, T in [(12, 16), (1, 9), (16, 5)]:
        got, atol = _biases(alibi_bias, n_heads, T)
        _compare(got, n_heads, T, atol)
