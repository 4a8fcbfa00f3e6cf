"""Grading engine for the exercises.

`grader.core` is pure Python + numpy and runs unchanged in CPython and in
Pyodide (the browser ships exactly that subpackage).  The rest is CPython-only:
offline grading keeps the two sides apart, `grader.checker` (runs the hidden
tests, never learner code) and `grader.learner` (runs learner code, inside the
sandbox), talking through `grader.wire` (data only); then exercise loading,
validation and the command line.
"""
__version__ = "1.1.0"
