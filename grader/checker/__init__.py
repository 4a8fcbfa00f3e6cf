"""The checker's side of offline grading: runs the hidden tests, never learner code.

`remote` is the learner's function as the tests see it (a proxy that calls
into the sandboxed learner process, with deadlines); `process` is the checker
process's main; `sandbox` starts the warm, sandboxed fork server that makes
learner processes; `supervisor` runs checker processes, reads their events
with deadlines and builds the reports; `executors` decides where a batch is
graded (here, or on the workers of a Dask cluster).
"""
