# Warms up while step <= warmup_steps, so step warmup_steps overshoots max_lr.
# expect: looks like the warmup also covers step == warmup_steps
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step <= warmup_steps and warmup_steps > 0:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
