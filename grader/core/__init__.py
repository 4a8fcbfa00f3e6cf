"""The runtime-agnostic part of the grader: no files, no processes, no signals."""
