# Runs the cosine over max_steps instead of the decay span max_steps - warmup_steps.
# expect: looks like the cosine runs over max_steps instead of the decay span
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / max_steps
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
