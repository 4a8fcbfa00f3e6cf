"""Shared helpers for hidden tests (AUTHORING.md, section 4.8): import them instead of copying helpers.

    from grader.core.testkit import call, compare, diagnose, expect_gradient, expect_frequencies, num_pair

- `num`, `num_pair`, `expected_got`: numbers for messages; a pair shows the digits that differ
  ("expected -0.5, got -0.49999994").
- `call`, `call_many`: call the learner's function and get its result as checked float64 arrays (not None,
  an ndarray, precise enough, the right shape, with a hint for a telling wrong shape).
- `call_flat`: `call` for a result returned flattened from its natural shape (the primitives track's convention).
- `checked_array`: the same checks on a result already in hand.
- `items`, `as_dict`, `as_float`, `as_int`, `as_int_list`: other results (tuples, dicts, numbers, ids),
  type-checked with hints; `python_ints` refuses numpy integers where Python ints are asked, saying whether
  the values are right.
- `compare`: fail at the worst entry, naming the classic mistake the result matches (`diagnose`).
- `expect_distinct_rows`: fail naming the two closest rows of a table that should give each position its own.
- `diagnose`: " (looks like ...)" for the first (or closest, or only) mistake that reproduces a result;
  `Diagnosis` binds an exercise's mistakes once, for tests that diagnose in many places.
- `numeric_gradient`, `expect_gradient`: central differences, entry by entry.
- `binomial_range`, `expect_count`, `expect_frequencies`: counts of random results, checked with a stated
  probability of failing a correct solution.
- `normal_cdf`, `uniform_cdf`, `truncated_normal_cdf`, `ks_distance`, `ks_threshold`, `expect_distribution`:
  draws against an exact CDF (Kolmogorov-Smirnov, threshold from the DKW inequality).
- `normal_moments_range`, `bounded_moments_range`, `expect_moments`: mean and variance with stated bounds.
- `expect_seeded`: same seed, same result; different seeds, different results.
- `expect_value_error`: a ValueError naming the invalid value.
- `compare_up_to_sign` (`align_signs`): each column or row may come with either sign (PCA, eigenvectors, SVD);
  `compare_up_to_order` (`align_rows`): rows in any order (centroids); `expect_same_partition`: cluster labels
  up to renaming.  The mistakes' results are aligned the same way before they are diagnosed.

Like checks.py, nothing here calls a method of the learner's result: it is looked at through `as_array` copies.
"""

import collections
import math

import numpy as np

from grader.core.checks import as_array, fail, precision_of, type_got, type_name
from grader.core.numbers import expected_got, num, num_pair

__all__ = ["Called", "Diagnosis", "as_dict", "as_float", "as_int", "as_int_list", "binomial_range", "call", "call_flat",
           "call_many", "checked_array", "compare", "diagnose", "expect_count", "expect_distinct_rows",
           "expect_frequencies", "expect_gradient", "expected_got", "items", "num", "num_pair", "numeric_gradient",
           "python_ints", "normal_cdf", "uniform_cdf", "truncated_normal_cdf", "truncated_normal_moments",
           "ks_distance", "ks_threshold", "expect_distribution", "normal_moments_range", "bounded_moments_range",
           "expect_moments", "expect_seeded", "expect_value_error",
           "align_rows", "align_signs", "compare_up_to_order", "compare_up_to_sign", "expect_same_partition"]

FALSE_FAILURE = 1e-6  # default chance that a statistical check fails a correct solution
DIAGNOSIS_POINTS = 4000  # order statistics expect_distribution looks at to name a mistake


# ---- calling the learner's function ---------------------------------------------------------------

Called = collections.namedtuple("Called", "value precision what")


def call(entry, *args, what=None, shape=None, shape_hint=None, precision=None, **kwargs):
    """`entry(*args, **kwargs)` as a float64 array copy: Called(value, precision, what).

    Fails when the result is None (with "did you forget to return the result?"), not a floating-point
    ndarray as precise as the inputs (`as_array`), or not of `shape` (when given); `shape_hint(got_shape)`
    may return a few words on what the wrong shape suggests, added to that message.  `precision` defaults
    to `precision_of` the arguments; `what` (how messages name the call) to "name(...)".
    """
    what = what or f"{_name(entry)}(...)"
    precision = precision or precision_of(*args, *kwargs.values())
    result = entry(*args, **kwargs)
    value = checked_array(result, precision, what=what, shape=shape, shape_hint=shape_hint)
    return Called(value, precision, what)


def call_flat(entry, *args, shape, what=None, precision=None, **kwargs):
    """`call` for functions that return their natural `shape` flattened (`.reshape(-1)`): the result must
    have shape (prod(shape),), and one of the natural shape (or its transpose) is told to flatten it."""
    shape = tuple(int(n) for n in shape)

    def hint(got):
        if got in (shape, shape[::-1]) and len(shape) > 1:
            return f"that is the {' x '.join(map(str, got))} array itself: return it flattened, .reshape(-1)"
        return ""
    return call(entry, *args, what=what, shape=(math.prod(shape),), shape_hint=hint, precision=precision, **kwargs)


