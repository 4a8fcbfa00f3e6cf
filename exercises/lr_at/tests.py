"""Hidden tests for lr_at(step, max_lr, min_lr, warmup_steps, max_steps).

Expected values come from the schedule written again below with math.cos, independently of
solution.py, and from values worked out by hand at the boundaries (the first step, the last step of
warmup, the first of the decay, max_steps and after).  When a rate is wrong, it is compared with the
schedules of classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import as_array, fail, precision_of, type_name
from grader.core.testkit import Diagnosis


# ---- the schedule, in plain Python --------------------------------------------------------------

def _lr(step, max_lr, min_lr, warmup_steps, max_steps, mistake=None):
    """The schedule; `mistake` reproduces a classic one (None for a schedule that raises)."""
    warmup_end = warmup_steps + 1 if mistake == "warmup_too_long" else warmup_steps
    if step < warmup_end:
        return max_lr * (step if mistake == "warmup_from_zero" else step + 1) / warmup_steps
    if step >= max_steps:
        if step == max_steps and max_steps == warmup_steps and mistake == "zero_span":
            return None
        return float(min_lr)
    span = max_steps if mistake == "span_is_max_steps" else max_steps - warmup_steps
    r = (step - warmup_steps) / span
    if mistake == "linear":
        return max_lr - r * (max_lr - min_lr)
    shape = 0.5 * (1 + math.cos(math.pi * r))
    if mistake == "min_lr_not_added":
        return shape * (max_lr - min_lr)
    if mistake == "min_lr_ignored":
        return shape * max_lr
    return min_lr + shape * (max_lr - min_lr)


_MISTAKES = [
    ("warmup_from_zero", "looks like the warmup is max_lr * step / warmup_steps, which gives 0 at step 0 (a "
                         "wasted step) and reaches max_lr one step late (nanoGPT's train.py before December 2024); this "
                         "step follows build-nanogpt: (step + 1) / warmup_steps"),
    ("warmup_too_long", "looks like the warmup also covers step == warmup_steps (step <= warmup_steps), which "
                        "overshoots max_lr; the warmup is step < warmup_steps"),
    ("span_is_max_steps", "looks like the cosine runs over max_steps instead of the decay span: "
                          "r = (step - warmup_steps) / (max_steps - warmup_steps)"),
    ("min_lr_not_added", "looks like min_lr was not added back: "
                         "min_lr + 0.5 * (1 + cos(pi * r)) * (max_lr - min_lr)"),
    ("min_lr_ignored", "looks like the cosine decays max_lr to 0, ignoring min_lr: "
                       "min_lr + 0.5 * (1 + cos(pi * r)) * (max_lr - min_lr)"),
    ("linear", "looks like a linear decay; the decay follows half a cosine, 0.5 * (1 + cos(pi * r))"),
]


def _mistakes(args):
    """(rate, hint) for each classic mistake that gives a rate at these arguments."""
    found = []
    for mistake, hint in _MISTAKES:
        try:
            wrong = _lr(*args, mistake=mistake)
        except ZeroDivisionError:  # a mistake that cannot give a rate here (a warmup over 0 steps)
            continue
        if wrong is not None:
            found.append((wrong, hint))
    return found


# A mistake is named only when it is the one explanation.
_diagnosis = Diagnosis(_mistakes, correct=lambda args: _lr(*args), atol=1e-15, rtol=1e-6, pick="unique")


# ---- calling the learner's function -------------------------------------------------------------

def _call(lr_at, args):
    """Call the learner's function; return (the rate as a float, description)."""
    what = f"lr_at({', '.join(str(a) for a in args)})"
    try:
        result = lr_at(*args)
    except ZeroDivisionError:
        step, _, _, warmup_steps, max_steps = args
        if warmup_steps == 0:
            fail(f"{what} raised ZeroDivisionError: with warmup_steps = 0 there is no warmup (step < 0 is never "
                 "true), so the warmup formula, which divides by warmup_steps, must not run: go straight to the decay")
        if warmup_steps == max_steps:
            fail(f"{what} raised ZeroDivisionError: with max_steps == warmup_steps the decay span is empty; from "
                 "step max_steps on (step >= max_steps) the rate is min_lr, without computing r")
        raise
    kind = type(result)
    if issubclass(kind, np.floating) and not issubclass(kind, float):
        as_array(np.asarray(result), precision_of(*args), what=what)   # names a float32 or float16 result
    if issubclass(kind, bool) or not issubclass(kind, float):
        hint = ""
        if issubclass(kind, int):
            hint = " (with int arguments, return float(min_lr) or float(...) of the result)"
        fail(f"{what} should return a Python float, got {type_name(result)}{hint}")
    return float.__float__(result), what


def _check(lr_at, args, why=""):
    got, what = _call(lr_at, args)
    want = _lr(*args)
    if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15):
        fail(f"{what} should be {want:.10g}{why}, got {got:.10g}{_diagnosis(got, args)}")
    return got


