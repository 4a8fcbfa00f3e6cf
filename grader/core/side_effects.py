"""What a call to the learner's function did besides returning a result.

Every exercise asks for a function that leaves its inputs as they were and returns new arrays:
a gradient step that writes into `dout` (`dout *= y`) corrupts the gradient its caller still
needs, and a result that is an input (or a view of one) changes when the caller later updates
that input.  `side_effect(entry, pristine, passed, result)` compares what the learner's code was
given (`passed`, after the call) with an untouched copy (`pristine`) and looks for arrays of the
result that share memory with `passed`, and for lists and dicts of `passed` returned as they are;
it returns a learner-facing message, or None.

It runs where the learner's code runs (the page's interpreter in the browser; offline, the learner's
process, where it only helps: the learner can switch it off there).  Offline the trusted side checks the
arrays of the arguments on its own with `changed_argument` (see grader/checker/remote.py).  Numeric numpy
arrays are compared byte for byte (so NaN equals NaN), lists, tuples and dicts by their items, and the
numbers, strings, booleans and None inside them by value (`opt["t"] += 1` changes the caller's dict);
random generators (whose state a call is meant to advance) are not compared.
"""

import inspect

import numpy as np

from grader.core.checks import type_name

MAX_DEPTH = 20
CONTAINERS = (list, tuple, dict)  # the containers whose items are looked into
PLAIN = (int, float, complex, bool, str, type(None))  # compared by value, inside a container


def side_effect(entry, pristine, passed, result):
    """A message saying which argument the call changed in place, or which part of its result shares
    memory with an argument or is one of its lists or dicts; None when none of this happened.

    `pristine` and `passed` are (args, kwargs): an untouched copy of the arguments and the very
    objects the call received.
    """
    parameters = parameter_names(entry)
    try:
        change = changed_argument(parameters, pristine, passed)
    except Exception as exc:  # e.g. an ndarray subclass put into an argument, whose methods raise
        return f"your function's arguments could not be examined after the call ({type(exc).__name__})"
    return change or shared_result(parameters, passed, result)


def shared_result(parameters, passed, result):
    """A message saying which part of the result shares memory with an argument of the call (args, kwargs)
    `passed`, or is one of its lists or dicts; None when none does."""
    try:
        return _shared_result(parameters, passed, result)
    except Exception as exc:  # e.g. an ndarray subclass in the result whose methods raise
        return f"your function's result could not be examined ({type(exc).__name__}): return plain numpy arrays"


def _shared_result(parameters, passed, result):
    arguments = _named(_positional_names(parameters, len(passed[0])), passed)
    inputs = [(f"the argument {where}", part) for name, value in arguments for where, part in _parts(value, name, 0)]
    for where, part in _parts(result, "your result", 0):
        for input_where, input_part in inputs:
            if isinstance(part, np.ndarray) and isinstance(input_part, np.ndarray):
                if np.may_share_memory(part, input_part):
                    return (f"{where} shares memory with {input_where}: it is that array or a view of it "
                            "(a slice, reshape or transpose). Return a new array (e.g. with .copy()), so that "
                            "changing an input later does not change your result")
            elif part is input_part:
                return (f"{where} is {input_where} itself (the same {type_name(part)}, not a copy): return a new "
                        f"{type_name(part)}, so that changing the input later does not change your result")
    return None


def changed_argument(parameters, pristine, passed):
    """A message naming the first argument the call changed in place, or None.

    `parameters`: the names of the function's parameters, in order (as `parameter_names` gives them).
    """
    positional = _positional_names(parameters, len(passed[0]))
    for (name, before), (_, after) in zip(_named(positional, pristine), _named(positional, passed)):
        change = _first_change(before, after, name, 0)
        if change is not None:
            return (f"your function changed its argument {name} in place ({change}): leave the inputs as they were "
                    "and compute into new arrays (`a = a * 2` makes a new array; `a *= 2` and `a[...] = ...` "
                    "change the caller's)")
    return None


def parameter_names(entry):
    """The names of the parameters of `entry`, in order ([] when it has no signature to read)."""
    try:
        return list(inspect.signature(entry).parameters)
    except (TypeError, ValueError):
        return []


def _positional_names(parameters, count):
    """The names of the first `count` parameters ("number 4" for one past the signature)."""
    return [parameters[i] if i < len(parameters) else f"number {i + 1}" for i in range(count)]


def _named(positional, call):
    """[(name, value)] for the arguments of an (args, kwargs) call: positional ones first, then by keyword."""
    args, kwargs = call
    return list(zip(positional, args)) + sorted(kwargs.items())


def _first_change(before, after, where, depth):
    """How `after` differs from `before` (a description naming the first place), or None."""
    if depth > MAX_DEPTH:
        return None
    if type(before) is np.ndarray and before.dtype.kind in "biufc":
        if type(after) is not np.ndarray:
            return f"{where} is no longer a numpy array"
        if after.shape != before.shape or after.dtype != before.dtype:
            return (f"{where} went from shape {before.shape} {before.dtype} "
                    f"to shape {after.shape} {after.dtype}")
        if after.tobytes() == before.tobytes():
            return None
        same = after == before
        if before.dtype.kind in "fc":
            same |= np.isnan(after) & np.isnan(before)
        changed = np.argwhere(~same)
        if not len(changed):
            return f"{where} was written to (a zero changed its sign)"
        index = tuple(int(i) for i in changed[0])
        at = where + ("[" + ", ".join(map(str, index)) + "]" if index else "")
        return f"{at} was {_number(before[index])}, is now {_number(after[index])}"
    if type(before) in (list, tuple):
        if type(after) is not type(before) or len(after) != len(before):
            return f"{where}: items were added, removed or replaced"
        for i, (b, a) in enumerate(zip(before, after)):
            change = _first_change(b, a, f"{where}[{i}]", depth + 1)
            if change is not None:
                return change
        return None
    if type(before) is dict:
        if type(after) is not dict or list(after) != list(before):
            return f"{where}: keys were added or removed"
        for key in before:
            change = _first_change(before[key], after[key], f"{where}[{key!r}]", depth + 1)
            if change is not None:
                return change
    if type(before) in PLAIN and depth > 0:  # an item of a list or dict replaced by another value
        if type(after) is not type(before):
            return f"{where} was {_plain(before)}, is now a {type_name(after)}"
        if after != before and not (after != after and before != before):  # NaN stays NaN
            return f"{where} was {_plain(before)}, is now {_plain(after)}"
    return None


def _parts(value, where, depth):
    """(description, part) for `value` and every list, dict and numpy array inside it (lists, tuples, dicts),
    outermost first."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, np.ndarray) or type(value) in (list, dict):
        yield where, value
    # Only items that hold parts are visited: a result of a million token ids names no million places.
    if type(value) in (list, tuple):
        for i, item in enumerate(value):
            if type(item) in CONTAINERS or isinstance(item, np.ndarray):
                yield from _parts(item, f"{where}[{i}]", depth + 1)
    elif type(value) is dict:
        for key, item in value.items():
            if type(item) in CONTAINERS or isinstance(item, np.ndarray):
                yield from _parts(item, f"{where}[{key!r}]", depth + 1)


def _plain(value):
    text = f"{value:.6g}" if type(value) is float else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value):
    value = value.item()
    return f"{value:.6g}" if isinstance(value, float) else str(value)