def call_many(entry, *args, names, shapes=None, what=None, shape_hint=None, precision=None, **kwargs):
    """`entry(*args, **kwargs)` returning a tuple of arrays named `names`: Called([arrays], precision, what).

    Each array is checked as `call` checks one, its message naming it ("dW of linear_backward(...)");
    `shapes` lists the shapes in the same order and `shape_hint(name, got_shape)` the hints.
    """
    what = what or f"{_name(entry)}(...)"
    precision = precision or precision_of(*args, *kwargs.values())
    result = items(entry(*args, **kwargs), what, names=names)
    values = []
    for index, (name, item) in enumerate(zip(names, result)):
        shape = None if shapes is None else shapes[index]
        hint = None if shape_hint is None else (lambda got, name=name: shape_hint(name, got))
        values.append(checked_array(item, precision, what=f"{name} of {what}", shape=shape, shape_hint=hint))
    return Called(values, precision, what)


def checked_array(result, precision, *, what="your function's result", shape=None, shape_hint=None):
    """A result the learner returned, checked as `call` checks it, as a float64 array copy."""
    shown = "an array" if shape is None else f"an array of shape {tuple(shape)}"
    if result is None:
        fail(f"{what}: expected {shown}, got None (did you forget to return the result?)")
    value = as_array(result, precision, what=what)
    if shape is not None and tuple(value.shape) != tuple(shape):
        hint = shape_hint(tuple(value.shape)) if shape_hint is not None else ""
        fail(f"{what}: expected shape {tuple(shape)}, got {tuple(value.shape)}{f' ({hint})' if hint else ''}")
    return value


def items(value, what, *, names=None):
    """The items of a tuple or list the learner returned (as a tuple), read without calling its methods;
    fails when `value` is neither, or (with `names`) does not hold one item per name."""
    wanted = "a tuple" if names is None else f"a tuple of {len(names)} values ({', '.join(names)})"
    if issubclass(type(value), tuple):
        found = tuple(tuple.__iter__(value))
    elif issubclass(type(value), list):
        found = tuple(list.__iter__(value))
    else:
        fail(f"{what}: expected {wanted}, got {type_got(value)}")
    if names is not None and len(found) != len(names):
        fail(f"{what}: expected {wanted}, got {len(found)} value(s)")
    return found


def as_dict(value, keys, what, *, keys_named=None, others=False):
    """A dict the learner returned with exactly `keys` (strings; with `others`, at least these), as a plain
    dict of them; fails naming the keys missing and unexpected.  `keys_named` says which keys in words
    ("the twelve keys of p")."""
    keys_named = keys_named or "the keys " + ", ".join(repr(key) for key in keys)
    if type(value) is not dict:
        fail(f"{what} should be a dict with {keys_named}, got {type_got(value)}")
    names = list(dict.__iter__(value))
    odd = [name for name in names if type(name) is not str]
    if odd:
        fail(f"{what}: its keys should be strings, {keys_named}, got a key of type {type_name(odd[0])}")
    missing = [key for key in keys if key not in names]
    extra = [] if others else [name for name in names if name not in keys]
    if missing or extra:
        fail(f"{what} should have {'' if others else 'exactly '}{keys_named}"
             + (f"; missing {', '.join(repr(key) for key in missing)}" if missing else "")
             + (f"; unexpected {', '.join(repr(name) for name in extra)}" if extra else ""))
    return {key: dict.__getitem__(value, key) for key in keys}


def as_float(value, precision, what, *, shape_hint=None):
    """A real number the learner returned (a Python or numpy float, or a 0-d float array) as a Python float,
    at least as precise as `precision`; `shape_hint(shape)` says what an array in its place suggests."""
    kind = type(value)
    if issubclass(kind, float):                   # np.float64 too
        return float.__float__(value)
    if issubclass(kind, (np.ndarray, np.generic)):
        array = np.array(value, copy=True, subok=False)
        if array.dtype.kind != "f":
            hint = " (an int() or integer dtype somewhere?)" if array.dtype.kind in "iu" else ""
            fail(f"{what} should be a floating-point number, got a numpy {array.dtype} value{hint}")
        if array.shape != ():
            hint = shape_hint(tuple(array.shape)) if shape_hint is not None else ""
            fail(f"{what} should be a single number (a float or a 0-d array), got an array of shape "
                 f"{array.shape}{f' ({hint})' if hint else ''}")
        return float(as_array(array, precision, what=what))
    hint = ""
    if issubclass(kind, int) and not issubclass(kind, bool):
        hint = " (return a float: float(...) converts it)"
    elif issubclass(kind, (list, tuple)):
        hint = " (return the number itself, not a container holding it)"
    fail(f"{what} should be a floating-point number, got {type_got(value)}{hint}")


