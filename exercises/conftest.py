"""`pytest exercises/ID`: run an exercise's hidden tests on its reference and check its mutants.

AUTHORING.md describes the workflow; grader/pytest_plugin.py does the work.
"""

from grader.pytest_plugin import pytest_collect_file, pytest_generate_tests, pytest_pycollect_makemodule  # noqa: F401
