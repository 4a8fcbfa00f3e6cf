import numpy as np

# In scope, no import needed (call them directly):
#   gpt_logits(ids, p, n_heads)                              step 13
#   sample_token(logits, rng, temperature=1.0, top_k=None)   step 16
# In the browser they are your own passing code for those steps (or the references until you
# solve them); offline, the references.


def generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None):
    """Autoregressive sampling from a small GPT.

    Args:
        ids: the prompt, token ids in [0, V): a list of ints or a 1-D integer numpy array.
        p: the model's parameters, as in step 13 ("W_E", "blocks", "lnf_g", "lnf_b").
        n_heads: number of attention heads in every block.
        n_new: how many tokens to generate (0 or more).
        rng: a numpy.random.Generator, passed on to sample_token at every step.
        temperature, top_k: passed on to sample_token at every step.

    Returns:
        A Python list of Python ints: the prompt followed by the n_new new ids,
        of length len(ids) + n_new. Repeat n_new times:
            logits = gpt_logits(sequence, p, n_heads)      # the whole sequence so far
            sequence.append(sample_token(logits[-1], rng, temperature, top_k))
    """
    # TODO: start from the prompt as a list of ints, then predict and append n_new times.
    raise NotImplementedError
