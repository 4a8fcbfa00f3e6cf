# Returns min_lr as it was given after max_steps: an int when the arguments are ints.
# expect: with int arguments, return float(min_lr) or float(...) of the result
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return min_lr
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
