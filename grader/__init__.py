"""Grading engine for the exercises.

`grader.core` is pure Python + numpy and runs unchanged in CPython and in
Pyodide (the browser ships exactly that subpackage).  The rest of `grader`
(exercise loading, process isolation, the command line) is CPython-only.
"""
