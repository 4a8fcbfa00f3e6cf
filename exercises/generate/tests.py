"""Hidden tests for generate(ids, p, n_heads, n_new, rng, temperature=1.0, top_k=None).

The tests carry their own small GPT (the step-13 forward pass written again
below: attention with explicit loops and math.exp, the positional table with
math.sin/math.cos), independent of solution.py and of the earlier steps in the learner's scope.  The expected sequence for a seed is built the specified way: a fresh
np.random.default_rng(seed), and at every step one rng.choice(V, p=p) on it with
p the top-k-filtered softmax of the last position's logits / temperature.  The
learner's call never advances the tests' generators (offline the generator
crosses as its state, in the browser it is deep-copied).  When a sequence is
wrong, the tests replay classic mistakes (context cut to the last token, row 0
of the logits, a context that never grows, ...) so the message can name one.
"""

import math

import numpy as np

from grader.core.checks import fail, type_got, type_name
from grader.core.testkit import diagnose


# ---- a tiny GPT, written again ------------------------------------------------------------------

_HIDDEN = 16


def _model(seed, V, C):
    """Parameters of a one-block GPT, drawn from a fixed seed."""
    g = np.random.default_rng(seed)
    block = {
        "ln1_g": 1.0 + 0.1 * g.standard_normal(C), "ln1_b": 0.1 * g.standard_normal(C),
        "W_q": g.standard_normal((C, C)), "W_k": g.standard_normal((C, C)),
        "W_v": g.standard_normal((C, C)), "W_o": g.standard_normal((C, C)),
        "ln2_g": 1.0 + 0.1 * g.standard_normal(C), "ln2_b": 0.1 * g.standard_normal(C),
        "W1": g.standard_normal((C, _HIDDEN)), "b1": 0.1 * g.standard_normal(_HIDDEN),
        "W2": g.standard_normal((_HIDDEN, C)), "b2": 0.1 * g.standard_normal(C),
    }
    return {"W_E": 0.5 * g.standard_normal((V, C)), "blocks": [block],
            "lnf_g": 1.0 + 0.1 * g.standard_normal(C), "lnf_b": 0.1 * g.standard_normal(C)}


# (params seed, V, C, n_heads): small enough for Pyodide, big enough to tell mistakes apart.
_MODELS = {"A": (11, 10, 8, 2), "B": (12, 12, 8, 4), "C": (13, 9, 8, 1)}
_params_cache = {}


def _params(name):
    if name not in _params_cache:
        seed, V, C, _ = _MODELS[name]
        _params_cache[name] = _model(seed, V, C)
    return _params_cache[name]


def _norm(x, g, b):
    """Layer norm of each row: biased variance, eps = 1e-5 inside the square root."""
    mu = x.sum(axis=1, keepdims=True) / x.shape[1]
    var = ((x - mu) ** 2).sum(axis=1, keepdims=True) / x.shape[1]
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


def _positions(T, C):
    return np.array([[math.sin(t / 10000.0 ** (j / C)) if j % 2 == 0 else math.cos(t / 10000.0 ** ((j - 1) / C))
                      for j in range(C)] for t in range(T)], dtype=np.float64).reshape(T, C)


def _heads(x, blk, n_heads):
    """Causal multi-head self-attention with explicit loops over heads, queries and keys."""
    T, C = x.shape
    D = C // n_heads
    q, k, v = x @ blk["W_q"], x @ blk["W_k"], x @ blk["W_v"]
    out = np.zeros((T, C))
    for h in range(n_heads):
        cols = slice(h * D, (h + 1) * D)
        for i in range(T):
            scores = [float(np.dot(q[i, cols], k[j, cols])) / math.sqrt(D) for j in range(i + 1)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for j in range(i + 1):
                out[i, cols] += (weights[j] / total) * v[j, cols]
    return out @ blk["W_o"]


def _feed_forward(x, blk):
    a = x @ blk["W1"] + blk["b1"]
    a = 0.5 * a * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * a ** 3)))
    return a @ blk["W2"] + blk["b2"]


_logits_cache = {}


