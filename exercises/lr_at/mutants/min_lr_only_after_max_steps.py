# Returns min_lr only once step > max_steps, so max_steps == warmup_steps divides 0 by 0 at step max_steps.
# expect: with max_steps == warmup_steps the decay span is empty
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
