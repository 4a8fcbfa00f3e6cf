import numpy as np

# In scope, no import needed (call them directly):
#   sinusoidal_pe(T, C)                                         step 2
#   layer_norm(x, gamma, beta, eps=1e-5)                        step 6
#   transformer_block(x, p, n_heads)                            step 12
#   gpt_logits(ids, p, n_heads)                                 step 13
#   cross_entropy(logits, targets) -> float                     step 14
#   cross_entropy_grad(logits, targets) -> dlogits              step 15
#   layer_norm_backward(x, gamma, dout, eps=1e-5) -> (dx, dgamma, dbeta)     step 23
#   embedding_backward(ids, dout, V) -> dW_E                                 step 25
#   transformer_block_backward(x, p, n_heads, dout) -> (dx, grads)           step 26
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def gpt_loss_and_grads(ids, targets, p, n_heads):
    """The loss cross_entropy(gpt_logits(ids, p, n_heads), targets) and its gradient for every parameter.

    Args:
        ids: the T input token ids, a 1-D integer numpy array or a list of ints in [0, V).
        targets: the T target ids (the token after each position), an array or a list of ints.
        p: dict of parameters, as in step 13:
            "W_E": (V, C), the token embedding table, also the (tied) output layer
            "blocks": list of L >= 0 dicts, one per transformer block (step 12's keys)
            "lnf_g", "lnf_b": (C,), the final layer norm
        n_heads: number of attention heads in every block.

    Returns:
        A pair (loss, grads): loss a real number; grads a dict with p's structure,
        {"W_E": (V, C), "blocks": [one dict of twelve gradients per block, in order],
         "lnf_g": (C,), "lnf_b": (C,)}. The arguments are left unchanged.
    """
    # TODO: the loss and the gradient of every parameter.
    raise NotImplementedError
