# expect: passed
import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps or max_steps == warmup_steps:
        return float(min_lr)
    progress = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + (max_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2