# ---- tests --------------------------------------------------------------------------------------

def test_returns_a_float(lr_at):
    """Returns a Python float, also for int arguments, in every phase"""
    for step in (0, 3, 9, 10, 55, 100, 200):
        _call(lr_at, (step, 6, 1, 10, 100))
    got, what = _call(lr_at, (200, 6, 1, 10, 100))
    if got != 1.0:
        fail(f"{what} should be min_lr = 1.0 (after max_steps), got {got!r}{_diagnosis(got, (200, 6, 1, 10, 100))}")


def test_hand_checked(lr_at):
    """Matches hand-checked values of build-nanogpt's schedule (max_lr 6e-4, min_lr 6e-5, 10 warmup, 50 steps)"""
    schedule = (6e-4, 6e-5, 10, 50)
    cases = [(0, 6e-5, " (warmup: 6e-4 * 1 / 10)"), (4, 3e-4, " (warmup: 6e-4 * 5 / 10)"),
             (9, 6e-4, " (the last warmup step reaches max_lr: 6e-4 * 10 / 10)"),
             (10, 6e-4, " (the decay starts at r = 0: cos(0) = 1)"),
             (30, 3.3e-4, " (r = 20 / 40 = 0.5: halfway, 6e-5 + 0.5 * 5.4e-4)"),
             (50, 6e-5, " (max_steps: r = 1, cos(pi) = -1)"), (51, 6e-5, " (after max_steps: min_lr)")]
    for step, want, why in cases:
        got, what = _call(lr_at, (step, *schedule))
        if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15):
            fail(f"{what} should be {want:g}{why}, got {got:.10g}{_diagnosis(got, (step, *schedule))}")


def test_warmup(lr_at):
    """The warmup rises linearly from max_lr / warmup_steps at step 0 to max_lr at step warmup_steps - 1"""
    for step in range(8):
        _check(lr_at, (step, 1.0, 0.1, 8, 20), f" (warmup: 1.0 * {step + 1} / 8)")
    _check(lr_at, (0, 3e-4, 0.0, 1, 5), " (a warmup of one step: step 0 already gets max_lr)")


def test_boundaries(lr_at):
    """At step 0, warmup_steps - 1, warmup_steps, max_steps and max_steps + 1"""
    schedule = (2e-3, 2e-4, 100, 1100)
    for step, why in ((0, " (step 0 of the warmup)"), (99, " (last warmup step: max_lr)"),
                      (100, " (first decay step: max_lr)"), (101, " (r = 1 / 1000)"), (1099, " (r = 999 / 1000)"),
                      (1100, " (max_steps: min_lr)"), (1101, " (after max_steps: min_lr)"),
                      (5000, " (long after max_steps: min_lr)")):
        _check(lr_at, (step, *schedule), why)


def test_cosine_decay(lr_at):
    """Between warmup and max_steps the rate follows half a cosine from max_lr down to min_lr"""
    schedule = (1.0, 0.2, 5, 25)
    previous = None
    for step in range(5, 26):
        got = _check(lr_at, (step, *schedule), f" (r = {step - 5} / 20)")
        if previous is not None and got > previous + 1e-12:
            fail(f"lr_at({step}, 1.0, 0.2, 5, 25) = {got:.6g} is above the rate of the step before, {previous:.6g}: "
                 "after the warmup the rate only goes down")
        previous = got
    _check(lr_at, (15, 6e-4, 0.0, 5, 25), " (min_lr 0: the cosine reaches 0)")
    _check(lr_at, (15, 1e-3, 1e-3, 5, 25), " (min_lr == max_lr: a constant rate after warmup)")


def test_no_warmup(lr_at):
    """warmup_steps = 0: no warmup, the decay starts at step 0 with max_lr"""
    for step, why in ((0, " (r = 0)"), (1, " (r = 1 / 10)"), (5, " (r = 1 / 2)"), (10, " (max_steps)"),
                      (11, " (after max_steps)")):
        _check(lr_at, (step, 5e-4, 5e-5, 0, 10), why)


def test_empty_decay_span(lr_at):
    """max_steps == warmup_steps: warmup, then min_lr from max_steps on"""
    for step, why in ((0, " (warmup)"), (6, " (last warmup step: max_lr)"), (7, " (max_steps: min_lr)"),
                      (8, " (after max_steps: min_lr)")):
        _check(lr_at, (step, 1e-3, 1e-4, 7, 7), why)


def test_long_run(lr_at):
    """A GPT-2-sized run: 715 warmup steps out of 19073"""
    schedule = (6e-4, 6e-5, 715, 19073)
    for step in (0, 100, 714, 715, 716, 5000, 9894, 15000, 19072, 19073, 20000):
        _check(lr_at, (step, *schedule))