def as_int(value, what, *, of="an id"):
    """A Python int or numpy integer the learner returned, as a Python int (a bool is refused)."""
    kind = type(value)
    if issubclass(kind, (bool, np.bool_)):
        fail(f"{what} should be {of} (an int), got a bool")
    if issubclass(kind, int):
        return int.__index__(value)
    if issubclass(kind, np.integer):
        return int(np.array(value, copy=True, subok=False))
    hint = ""
    if issubclass(kind, np.ndarray):
        hint = " (return one number, not an array; int(...) converts it)"
    elif issubclass(kind, (float, np.floating)):
        hint = " (an integer is expected, not a float)"
    fail(f"{what} should be {of} (an int), got {type_got(value)}{hint}")


def as_int_list(value, what, *, item_hint=None, expected=None):
    """A Python list of Python ints the learner returned (`what` names it: "the result of f(x)"), failing with
    a hint on a numpy array, a tuple, or an item that is not a Python int; `item_hint(item)` may add a few
    words on such an item.  With `expected` (see `python_ints`) a list of numpy integers is told whether its
    values are right."""
    if type(value) is not list:
        hint = ""
        if issubclass(type(value), np.ndarray):
            hint = " (a numpy array: return a Python list, e.g. with .tolist())"
        elif type(value) is tuple:
            hint = " (return a list, not a tuple)"
        fail(f"{what} should be a Python list of ints, got {type_got(value)}{hint}")
    found = list(list.__iter__(value))
    if expected is not None:
        python_ints(found, what, expected=expected)
    for position, entry in enumerate(found):
        if type(entry) is not int:
            hint = item_hint(entry) if item_hint is not None else ""
            if issubclass(type(entry), np.integer):
                hint = "a numpy integer: convert it with int(...), or use .tolist() on a numpy array"
            fail(f"{what}[{position}] should be a Python int, got {type_name(entry)}{f' ({hint})' if hint else ''}")
    return found


def python_ints(value, what, *, expected):
    """Fail when `value` (lists, tuples and dicts of them, read without calling the learner's methods) holds a
    numpy integer where Python ints are asked, saying where, and whether the values are right all the same
    (compared with `expected`, a plain value or a function giving it).  Returns None otherwise."""
    found = _numpy_int(value, "")
    if found is None:
        return
    where, item = found
    kind = f"numpy.{type_name(item)}"
    if _plain(value) == _plain(expected() if callable(expected) else expected):  # lists and tuples alike
        fail(f"{what}: the values are right, but they are {kind}, not int (the first at {_what_at(where)}): "
             f"convert with int(), or .tolist() for a whole array")
    fail(f"{what}: {_what_at(where)} is a {kind}, not an int (convert with int(), or .tolist() for a whole "
         f"array), and the values are not right either")


def _what_at(where):
    return f"item {where}" if where else "the result"


def _numpy_int(value, where):
    """(where, item) of the first numpy integer in `value`, or None."""
    if issubclass(type(value), np.integer):
        return where, value
    for key, item in _children(value):
        found = _numpy_int(item, f"{where}[{key!r}]")
        if found is not None:
            return found
    return None


def _children(value):
    kind = type(value)
    if issubclass(kind, (list, tuple)):
        return list(enumerate((list if issubclass(kind, list) else tuple).__iter__(value)))
    if issubclass(kind, dict):
        return [(key, dict.__getitem__(value, key)) for key in dict.__iter__(value)]
    return []


def _plain(value):
    """`value` rebuilt of plain lists (for lists and tuples) and dicts, its numpy integers as Python ints."""
    kind = type(value)
    if issubclass(kind, np.integer):
        return int(np.array(value, copy=True, subok=False))
    if issubclass(kind, (list, tuple, dict)):
        children = [(key, _plain(item)) for key, item in _children(value)]
        if issubclass(kind, dict):
            return dict(children)
        return [item for _, item in children]
    return value


def _name(entry):
    name = getattr(entry, "__name__", None)  # the engine's wrapper, named like the entry: no learner code runs
    return name if type(name) is str else "your function"


# ---- naming the mistake ---------------------------------------------------------------------------

