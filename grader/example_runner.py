"""Run a statement's examples against the reference, in a process of its own (grader/statement_examples.py).

Reads the request on stdin: the entry's name, the reference's source, the earlier steps it uses and the
examples ({"code", "first_line", "outputs": [{"statement_line", "line", ...}]}). Writes one JSON line:
{"results": [{"line": the output's line, "shown": what the expression shows} or {"line", "raised"}]},
stopping at the first statement that raises, or {"error": why the reference does not load}.
Imports no more than it needs: it starts once per validation.
"""

import ast
import contextlib
import io
import json
import re
import sys
import traceback

from grader.core.engine import SUBMISSION_FILENAME, EarlierStep, load_submission

STATEMENT = "statement.md"
EARLIER_STEP_FILE = re.compile(r"step-\d+-(\w+)\.py")  # EarlierStep.filename


def main():
    request = json.loads(sys.stdin.read())
    earlier = [EarlierStep.from_dict(fields) for fields in request["earlier"]]
    with contextlib.redirect_stdout(io.StringIO()):
        entry, error = load_submission(request["entry"], request["solution"], earlier)
    if error is not None:
        print(json.dumps({"error": f"the reference does not load: {error}"}))
        return
    import numpy
    namespace = {"np": numpy, request["entry"]: entry}
    for step in earlier:
        namespace.setdefault(step.entry, entry.__globals__.get(step.entry))
    results = []
    for example in request["examples"]:
        if not _run(example, namespace, results):
            break
    print(json.dumps({"results": results}))


def _run(example, namespace, results):
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
        if frame.filename == SUBMISSION_FILENAME:
            return f"{type(exc).__name__}: {exc} (in solution.py:{frame.lineno})"
        if step := EARLIER_STEP_FILE.fullmatch(frame.filename):
            return f"{type(exc).__name__}: {exc} (in the solution.py of {step.group(1)}:{frame.lineno})"
    return f"{type(exc).__name__}: {exc}"


if __name__ == "__main__":
    main()
