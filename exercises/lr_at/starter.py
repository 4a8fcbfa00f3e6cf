import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    """The learning rate at `step` (counted from 0): linear warmup, cosine decay, then min_lr.

    Args:
        step: int >= 0, the step number.
        max_lr, min_lr: the peak rate and the final rate (min_lr <= max_lr).
        warmup_steps: int >= 0, the number of warmup steps (0: no warmup).
        max_steps: int >= warmup_steps, the step where the decay ends.

    Returns:
        A Python float: the warmup while step < warmup_steps, the cosine decay until max_steps,
        then min_lr, as the statement defines them.
    """
    # TODO: the warmup, then the end of the schedule, then the cosine in between.
    raise NotImplementedError