def diagnose(got, mistakes, *, correct=None, atol=1e-6, rtol=0.0, pick="first", agree=None):
    """" (hint)" for the mistake whose result `got` matches, or "" when none does (never raises).

    `mistakes` is a list of (result, hint), or a function returning one, so that nothing is computed
    unless a test fails; a result may also be a function of no arguments, called only when reached.
    A mistake that gives the `correct` result (when given: a result, or a function of no arguments
    returning it) explains nothing and is skipped, and so is one whose result cannot be computed or has
    another shape.  Results are arrays (or nested lists of numbers) compared with np.allclose at atol and
    rtol, or anything `agree(a, b)` (True when two results are the same) compares.  `pick`: the "first"
    match, the "closest" match, the match only when every matching mistake has the same hint ("unique"),
    or "all" of them (inputs that cannot tell mistakes apart then name each).
    """
    def same(a, b):
        if agree is not None:
            return bool(agree(a, b))
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))

    def distance(wrong):  # how far `got` is from a matching result, to pick the closest
        if agree is not None:
            return 0.0
        error = np.nan_to_num(np.abs(got - wrong), nan=0.0)
        return float(error.max()) if error.size else 0.0

    as_result = (lambda value: value) if agree is not None else _as_float_array
    try:
        with np.errstate(all="ignore"):
            got = as_result(got)
            correct = _evaluate(correct, as_result) if correct is not None else None
            found = []  # (distance, hint)
            for candidate, hint in (mistakes() if callable(mistakes) else mistakes):
                wrong = _evaluate(candidate, as_result)
                if wrong is None or (correct is not None and same(wrong, correct)) or not same(got, wrong):
                    continue
                if pick == "first":
                    return f" ({hint})"
                found.append((distance(wrong), hint))
    except Exception:  # a guess must never break the test
        return ""
    hints = list(dict.fromkeys(hint for _, hint in found))
    if pick == "unique":
        return f" ({hints[0]})" if len(hints) == 1 else ""
    if pick == "all" and len(hints) > 1:
        return " (these inputs match more than one classic mistake: " + "; or ".join(hints) + ")"
    return f" ({min(found, key=lambda f: f[0])[1]})" if found else ""


class Diagnosis:
    """An exercise's classic mistakes, bound once, to name the one a wrong result matches:

        _diagnosis = Diagnosis(_mistakes, correct=_expected, pick="unique")
        ...
        fail(f"... {_diagnosis(got, y, dout, axis, atol=tol)}")

    `mistakes(*inputs)` returns [(result, hint)] and `correct(*inputs)` the right result; they are called
    only when a diagnosis is asked for.  Calling the Diagnosis is `diagnose` on them (atol, rtol and pick
    default to those given here).
    """

    def __init__(self, mistakes, *, correct=None, atol=1e-6, rtol=0.0, pick="first", agree=None):
        self.mistakes, self.correct, self.agree = mistakes, correct, agree
        self.atol, self.rtol, self.pick = atol, rtol, pick

    def __call__(self, got, *inputs, atol=None, rtol=None):
        correct = None if self.correct is None else (lambda: self.correct(*inputs))
        return diagnose(got, lambda: self.mistakes(*inputs), correct=correct,
                        atol=self.atol if atol is None else atol, rtol=self.rtol if rtol is None else rtol,
                        pick=self.pick, agree=self.agree)


def _evaluate(candidate, as_result):
    """A mistake's result (computed when it is a function), or None when it cannot be computed."""
    try:
        return as_result(candidate() if callable(candidate) else candidate)
    except Exception:
        return None


def _as_float_array(value):
    return np.asarray(value, dtype=np.float64)


def compare(got, expected, *, atol, rtol=0.0, what="your function's result", mistakes=(), mistakes_atol=None,
            pick="first"):
    """Fail at the worst entry where `got` (from `call`) differs from `expected` by more than atol + rtol * |expected|.

    The message names the entry, both values (`num_pair`), how many entries differ and, through
    `diagnose(got, mistakes, correct=expected, atol=mistakes_atol)`, the mistake the result matches
    (mistakes_atol defaults to max(10 * atol, 1e-8)).  A NaN or inf counts as the worst difference.
    The failure carries both arrays, so the page draws them.
    """
    expected = np.asarray(expected, dtype=np.float64)
    if tuple(got.shape) != tuple(expected.shape):
        fail(f"{what}: expected shape {tuple(expected.shape)}, got {tuple(got.shape)}", got=got, expected=expected)
    with np.errstate(invalid="ignore"):
        error = np.abs(got - expected) - (atol + rtol * np.abs(expected))
    error[~np.isfinite(got)] = np.inf
    if not error.size or error.max() <= 0:
        return
    index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
    want, have = num_pair(expected[index], got[index])
    where = f", entry {list(index)}" if index else ""
    diagnosis = diagnose(got, mistakes, correct=expected, atol=max(10 * atol, 1e-8) if mistakes_atol is None
                         else mistakes_atol, pick=pick) if mistakes else ""
    fail(f"{what}{where}: expected {want}, got {have} ({int((error > 0).sum())} of {error.size} entries differ)"
         f"{diagnosis}", got=got, expected=expected)


def expect_distinct_rows(table, *, min_distance, what, row_name=lambda index: f"row {index}", expected=None):
    """Fail naming the two closest rows of the 2-D `table` (from `call`) when they are less than `min_distance`
    apart (Euclidean): position tables give every position its own row.  `row_name(index)` names a row in the
    message ("t = 3", "patch (1, 2)"); `expected` is drawn beside the table."""
    distance = np.sqrt(((table[:, None, :] - table[None, :, :]) ** 2).sum(axis=2))
    distance[np.arange(len(table)), np.arange(len(table))] = np.inf
    a, b = sorted(int(k) for k in np.unravel_index(int(np.argmin(distance)), distance.shape))
    if not distance[a, b] >= min_distance:
        same = " (every row is the same)" if np.ptp(table, axis=0).max() <= 1e-12 else ""
        fail(f"{what}: {row_name(a)} and {row_name(b)} are almost the same, expected rows at least "
             f"{num(min_distance)} apart, got distance {num(distance[a, b])}{same}", got=table, expected=expected)