def _logits(name, context):
    """All the logits (T, V) of model `name` for the context (a tuple of ids), cached."""
    key = (name, tuple(context))
    if key not in _logits_cache:
        P = _params(name)
        n_heads = _MODELS[name][3]
        ids = list(context)
        x = np.array([P["W_E"][i] for i in ids]) + _positions(len(ids), P["W_E"].shape[1])
        for blk in P["blocks"]:
            x = x + _heads(_norm(x, blk["ln1_g"], blk["ln1_b"]), blk, n_heads)
            x = x + _feed_forward(_norm(x, blk["ln2_g"], blk["ln2_b"]), blk)
        _logits_cache[key] = _norm(x, P["lnf_g"], P["lnf_b"]) @ P["W_E"].T
    return _logits_cache[key]


def _probs(row, temperature, top_k):
    """The sampling distribution of step 16 for one row of logits, as a list."""
    row = [float(v) for v in row]
    kth = sorted(row, reverse=True)[top_k - 1] if top_k is not None else -math.inf
    scaled = [v / temperature if v >= kth else -math.inf for v in row]
    top = max(scaled)
    exps = [math.exp(s - top) if s != -math.inf else 0.0 for s in scaled]
    total = sum(exps)
    return [e / total for e in exps]


def _expected(name, prompt, n_new, seed, temperature=1.0, top_k=None, mistake=None):
    """The sequence generate must return; `mistake` replays a classic mistake instead."""
    rng = np.random.default_rng(seed)
    sequence = [int(i) for i in prompt]
    for _ in range(n_new):
        context, row = sequence, -1
        if mistake == "last_token":
            context = sequence[-1:]
        elif mistake == "prompt_only":
            context = list(prompt)
        elif mistake == "window":
            context = sequence[-len(prompt):]
        elif mistake in ("crop_8", "crop_16"):
            context = sequence[-int(mistake[5:]):]
        elif mistake == "first_row":
            row = 0
        logits = _logits(name, context)[row]
        if mistake == "greedy":
            sequence.append(max(range(len(logits)), key=lambda j: (logits[j], -j)))
            continue
        t = 1.0 if mistake == "no_temperature" else temperature
        used_top_k = None if mistake == "no_top_k" else top_k
        p = _probs(logits, t, used_top_k)
        sequence.append(int(rng.choice(len(p), p=np.array(p, dtype=np.float64))))
    return sequence


_MISTAKES = [
    ("last_token", "looks like only the last token was fed to gpt_logits: the whole sequence so far is the "
                   "context at every step"),
    ("prompt_only", "looks like the context never grew: call gpt_logits on the prompt plus every id generated "
                    "so far"),
    ("window", "looks like the context was kept at the prompt's length (a sliding window): the whole sequence "
               "so far is the context"),
    ("crop_8", "looks like the context was cropped to the last 8 tokens (nanoGPT's idx[:, -block_size:]): this "
               "model has no block size, the whole sequence so far is the context"),
    ("crop_16", "looks like the context was cropped to the last 16 tokens (nanoGPT's idx[:, -block_size:]): this "
                "model has no block size, the whole sequence so far is the context"),
    ("first_row", "looks like the token was sampled from logits[0] (the prediction after the first token): use "
                  "logits[-1], the last position"),
    ("greedy", "looks like argmax at every step: sample with sample_token(logits[-1], rng, temperature, top_k)"),
    ("no_temperature", "looks like the temperature was not passed on to sample_token"),
    ("no_top_k", "looks like top_k was not passed on to sample_token"),
]


def _mistakes(cases):
    """(every sequence, joined, hint) for each classic mistake replayed on `cases`, (name, prompt, n_new,
    seed, temperature, top_k) tuples."""
    return [(lambda mistake=mistake: sum((_expected(*case, mistake=mistake) for case in cases), []), hint)
            for mistake, hint in _MISTAKES]


# ---- calling the learner's function -------------------------------------------------------------

def _describe(name, prompt, n_new, seed, temperature, top_k, as_array):
    n_heads = _MODELS[name][3]
    shown = f"np.array({list(prompt)})" if as_array else f"{list(prompt)}"
    args = [shown, f"p (model {name}: V={_MODELS[name][1]}, C={_MODELS[name][2]}, one block)", f"n_heads={n_heads}",
            f"n_new={n_new}", f"rng=np.random.default_rng({seed})"]
    if temperature != 1.0:
        args.append(f"temperature={temperature:g}")
    if top_k is not None:
        args.append(f"top_k={top_k}")
    return f"generate({', '.join(args)})"


