"""Run the statement's examples (grader/authoring/statement_examples.py) against the reference in a process of its own,
for `validate`.

The child loads the reference (the earlier steps it uses in scope) in its own interpreter, as the
statement's examples and pytest see it, and writes one JSON line of results. The parent (`run_reference`)
waits for it under the exercise's time limit. The child imports no more than it needs: it starts on every
validation.
"""

import ast
import contextlib
import dataclasses
import io
import json
import re
import subprocess
import sys
import traceback
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 10  # Python and numpy starting, on top of the exercise's time limit
STATEMENT = "statement.md"
EARLIER_STEP_FILE = re.compile(r"step-\d+-(\w+)\.py")  # EarlierStep.filename
SUBMISSION_FILE = "submission.py"  # engine.SUBMISSION_FILENAME, the name the reference's code runs under


@dataclasses.dataclass
class ReferenceRun:
    error: str | None = None      # why nothing could run (the reference does not load, the process failed)
    examples: list | None = None  # per output: {"line", "shown"} or {"line", "raised"}; None: not reached
    stopped: str | None = None    # set when the time limit stopped the run


def run_reference(exercise, examples, earlier):
    """A ReferenceRun of `examples` (grader.authoring.statement_examples.Example): no process is started for none."""
    if not examples:
        return ReferenceRun(examples=[])
    request = {"entry": exercise.entry, "solution": exercise.solution,
               "earlier": [step.to_dict() for step in earlier],
               "examples": [dataclasses.asdict(example) for example in examples]}
    limit = exercise.time_limit + STARTUP_SECONDS
    process = subprocess.Popen([sys.executable, "-m", "grader.authoring.reference_runner"], cwd=PROJECT_ROOT, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run = ReferenceRun()
    try:
        stdout, stderr = process.communicate(json.dumps(request), timeout=limit)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        run.stopped = f"stopped after {limit:g} s"
    for line in stdout.splitlines():
        answer = json.loads(line)
        setattr(run, answer["kind"], answer["value"])
    if process.returncode != 0 and run.stopped is None and run.error is None:
        run.error = f"the process running the reference failed: {stderr.strip()[-2000:]}"
    return run


# ---- the child process ---------------------------------------------------------------------------

def main():
    request = json.loads(sys.stdin.read())
    from grader.core.engine import EarlierStep, load_submission
    earlier = [EarlierStep.from_dict(fields) for fields in request["earlier"]]
    with contextlib.redirect_stdout(io.StringIO()):
        entry, error = load_submission(request["entry"], request["solution"], earlier)
    if error is not None:
        _send("error", value=f"the reference does not load: {error}")
        return
    import numpy
    namespace = {"np": numpy, request["entry"]: entry}
    for step in earlier:
        namespace.setdefault(step.entry, entry.__globals__.get(step.entry))
    results = []
    for example in request["examples"]:
        if not _run_example(example, namespace, results):
            break
    _send("examples", value=results)


def _send(kind, **fields):
    sys.__stdout__.write(json.dumps({"kind": kind, **fields}) + "\n")
    sys.__stdout__.flush()


def _run_example(example, namespace, results):
    """Run one example's statements, adding a result per output; False once one raises."""
    outputs = {output["statement_line"]: output for output in example["outputs"]}
    tree = ast.parse(example["code"])
    ast.increment_lineno(tree, example["first_line"] - 1)
    for node in tree.body:
        output = outputs.get(node.lineno - example["first_line"] + 1)
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                if output is not None:
                    value = eval(compile(ast.Expression(node.value), STATEMENT, "eval"), namespace)
                else:
                    exec(compile(ast.Module([node], []), STATEMENT, "exec"), namespace)
        except Exception as exc:
            results.append({"line": node.lineno, "raised": _raised(exc)})
            return False
        if output is not None:
            shown = printed.getvalue() + ("" if value is None else str(value))
            results.append({"line": output["line"], "shown": shown.rstrip("\n")})
    return True


def _raised(exc):
    """'ValueError: ... (in solution.py:7)': the exception and the last line of the references it went through."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == SUBMISSION_FILE:
            return f"{type(exc).__name__}: {exc} (in solution.py:{frame.lineno})"
        if step := EARLIER_STEP_FILE.fullmatch(frame.filename):
            return f"{type(exc).__name__}: {exc} (in the solution.py of {step.group(1)}:{frame.lineno})"
    return f"{type(exc).__name__}: {exc}"


if __name__ == "__main__":
    main()