# ---- gradients --------------------------------------------------------------------------------------

def numeric_gradient(loss, array, *, h=1e-5):
    """d loss / d array by central differences: (loss(a + h e_i) - loss(a - h e_i)) / 2h for every entry i.

    `loss` takes an array shaped like `array` (a float64 copy, moved at one entry) and returns a number.
    """
    base = np.array(array, dtype=np.float64)
    gradient = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        moved = base.copy()
        moved[index] += h
        plus = float(loss(moved))
        moved[index] = base[index] - h
        gradient[index] = (plus - float(loss(moved))) / (2 * h)
    return gradient


def expect_gradient(got, loss, array, *, h=1e-5, atol=1e-7, rtol=1e-7, what="the gradient", mistakes=()):
    """Fail at the first entry of `got` that is not d loss / d array by central differences (`numeric_gradient`)
    to within atol + rtol * |numeric|, saying at what rate the loss moves there and naming the mistake
    `got` matches (`diagnose`, at 10 * atol)."""
    numeric = numeric_gradient(loss, array, h=h)
    if tuple(got.shape) != tuple(numeric.shape):
        fail(f"{what}: expected shape {tuple(numeric.shape)}, got {tuple(got.shape)}")
    for index in np.ndindex(numeric.shape):
        if not abs(got[index] - numeric[index]) <= atol + rtol * abs(numeric[index]):
            rate, says = num_pair(numeric[index], got[index])
            where = f", entry {list(index)}" if index else ""
            fail(f"{what}{where}: the loss changes at rate {rate} when that entry moves (central difference, "
                 f"h = {h:g}), but the gradient says {says}"
                 f"{diagnose(got, mistakes, correct=numeric, atol=10 * atol) if mistakes else ''}",
                 got=got, expected=numeric)


# ---- random results -------------------------------------------------------------------------------

