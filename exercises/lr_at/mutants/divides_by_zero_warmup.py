# Computes the warmup fraction before checking the phase: divides by zero when warmup_steps is 0.
# expect: with warmup_steps = 0 there is no warmup
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    warm = (step + 1) / warmup_steps
    if warm < 1 or step < warmup_steps:
        return max_lr * warm
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
