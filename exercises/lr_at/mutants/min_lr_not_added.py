# Decays (max_lr - min_lr) by the cosine but does not add min_lr back.
# expect: looks like min_lr was not added back
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr)
