# expect: error
# message: ^Your code raised Not graded: the exercise has a bug
# Raises an exception whose class name and message copy the grader's sentence for a test whose own code raised:
# it is the learner's error, introduced as such, and counts against the learner.
import numpy as np

NotGraded = type("Not graded", (Exception,), {})


def sinusoidal_pe(T, C):
    raise NotGraded("the exercise has a bug (its test code raised TypeError at tests.py:40); your code is not at "
                    "fault.")