def _raw(generate, name, prompt, n_new, seed, temperature=1.0, top_k=None, as_array=False):
    """Call the learner's function; return (its raw result, description)."""
    what = _describe(name, prompt, n_new, seed, temperature, top_k, as_array)
    kwargs = {}
    if temperature != 1.0:
        kwargs["temperature"] = temperature
    if top_k is not None:
        kwargs["top_k"] = top_k
    ids = np.array(prompt, dtype=np.int64) if as_array else [int(i) for i in prompt]
    result = generate(ids, _params(name), _MODELS[name][3], n_new, np.random.default_rng(seed), **kwargs)
    return result, what


def _ids(result, what):
    """The learner's sequence as a list of ints (Python ints or numpy integers)."""
    kind = type(result)
    if issubclass(kind, np.ndarray):
        array = np.asarray(result)
        if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer):
            fail(f"{what} should return a list of token ids, got an array of shape {tuple(array.shape)} "
                 f"and dtype {array.dtype}")
        return [int(v) for v in array.tolist()]
    if not issubclass(kind, (list, tuple)):
        fail(f"{what} should return a list of token ids, got {type_got(result)}")
    out = []
    for index, item in enumerate(list.__iter__(result) if issubclass(kind, list) else tuple.__iter__(result)):
        item_kind = type(item)
        if issubclass(item_kind, (bool, np.bool_)) or not issubclass(item_kind, (int, np.integer)):
            hint = " (a nested list? append the id itself)" if issubclass(item_kind, (list, tuple, np.ndarray)) else ""
            fail(f"{what}: element {index} should be a token id (an int), got {type_name(item)}{hint}")
        out.append(int(item))
    return out


def _structure(got, name, prompt, n_new, what):
    """Fail unless `got` is the prompt followed by n_new ids in [0, V)."""
    V = _MODELS[name][1]
    want_length = len(prompt) + n_new
    if len(got) != want_length:
        hint = ""
        if len(got) == n_new and n_new != want_length:
            hint = " (looks like only the new ids: return the prompt followed by them)"
        elif len(got) == want_length - 1:
            hint = " (one id short: the loop must run n_new times)"
        elif len(got) == want_length + 1:
            hint = " (one id too many: the loop must run n_new times)"
        fail(f"{what}: expected {want_length} ids (the {len(prompt)} of the prompt and {n_new} new ones), "
             f"got {len(got)}: {got}{hint}")
    if got[:len(prompt)] != list(prompt):
        fail(f"{what}: the result should start with the prompt {list(prompt)}, got {got}")
    bad = [i for i in got[len(prompt):] if not 0 <= i < V]
    if bad:
        fail(f"{what}: new id {bad[0]} is not a token id in [0, {V})")


def _check(generate, cases, *, as_array=False, repeat=True):
    """Every case gives its expected sequence; otherwise fail with the first bad case and a diagnosis."""
    got = []
    for case in cases:
        name, prompt, n_new = case[:3]
        result, what = _raw(generate, *case, as_array=as_array)
        sequence = _ids(result, what)
        _structure(sequence, name, prompt, n_new, what)
        got.append(sequence)
    if repeat:
        result, what = _raw(generate, *cases[0], as_array=as_array)
        again = _ids(result, what)
        if again != got[0]:
            fail(f"{what} returned {got[0]} and then {again}: two calls with generators in the same state must "
                 f"return the same sequence. Draw only with the rng argument (through sample_token), never with "
                 f"np.random.* or the random module, and do not create a new generator")
    for case, sequence in zip(cases, got):
        want = _expected(*case)
        if sequence != want:
            bad = sum(1 for c, s in zip(cases, got) if s != _expected(*c))
            first = next(i for i in range(len(want)) if sequence[i] != want[i])
            # On greedy prompts some mistakes give the same ids: all of them are named.
            hint = diagnose(sum(got, []), _mistakes(cases), correct=sum((_expected(*c) for c in cases), []),
                            atol=0.0, pick="all")
            fail(f"{_describe(*case, as_array)}: expected {want}, got {sequence} (first difference at index {first}; "
                 f"{bad} of {len(cases)} calls differ){hint}")
    return got


