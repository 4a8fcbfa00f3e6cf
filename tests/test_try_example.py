"""The calls "Try your code" starts with, and how the page's try runs report errors (grader.core.engine.try_code)."""

import io
from contextlib import redirect_stdout
from pathlib import Path

from grader.core.engine import try_code
from grader.exercise import load_all
from grader.track import reference_steps
from sitebuild.try_example import example_calls

STATEMENT = """Intro with `f(x)` inline.

```python
for i in range(3):
    pass  # pseudo-code would not parse: this block does
```

```python
x = np.ones(3)
```

```python
f(x)          # [2. 2. 2.]
print(f(x))
f(x,
  2)
```
"""


def test_the_example_is_the_statements_first_call_with_its_setup_and_bare_expressions_printed():
    assert example_calls(STATEMENT, "f") == (
        "import numpy as np\n\n"
        "for i in range(3):\n    pass  # pseudo-code would not parse: this block does\n\n"
        "x = np.ones(3)\n\n"
        "print(f(x))          # [2. 2. 2.]\nprint(f(x))\nprint(f(x,\n  2))\n")


def test_without_an_example_the_box_names_the_function():
    assert example_calls("No code here.\n\n```python\nthis is not python\n```\n", "g") == (
        "# Calls to try your code (not graded), e.g.\n# print(g(...))\n")


def test_try_code_prints_and_trims_tracebacks_to_the_code_and_the_calls():
    out = io.StringIO()
    with redirect_stdout(out):
        error = try_code("def f(x):\n    return 1 / x\n", "print(f(2))\nf(0)\n")
    assert out.getvalue() == "0.5\n"
    assert error == ("ZeroDivisionError: division by zero\nTraceback (your code, most recent call last):\n"
                     "  line 2 of your calls, in <module>: f(0)\n  line 2, in f: return 1 / x")
    assert try_code("def f(x):\n    return x\n", "f(1") == "SyntaxError in your calls on line 1, column 2: '(' was never closed"
    assert try_code("def f(x)\n", "f(1)").startswith("SyntaxError in your code on line 1")


def test_every_exercises_example_runs_against_its_reference_solution():
    """The box's first Run shows values, not a NameError: each statement's example is self-contained."""
    for exercise in load_all(Path(__file__).resolve().parent.parent / "exercises"):
        out = io.StringIO()
        with redirect_stdout(out):
            error = try_code(exercise.solution, example_calls(exercise.statement, exercise.entry),
                             reference_steps(exercise))
        assert error is None, f"{exercise.id}: {error}"
        assert out.getvalue(), f"{exercise.id}: the example prints nothing"