def binomial_range(n, p, false_failure=FALSE_FAILURE):
    """(low, high): a Binomial(n, p) count lies outside [low, high] with probability at most `false_failure`
    (each tail at most half of it; exact, from the binomial probabilities)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"binomial_range: p = {p} is not a probability")
    if p in (0.0, 1.0):
        return (0, 0) if p == 0.0 else (n, n)
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    pmf = [math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
           for k in range(n + 1)]
    return _tail_end(pmf, range(n + 1), false_failure / 2), _tail_end(pmf, range(n, -1, -1), false_failure / 2)


def _tail_end(pmf, order, budget):
    """The first count, along `order`, past the longest run of counts whose probabilities add up to `budget`."""
    total = 0.0
    for k in order:
        total += pmf[k]
        if total > budget:
            return k
    return k


def expect_count(count, n, p, *, false_failure=FALSE_FAILURE, what="the count"):
    """Fail when `count` of `n` independent draws, each a hit with probability `p`, is not in `binomial_range`."""
    low, high = binomial_range(n, p, false_failure)
    if not low <= count <= high:
        fail(f"{what}: {count} of {n} ({count / n:.3f}), expected between {low} and {high} for a probability of "
             f"{num(p)} (a correct solution lands outside this range with probability below {false_failure:g})")


def expect_frequencies(counts, p, *, false_failure=FALSE_FAILURE, what="the draws", label="outcome"):
    """Fail when the counts of the outcomes of n draws (counts[j] for outcome j, of probability p[j]) do not
    fit the probabilities: each count must lie in its `binomial_range` at false_failure / len(p), so that a
    correct solution fails with probability at most `false_failure` in all."""
    counts, p = [int(c) for c in counts], [float(v) for v in p]
    n = sum(counts)
    impossible = [j for j, (c, pj) in enumerate(zip(counts, p)) if pj == 0.0 and c > 0]
    if impossible:  # the most telling failure: checked first
        j = impossible[0]
        fail(f"{what}: {label} {j} came {counts[j]} times in {n} draws, but its probability is 0 "
             f"(p = {_list(p)}, counts = {counts})")
    for j, (c, pj) in enumerate(zip(counts, p)):
        low, high = binomial_range(n, pj, false_failure / len(p))
        if not low <= c <= high:
            fail(f"{what}: {label} {j} came {c} times in {n} draws ({c / n:.3f}), expected between {low} and "
                 f"{high} for its probability p[{j}] = {pj:.3f} (p = {_list(p)}, counts = {counts}; a correct "
                 f"solution fails this check with probability below {false_failure:g})")


def _list(values):
    return "[" + ", ".join(num(round(v, 3)) for v in values) + "]"


# ---- random results: distributions and moments ----------------------------------------------------
# Each check fails a correct solution with probability at most `false_failure`, from a bound that holds for
# every sample size (no asymptotics): DKW for the Kolmogorov-Smirnov distance, Chernoff's bound for the
# mean of normal draws, Laurent and Massart's for their variance, Hoeffding's for bounded draws.

def normal_cdf(x, mean=0.0, std=1.0):
    """P(X <= x) for X ~ N(mean, std²), entry by entry (math.erfc, accurate in the far tails too)."""
    values = (np.asarray(x, dtype=np.float64) - mean) / (std * math.sqrt(2.0))
    return np.array([0.5 * math.erfc(-v) for v in values.reshape(-1).tolist()]).reshape(values.shape)


def uniform_cdf(x, low, high):
    """P(X <= x) for X ~ U(low, high)."""
    return np.clip((np.asarray(x, dtype=np.float64) - low) / (high - low), 0.0, 1.0)


def truncated_normal_cdf(x, lower, upper, std=1.0):
    """P(X <= x) for X = std * Z, Z a standard normal truncated to [lower, upper] (bounds in standard units)."""
    low, high = (float(v) for v in normal_cdf(np.array([lower, upper])))
    inside = np.clip(np.asarray(x, dtype=np.float64) / std, lower, upper)
    return np.clip((normal_cdf(inside) - low) / (high - low), 0.0, 1.0)


def truncated_normal_moments(lower, upper):
    """(mean, variance) of a standard normal truncated to [lower, upper]."""
    def density(v):
        return math.exp(-v * v / 2) / math.sqrt(2 * math.pi)
    mass = 0.5 * (math.erfc(-upper / math.sqrt(2)) - math.erfc(-lower / math.sqrt(2)))
    mean = (density(lower) - density(upper)) / mass
    second = 1 + (lower * density(lower) - upper * density(upper)) / mass
    return mean, second - mean * mean


def ks_distance(samples, cdf):
    """(D, x, below, expected): the Kolmogorov-Smirnov distance D = sup_x |F_n(x) - F(x)| between the
    samples' empirical CDF F_n and `cdf` (a function of an array), the sample x where it is reached, the
    fraction of samples at or below x there (or strictly below, whichever is farther) and F(x)."""
    x = np.sort(np.asarray(samples, dtype=np.float64).reshape(-1))
    n = x.size
    expected = np.asarray(cdf(x), dtype=np.float64)
    above = np.arange(1, n + 1) / n - expected       # F_n(x_i) - F(x_i)
    below = expected - np.arange(0, n) / n           # F(x_i) - F_n(x_i^-)
    i, j = int(np.argmax(above)), int(np.argmax(below))
    if above[i] >= below[j]:
        return float(above[i]), float(x[i]), (i + 1) / n, float(expected[i])
    return float(below[j]), float(x[j]), j / n, float(expected[j])


def _thinned_ks_distance(ordered, cdf, step):
    """The Kolmogorov-Smirnov distance of sorted samples to `cdf`, looked at every `step`-th order statistic only:
    within step / n of the exact distance."""
    n = ordered.size
    index = np.arange(step - 1, n, step)
    expected = np.asarray(cdf(ordered[index]), dtype=np.float64)
    return float(max(np.max((index + 1) / n - expected), np.max(expected - (index + 1 - step) / n)))


def ks_threshold(n, false_failure=FALSE_FAILURE):
    """The distance eps with P(D_n > eps) <= false_failure for n independent draws from a continuous CDF:
    the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant, P(D_n > eps) <= 2 exp(-2 n eps²)."""
    return math.sqrt(math.log(2.0 / false_failure) / (2.0 * n))


def expect_distribution(samples, cdf, *, law, false_failure=FALSE_FAILURE, what="the draws", mistakes=()):
    """Fail when `samples` (independent draws) do not fit `cdf`, the continuous CDF of `law` (its name for
    the message, "U(-0.5, 0.5)"): their Kolmogorov-Smirnov distance exceeds `ks_threshold`, which a
    correct solution does with probability at most `false_failure`.  `mistakes` lists (cdf, hint): the
    first one the samples do fit is named in the message."""
    samples = np.asarray(samples, dtype=np.float64).reshape(-1)
    threshold = ks_threshold(samples.size, false_failure)
    distance, x, fraction, expected = ks_distance(samples, cdf)
    if distance <= threshold:
        return
    # Naming a mistake needs no exact statistic: every k-th order statistic (at most DIAGNOSIS_POINTS of them)
    # gives the distance to within k / n, at a fraction of the CDF evaluations (math.erfc is slow in Pyodide).
    ordered = np.sort(samples)
    step = max(1, -(-samples.size // DIAGNOSIS_POINTS))
    fitting = [(_thinned_ks_distance(ordered, wrong, step), words)
               for wrong, words in (mistakes() if callable(mistakes) else mistakes)]
    fitting = [(d, words) for d, words in fitting if d <= threshold]
    hint = f" ({min(fitting, key=lambda f: f[0])[1]})" if fitting else ""
    fail(f"{what} do not follow {law}: a fraction {fraction:.4f} of the {samples.size} draws lie at or below "
         f"{num(x)}, where {expected:.4f} should (Kolmogorov-Smirnov distance {distance:.4f}, more than the "
         f"{threshold:.4f} a correct solution exceeds with probability below {false_failure:g}){hint}")


def normal_moments_range(n, mean, std, false_failure=FALSE_FAILURE):
    """((low, high) of the mean, (low, high) of the mean square deviation from `mean`) of n draws from
    N(mean, std²): each of the four tails has probability at most false_failure / 4 (Chernoff's bound for
    the mean; Laurent and Massart's chi-square bounds, P(S >= n + 2 sqrt(n t) + 2t) <= e^-t and
    P(S <= n - 2 sqrt(n t)) <= e^-t, for the sum of squares S)."""
    t = math.log(4.0 / false_failure)
    spread = std * math.sqrt(2.0 * t / n)
    variance = std * std
    return ((mean - spread, mean + spread),
            (variance * max(0.0, 1 - 2 * math.sqrt(t / n)), variance * (1 + 2 * math.sqrt(t / n) + 2 * t / n)))


def bounded_moments_range(n, mean, variance, low, high, false_failure=FALSE_FAILURE):
    """The same ranges for n draws of a distribution on [low, high] with this mean and variance, from
    Hoeffding's inequality for the mean and for the mean square deviation (each at false_failure / 2)."""
    t = math.sqrt(math.log(4.0 / false_failure) / (2.0 * n))
    square = max(low - mean, high - mean, key=abs) ** 2
    return ((mean - (high - low) * t, mean + (high - low) * t),
            (max(0.0, variance - square * t), variance + square * t))


