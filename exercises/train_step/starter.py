import numpy as np

# In scope, no import needed (call them directly):
#   gpt_loss_and_grads(ids, targets, p, n_heads) -> (loss, grads like p)   step 27
#   adamw_step(param, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8,
#              weight_decay=0.01) -> (param, m, v)                          step 28
#   clip_grad_norm(grads, max_norm) -> (clipped list, total_norm)            step 29
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def train_step(p, opt, x, y, n_heads, lr, weight_decay=0.01, max_norm=1.0):
    """One optimisation step of the GPT on a batch.

    Args:
        p: the GPT's parameters (step 13): {"W_E", "blocks": [block dicts], "lnf_g", "lnf_b"}.
        opt: None on the first call, else {"t": int, "m": like p, "v": like p} from the previous call.
        x, y: integer arrays of shape (B, T): B sequences of token ids and their targets.
        n_heads: the number of heads of every block.
        lr, weight_decay, max_norm: for adamw_step and clip_grad_norm.

    Returns:
        (new_p, new_opt, loss): the batch's loss before the update, new parameters shaped like p after
        one clipped AdamW step (the statement's contract), and new_opt = {"t", "m", "v"} for the next call.
        p and opt are left unchanged: new dicts, lists and arrays are returned.
    """
    # TODO: average the gradients over the batch, clip them all at once, then one adamw_step per array.
    raise NotImplementedError
