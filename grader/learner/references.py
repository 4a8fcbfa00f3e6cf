"""The earlier steps in the learner's scope, offline: stubs that send data to the references in the checker.

The references an exercise uses (`uses` in exercise.toml) never enter this
process: their code, constants, globals and helpers would all be readable by
the learner's code here (inspect, linecache, __code__, __globals__).  Each
used step's entry function is instead a stub, compiled under the step's file
name (so that a traceback shows "in the reference softmax (step 5)" and no
line of it), that sends its arguments as data over the channel and waits for
the checker, which runs the reference (grader/checker/references.py), to send
back the result, or the exception it raised (rebuilt with the same built-in
classes, so that `except ValueError:` works).  The random generators among
the arguments come back advanced as the reference advanced them.

Nothing here is trusted by the checker: it only ever hands the learner's code
what the reference computes from the data it was given.
"""

from grader.core.engine import BUILTIN_EXCEPTIONS, EarlierStep, learner_exception
from grader.wire import Unencodable, decode_value, encode_value, generators

channel = None  # set by grader/learner/server.py: sends a message, receives the next one
_steps = {}     # exercise id -> EarlierStep

STUB = """\
from grader.learner.references import call as _call_reference


def {entry}(*args, **kwargs):
    return _call_reference({exercise_id!r}, args, kwargs)
"""


def stub_steps(fields):
    """[EarlierStep] whose code is a stub, for the checker's list of the steps in scope (no source)."""
    steps = []
    for item in fields or ():
        step = EarlierStep.from_dict({**item, "source": ""})
        step = EarlierStep(step.exercise_id, step.entry, step.step,
                           STUB.format(entry=step.entry, exercise_id=step.exercise_id), step.uses, step.yours)
        _steps[step.exercise_id] = step
        steps.append(step)
    return steps


def call(exercise_id, args, kwargs):
    step = _steps[exercise_id]
    try:
        tree, blobs = encode_value((list(args), dict(kwargs)))
    except Unencodable:
        raise TypeError(f"{step.label} runs apart from your code and takes data only (numbers, strings, lists, "
                        f"tuples, dicts, numpy arrays): {_not_data(args, kwargs)}") from None
    message, blobs = channel.ask({"earlier_call": {"step": exercise_id, "args": tree}}, blobs)
    if "earlier_raised" in message:
        raised = message["earlier_raised"]
        raise _exception(raised["type"], raised["bases"], raised["message"]) from None
    result, states = decode_value(message["earlier_return"], blobs)
    for generator, state in zip(generators((args, kwargs)), states):
        generator.bit_generator.state = state  # advanced as the reference advanced it
    return result


def _not_data(args, kwargs):
    """Which argument cannot be sent, and why: "its argument 1 is a function"."""
    named = [(f"argument {number}", value) for number, value in enumerate(args, 1)] + \
        [(f"argument {name}", value) for name, value in kwargs.items()]
    for where, value in named:
        try:
            encode_value(value)
        except Unencodable as exc:
            return f"its {where} is {exc}"
    return "its arguments are too large to send"


def _exception(name, bases, text):
    """An exception named like the reference's (e.g. AxisError), of the same built-in classes."""
    exc = learner_exception(bases, text, "")
    if name == type(exc).__name__ or not name.isidentifier() or name in BUILTIN_EXCEPTIONS:
        return exc
    try:
        return type(name, (type(exc),), {"__module__": "builtins"})(text)
    except TypeError:
        return exc
