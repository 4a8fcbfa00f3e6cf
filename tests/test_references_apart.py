"""Offline, what a submission can do to the references it finds in scope and to the in-place rule, through
`python -m grader check` in the real sandbox: the references run in the checker behind stubs that pass data
only, so nothing of their code reaches the report, and the checker sees for itself what a call did to the
arrays it was given, so rebinding the learner process's own check changes nothing."""

import json
import subprocess
import sys

import pytest

from grader.exercise import EXERCISES_DIR

LEAK = '''\
import dis, gc, inspect, io, linecache, types


def _try(what, get):
    try:
        return f"{what}: {get()}"
    except Exception as exc:
        return f"{what} failed: {exc!r}"


def _dis(function):
    out = io.StringIO()
    dis.dis(function, file=out)
    return out.getvalue()


def _leak(function):
    found = [_try("getsource", lambda: inspect.getsource(function)),
             _try("linecache", lambda: "".join("".join(linecache.getlines(name)) for name in list(linecache.cache))),
             _try("consts", lambda: repr(function.__code__.co_consts)),
             _try("names", lambda: repr(function.__code__.co_names)),
             _try("dis", lambda: _dis(function)),
             _try("globals", lambda: repr({k: v for k, v in function.__globals__.items() if k != "__builtins__"}))]
    for obj in gc.get_objects():  # every function this process holds from an earlier step's file
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename.startswith("step-"):
            found.append(_try("gc " + obj.__name__, lambda: _dis(obj) + repr(obj.__code__.co_consts)))
    return "\\n".join(found)
'''

ATTENTION = LEAK + '''
import numpy as np

print(_leak(softmax))


def attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    return softmax(scores, axis=-1) @ v
'''

BPE_ENCODE = LEAK + '''
print(_leak(bpe_train))
print(_try("helper", lambda: bpe_train.__globals__["_merge"]))


def bpe_encode(text, merges):
    raise ValueError(_leak(bpe_train)[:400])
'''

# Switches off the learner process's own check, by name and by swapping code objects found by a gc walk.
SWITCH_OFF = '''\
import gc as _gc, sys as _sys, types as _types
_server = _sys.modules.get("grader.learner.server")
for _name in ("side_effect", "shared_result", "changed_argument"):
    if _server is not None and hasattr(_server, _name):
        setattr(_server, _name, lambda *a, **k: None)
for _obj in _gc.get_objects():
    if isinstance(_obj, _types.FunctionType) and _obj.__name__ in (
            "side_effect", "shared_result", "changed_argument", "_first_change", "_side_effect", "_shared_result"):
        _obj.__code__ = (lambda *a, **k: None).__code__
'''

IN_PLACE_MUTANTS = ["adamw_step/mutants/moments_updated_in_place.py", "clip_grad_norm/mutants/scales_in_place.py",
                    "train_step/mutants/opt_updated_in_place.py", "train_step/mutants/p_updated_in_place.py",
                    "gpt_step/mutants/cache_updated_in_place.py",
                    "attention_with_cache/mutants/query_scaled_in_place.py"]


def check(exercise, source, folder):
    path = folder / "submission.py"
    path.write_text(source)
    process = subprocess.run([sys.executable, "-m", "grader", "check", exercise, str(path), "--json",
                              "--sandbox", "bwrap"], capture_output=True, text=True, timeout=300)
    assert not process.stderr.strip(), process.stderr
    return process, json.loads(process.stdout)


def reference_lines(exercise):
    """The reference's lines a leak would show: every line with more than a keyword or a bracket on it."""
    lines = [line.strip() for line in (EXERCISES_DIR / exercise / "solution.py").read_text().splitlines()]
    return [line for line in lines if len(line) > 12 and not line.startswith(("import ", "return ", "def "))]


@pytest.mark.parametrize("user, used, source", [("attention", "softmax", ATTENTION),
                                                ("bpe_encode", "bpe_train", BPE_ENCODE)], ids=["softmax", "bpe_train"])