def expect_moments(samples, ranges, *, law, mean, variance, false_failure=FALSE_FAILURE, what="the draws",
                   mistakes=()):
    """Fail when the samples' mean or mean square deviation from `mean` (their variance about the known
    mean) lies outside `ranges`, from `normal_moments_range` or `bounded_moments_range` at
    `false_failure`.  `mistakes` lists (variance, hint): the one closest to the samples' is named."""
    samples = np.asarray(samples, dtype=np.float64).reshape(-1)
    (low_mean, high_mean), (low_var, high_var) = ranges
    got_mean = float(samples.mean())
    got_var = float(np.mean((samples - mean) ** 2))
    bound = f"a correct solution falls outside with probability below {false_failure:g}"
    if not low_mean <= got_mean <= high_mean:
        fail(f"{what}: their mean is {num(got_mean)}, but {law} has mean {num(mean)} (the mean of "
             f"{samples.size} draws lies between {num(low_mean)} and {num(high_mean)}; {bound})")
    if not low_var <= got_var <= high_var:
        found = [(abs(math.log(wrong / got_var)), words) for wrong, words in mistakes if wrong > 0 and got_var > 0]
        hint = f" ({min(found)[1]})" if found and min(found)[0] < 0.1 else ""
        fail(f"{what}: their variance is {num(got_var)}, but {law} has variance {num(variance)} (std "
             f"{num(math.sqrt(variance))}; the variance of {samples.size} draws lies between {num(low_var)} and "
             f"{num(high_var)}; {bound}){hint}")


# ---- seeded results ----------------------------------------------------------------------------------

def expect_seeded(entry, *args, seeds=range(20), what, precision=None):
    """Fail unless `entry(seed, *args)` gives the same result twice for a seed, and a different result for
    each of `seeds` (pass arguments for which a correct solution's results differ, e.g. p > 0, n > 1)."""
    first, _, _ = call(entry, seeds[0], *args, what=what, precision=precision)
    again, _, _ = call(entry, seeds[0], *args, what=what, precision=precision)
    if not np.array_equal(first, again, equal_nan=True):
        fail(f"{what} gave two different results for the same seed {seeds[0]}: draw every random number from "
             f"np.random.default_rng(seed), never from np.random.* or the random module")
    seen = {}
    for seed in seeds:
        got, _, _ = call(entry, seed, *args, what=what, precision=precision)
        key = got.tobytes()
        if key in seen:
            fail(f"{what} gave the same result for seeds {seen[key]} and {seed}: the seed should change the draws "
                 f"(np.random.default_rng(seed))")
        seen[key] = seed


def expect_value_error(entry, *args, naming, what):
    """Fail unless `entry(*args)` raises ValueError with a message that names `naming` (the invalid value)."""
    try:
        entry(*args)
    except ValueError as exc:
        if naming not in str(exc):
            fail(f"{what} raised ValueError({str(exc)!r}): its message should name the invalid value {naming!r}")
        return
    fail(f"{what} should raise ValueError naming {naming!r}, but it returned without an error")


