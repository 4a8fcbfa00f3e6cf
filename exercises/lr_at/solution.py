import math


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    """The learning rate at `step`: linear warmup, then cosine decay to min_lr, then min_lr."""
    if step < warmup_steps:
        return float(max_lr * (step + 1) / warmup_steps)     # step 0 already gets a non-zero rate
    if step >= max_steps:                                     # also when max_steps == warmup_steps
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)   # 0 at the end of warmup, 1 at max_steps
    return float(min_lr + 0.5 * (1 + math.cos(math.pi * r)) * (max_lr - min_lr))
