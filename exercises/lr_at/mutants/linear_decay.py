# Decays linearly from max_lr to min_lr instead of along half a cosine.
# expect: looks like a linear decay
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return float(min_lr)
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return max_lr - r * (max_lr - min_lr)
