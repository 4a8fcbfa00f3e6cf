"""The learner's side of offline grading: runs inside the sandbox, and is the only code that runs learner code.

`zygote` is the warm fork server the sandbox starts; each learner process it
forks confines itself and then runs `server`, which loads the submission and
answers calls to its entry function, exchanging data only (grader/wire.py).
"""
