# Warms up with step / warmup_steps: step 0 gets a rate of 0 and max_lr comes one step late.
# expect: looks like the warmup is max_lr * step / warmup_steps
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