def test_nothing_of_a_used_reference_reaches_the_report(user, used, source, tmp_path):
    process, report = check(user, source, tmp_path)
    # The attack ran, and what it found is in the report: the stub, which only passes data along.
    assert f"getsource: def {used}(*args, **kwargs):" in process.stdout
    for line in reference_lines(used):
        assert line not in process.stdout, line
    if used == "bpe_train":
        assert "helper failed: KeyError('_merge')" in process.stdout  # the reference's helper is not here
    if user == "attention":
        assert report["passed"], report  # the stubs still compute what the reference computes


@pytest.mark.parametrize("mutant", IN_PLACE_MUTANTS)
def test_switching_off_the_learner_side_check_does_not_pass_an_in_place_mutant(mutant, tmp_path):
    exercise = mutant.split("/")[0]
    _, report = check(exercise, SWITCH_OFF + (EXERCISES_DIR / mutant).read_text(), tmp_path)
    assert not report["passed"]
    messages = [test["message"] for test in report["tests"] if test["status"] != "passed"]
    assert any("in place" in message for message in messages), messages


def test_incrementing_the_callers_step_count_fails_train_step(tmp_path):
    reference = (EXERCISES_DIR / "train_step" / "solution.py").read_text()
    slip = reference.replace('        t, ms, vs = opt["t"], _leaves(opt["m"], p), _leaves(opt["v"], p)\n',
                             '        opt["t"] += 1\n        t, ms, vs = opt["t"] - 1, _leaves(opt["m"], p), '
                             '_leaves(opt["v"], p)\n')
    assert slip != reference
    _, report = check("train_step", slip, tmp_path)
    assert not report["passed"]
    messages = [test["message"] for test in report["tests"] if test["status"] != "passed"]
    assert any("changed its argument opt in place (opt['t'] was 1, is now 2)" in message
               for message in messages), messages
    _, switched_off = check("train_step", SWITCH_OFF + slip, tmp_path)
    assert [test["message"] for test in switched_off["tests"] if test["status"] != "passed"] == messages


def test_a_stub_takes_data_only_and_a_references_error_keeps_its_type_and_hides_its_code(tmp_path):
    source = '''import numpy as np


def attention(q, k, v):
    try:
        softmax(np.zeros(2), axis=7)
    except IndexError as exc:  # numpy's AxisError is an IndexError and a ValueError
        caught = type(exc).__name__
    assert caught == "AxisError", caught
    return softmax(lambda: 0)
'''
    _, report = check("attention", source, tmp_path)
    message = report["tests"][0]["message"]
    assert message.splitlines() == [
        "Your code raised TypeError: the reference softmax (step 5) runs apart from your code and takes data only "
        "(numbers, strings, lists, tuples, dicts, numpy arrays): its argument 1 is a function",
        "(raised in the reference softmax (step 5), which this step uses)",
        "Traceback (your code, most recent call last):",
        "  line 10, in attention: return softmax(lambda: 0)",
        "  in the reference softmax (step 5)"], message


def test_a_call_to_a_reference_that_outlasts_the_wall_clock_backstop_is_stopped(tmp_path):
    source = '''def bpe_encode(text, merges):
    big = "".join(chr(97 + i % 26) + chr(97 + (i * 7) % 26) for i in range(200000))
    while True:
        bpe_train(big, 5000)
'''
    path = tmp_path / "submission.py"
    path.write_text(source)
    process = subprocess.run([sys.executable, "-m", "grader", "check", "bpe_encode", str(path), "--json",
                              "--timeout", "0.2"], capture_output=True, text=True, timeout=300)
    first = json.loads(process.stdout)["tests"][0]
    assert first["status"] == "timeout"
    assert first["message"] == ("Time limit exceeded: your code's call to the reference bpe_train (step 33) was still "
                                "running when the wall-clock time for your code ran out.")