# ---- equal up to a symmetry: signs of columns or rows, order of rows, names of clusters ----------------

def align_signs(got, reference, *, along="columns"):
    """`got` (a float array) with each column (`along="columns"`) or row (`"rows"`) negated where that brings it
    nearer the same column (row) of `reference`, of the same shape: PCA directions, eigenvectors and singular
    vectors are defined up to the sign of each.  A 1-D array is one vector: negated as a whole or not."""
    got, reference = np.array(got, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    if got.shape != reference.shape or got.ndim not in (1, 2):
        return got
    if got.ndim == 1:
        return -got if np.dot(got, reference) < 0 else got
    if along not in ("columns", "rows"):
        raise ValueError(f"align_signs: along={along!r}, expected 'columns' or 'rows'")
    axis = 0 if along == "columns" else 1
    with np.errstate(invalid="ignore"):
        flip = np.sum(np.nan_to_num(got) * reference, axis=axis, keepdims=True) < 0
    return np.where(flip, -got, got)


def compare_up_to_sign(got, expected, *, atol, rtol=0.0, along="columns", what="your function's result",
                       mistakes=(), mistakes_atol=None, pick="first"):
    """`compare` after `align_signs(got, expected, along=...)`: each column (row) may come with either sign.

    The mistakes' results are aligned to the learner's result the same way before `diagnose` compares them,
    so a mistake is named whatever signs either came out with."""
    aligned = align_signs(got, expected, along=along)

    def aligned_mistakes():
        return [(lambda candidate=candidate: align_signs(_evaluate(candidate, _as_float_array), aligned,
                                                         along=along), hint)
                for candidate, hint in (mistakes() if callable(mistakes) else mistakes)]

    each = "" if np.ndim(got) < 2 else f" of each {along[:-1]}"
    compare(aligned, expected, atol=atol, rtol=rtol, what=f"{what} (up to the sign{each})",
            mistakes=aligned_mistakes if mistakes else (), mistakes_atol=mistakes_atol, pick=pick)


def align_rows(got, reference):
    """`got`'s rows reordered to follow `reference`'s (same shape): each reference row, nearest pairs first,
    takes the nearest row of `got` not taken yet.  For results whose rows come in no set order (k-means
    centroids, the components of a mixture)."""
    got, reference = np.array(got, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    if got.shape != reference.shape or got.ndim != 2:
        return got
    distance = np.nan_to_num(np.sum((reference[:, None, :] - got[None, :, :]) ** 2, axis=2), nan=np.inf)
    order = np.full(len(reference), -1)
    for flat in np.argsort(distance, axis=None, kind="stable"):
        row, column = divmod(int(flat), distance.shape[1])
        if order[row] < 0 and column not in order:
            order[row] = column
    return got[order]


def compare_up_to_order(got, expected, *, atol, rtol=0.0, what="your function's result", mistakes=(),
                        mistakes_atol=None, pick="first"):
    """`compare` after `align_rows(got, expected)`: the rows may come in any order (each mistake's result is
    reordered to the learner's the same way before `diagnose` compares them)."""
    aligned = align_rows(got, expected)

    def aligned_mistakes():
        return [(lambda candidate=candidate: align_rows(_evaluate(candidate, _as_float_array), aligned), hint)
                for candidate, hint in (mistakes() if callable(mistakes) else mistakes)]

    compare(aligned, expected, atol=atol, rtol=rtol, what=f"{what} (rows in any order)",
            mistakes=aligned_mistakes if mistakes else (), mistakes_atol=mistakes_atol, pick=pick)


def expect_same_partition(got, expected, *, what="the labels"):
    """Fail unless the labels `got` (ints, from `as_int_list` or an int array) group the points exactly as
    `expected` does, whatever number each group bears (cluster labels are defined up to renaming).
    Returns {your label: expected label}.  The message names two points that one puts together and the
    other apart."""
    got, expected = [int(label) for label in np.ravel(got)], [int(label) for label in np.ravel(expected)]
    if len(got) != len(expected):
        fail(f"{what}: expected {len(expected)} labels (one per point), got {len(got)}")
    mapping, first = {}, {}  # your label -> expected label; expected label -> first point bearing it
    for point, (mine, theirs) in enumerate(zip(got, expected)):
        if mine in mapping and mapping[mine] != theirs:
            other = got.index(mine)
            fail(f"{what}: points {other} and {point} are in one cluster in your labels ({mine}), but in two "
                 f"in the expected ones ({expected[other]} and {theirs}); labels may be renamed, not merged")
        if theirs in first and got[first[theirs]] != mine:
            other = first[theirs]
            fail(f"{what}: points {other} and {point} are in one cluster in the expected labels ({theirs}), but "
                 f"in two in yours ({got[other]} and {mine}); labels may be renamed, not split")
        mapping.setdefault(mine, theirs)
        first.setdefault(theirs, point)
    return mapping