# ---- tests --------------------------------------------------------------------------------------

def test_returns_list_of_ints(generate):
    """Returns a Python list of token ids (for a list or an array prompt)"""
    for name, prompt, as_array in [("A", [1, 2, 3], True), ("B", [4, 0], False), ("A", [5], True)]:
        result, what = _raw(generate, name, prompt, 3, 0, top_k=1, as_array=as_array)
        _ids(result, what)
        if type(result) is not list:
            fail(f"{what} should return a Python list, got {type_name(result)}: build the sequence as a list, "
                 f"e.g. sequence = [int(i) for i in ids]")


def test_prompt_then_new_ids(generate):
    """Returns the prompt followed by n_new new ids (n_new = 0, 1 and 4)"""
    for name, prompt, n_new, seed, as_array in [("A", [1, 2, 3], 0, 0, False), ("A", [3, 1, 4, 1, 5], 1, 1, True),
                                                ("B", [7, 2], 4, 2, False), ("C", [0, 8, 3], 4, 3, True)]:
        result, what = _raw(generate, name, prompt, n_new, seed, as_array=as_array)
        _structure(_ids(result, what), name, prompt, n_new, what)


def test_greedy(generate):
    """top_k=1 is greedy decoding: each new id is the argmax of the last position's logits"""
    cases = [("A", [1, 2, 3], 5, 0, 1.0, 1), ("B", [4, 0, 11], 5, 0, 1.0, 1),
             ("C", [6, 2, 7, 1], 5, 0, 1.0, 1), ("B", [9, 3, 3, 5, 0, 2], 4, 0, 1.0, 1)]
    _check(generate, cases, repeat=False)


def test_seeded_sampling(generate):
    """Samples every step with the one generator given (seeded sequences match)"""
    cases = [("A", [1, 2, 3], 5, seed, 1.0, None) for seed in range(4)]
    cases += [("B", [5, 10, 2], 4, seed, 1.0, None) for seed in range(10, 13)]
    cases += [("C", [8, 4], 5, 20, 1.0, None)]
    _check(generate, cases)
    _check(generate, [("B", [0, 1, 2, 3], 3, 30, 1.0, None)], as_array=True, repeat=False)


def test_temperature_and_top_k(generate):
    """Passes temperature and top_k on to every sampling step"""
    _check(generate, [("A", [1, 2, 3], 5, seed, 2.0, None) for seed in range(3)], repeat=False)
    _check(generate, [("B", [5, 10, 2], 5, seed, 0.7, 3) for seed in range(3)], repeat=False)
    _check(generate, [("C", [8, 4, 1], 4, seed, 3.0, 2) for seed in range(3)], repeat=False)
    # A temperature near 0 is greedy too.
    _check(generate, [("A", [2, 7], 4, 5, 1e-4, None)], repeat=False)


def test_whole_sequence_context(generate):
    """Each step sees the whole sequence so far (one-token prompts, prompts differing only in their first id)"""
    _check(generate, [("A", [4], 5, 40, 1.0, 1), ("C", [2], 5, 41, 1.0, None)], repeat=False)
    # Same last tokens, different first token: with the whole sequence as context the continuations differ.
    _check(generate, [("B", [first, 6, 1], 5, 50, 1.0, 1) for first in (3, 8)], repeat=False)


def test_long_context(generate):
    """A context of 20 tokens and more is used whole (no crop to the last 8 or 16 tokens)"""
    prompt = [3, 1, 4, 1, 5, 0, 2, 6, 5, 3, 5, 8, 7, 7, 0, 3, 2, 3, 8, 4, 6, 2]      # 22 ids, all < V of every model
    _check(generate, [("A", prompt, 5, 60, 1.0, 1), ("C", prompt[:20], 5, 61, 1.0, 1),
                      ("B", prompt, 5, 62, 1.0, None)], repeat=False)
