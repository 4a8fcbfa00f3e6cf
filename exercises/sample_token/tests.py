"""Hidden tests for sample_token(logits, rng, temperature=1.0, top_k=None).

The expected token for a seed is the draw the statement specifies, made here
with a fresh np.random.default_rng(seed): rng.choice(V, p=p), with p computed
in plain Python (math.exp) independently of solution.py.  The learner's call
never advances the tests' own generators (offline the generator crosses as its
state, in the browser it is deep-copied), so every expected draw is made from a
fresh generator.  When the tokens differ, the tests replay the classic mistakes
(argmax, a multiplied temperature, top-k keeping the smallest logits, a second
draw, ...) on the same seeds so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, type_name
from grader.core.testkit import as_int, expect_frequencies


# ---- the specified distribution and draw --------------------------------------------------------

def _probs(logits, temperature=1.0, top_k=None, *, multiply=False, smallest=False):
    """softmax(filtered logits / temperature) as a list; the keywords reproduce mistakes."""
    logits = [float(v) for v in logits]
    keep = [True] * len(logits)
    if top_k is not None:
        if smallest:
            kth = sorted(logits)[min(top_k, len(logits)) - 1]
            keep = [v <= kth for v in logits]
        else:
            kth = sorted(logits, reverse=True)[min(top_k, len(logits)) - 1]
            keep = [v >= kth for v in logits]
    scaled = [(v * temperature if multiply else v / temperature) for v in logits]
    top = max(s for s, k in zip(scaled, keep) if k)
    exps = [math.exp(s - top) if k else 0.0 for s, k in zip(scaled, keep)]
    total = sum(exps)
    return [e / total for e in exps]


def _draw(p, seed):
    """The specified draw: one rng.choice over all V ids with a fresh generator."""
    return int(np.random.default_rng(seed).choice(len(p), p=np.array(p, dtype=np.float64)))


def _argmax(values):
    return max(range(len(values)), key=lambda j: (values[j], -j))


def _variants(logits, temperature, top_k):
    """(name, seed -> token, hint) for the classic mistakes on these arguments."""
    p = _probs(logits, temperature, top_k)
    V = len(logits)
    out = [
        (lambda s: _argmax(logits),
         "looks like np.argmax: the token must be drawn at random with rng.choice(len(p), p=p)"),
        (lambda s: int(np.random.default_rng(s).choice(V)),
         "looks like a uniform draw: pass the probabilities, rng.choice(len(p), p=p)"),
        (lambda s: int(np.argmax(np.random.default_rng(s).multinomial(1, np.array(p)))),
         "looks like rng.multinomial: the distribution is right, but the specified draw is "
         "rng.choice(len(p), p=p), which gives a different token for the same seed"),
        (lambda s: _second_draw(p, s),
         "looks like the generator was used twice (e.g. an rng.random() or an extra rng.choice before "
         "the one that counts): make exactly one draw, rng.choice(len(p), p=p)"),
        (lambda s: _draw(_probs(logits, 1.0, None), s),
         "looks like the plain softmax(logits) was sampled, ignoring temperature and top_k"),
    ]
    if temperature != 1.0:
        out.append((lambda s: _draw(_probs(logits, temperature, top_k, multiply=True), s),
                    "looks like the logits were multiplied by the temperature: divide them, logits / temperature"))
        out.append((lambda s: _draw(_probs(logits, 1.0, top_k), s),
                    "looks like the temperature was ignored: divide the logits by it before the softmax"))
    if top_k is not None and top_k < V:
        out.append((lambda s: _draw(_probs(logits, temperature, top_k, smallest=True), s),
                    "looks like top_k kept the k smallest logits: keep the k largest (set every logit below "
                    "the k-th largest to -inf)"))
        out.append((lambda s: _draw(_probs(logits, temperature, None), s),
                    "looks like top_k was ignored: set every logit below the k-th largest to -inf"))
        for order in (1, -1):
            # Exactly k ids, ties with the k-th largest broken by index (as argsort or argpartition do).
            exact = set(sorted(range(V), key=lambda j: (-logits[j], order * j))[:top_k])
            pe = _probs([v if j in exact else -math.inf for j, v in enumerate(logits)], temperature)
            out.append((lambda s, pe=pe: _draw(pe, s),
                        "looks like exactly k ids were kept (argsort or argpartition break ties): every logit "
                        "equal to the k-th largest must be kept too, so more than k ids can survive"))
        kept = sorted(range(V), key=lambda j: -logits[j])[:top_k]
        pk = _probs([logits[j] for j in kept], temperature)
        out.append((lambda s: kept[_draw(pk, s)],
                    "looks like the draw was made among the kept ids only, sorted by logit: the same seed "
                    "then lands on another token; draw over all V ids (rng.choice(len(p), p=p) with p = 0 "
                    "for the filtered ones)"))
    return out


def _second_draw(p, seed):
    rng = np.random.default_rng(seed)
    rng.random()
    return int(rng.choice(len(p), p=np.array(p, dtype=np.float64)))


# ---- calling the learner's function -------------------------------------------------------------

def _fmt(values):
    return "[" + ", ".join(f"{float(v):g}" for v in values) + "]"


def _describe(logits, seed, temperature, top_k):
    args = [f"np.array({_fmt(logits)})" if len(logits) <= 8 else f"logits of shape ({len(logits)},)",
            f"np.random.default_rng({seed})"]
    if temperature != 1.0:
        args.append(f"temperature={temperature:g}")
    if top_k is not None:
        args.append(f"top_k={top_k}")
    return f"sample_token({', '.join(args)})"


def _token(result, V, what):
    """The learner's token as an int (a Python int or a numpy integer)."""
    if issubclass(type(result), (float, np.floating)):
        fail(f"{what} should return a token id (an int), got {type_name(result)} (the id of the token, not its "
             f"probability or logit)")
    value = as_int(result, f"the result of {what}", of="a token id")
    if not 0 <= value < V:
        fail(f"{what} returned {value}, which is not a token id in [0, {V})")
    return value


def _sample(sample_token, logits, seed, temperature=1.0, top_k=None, *, dtype=np.float64):
    what = _describe(logits, seed, temperature, top_k)
    kwargs = {}
    if temperature != 1.0:
        kwargs["temperature"] = temperature
    if top_k is not None:
        kwargs["top_k"] = top_k
    result = sample_token(np.array(logits, dtype=dtype), np.random.default_rng(seed), **kwargs)
    return _token(result, len(logits), what), what


def _check_seeds(sample_token, logits, seeds, temperature=1.0, top_k=None, *, dtype=np.float64, repeat=3):
    """Every seed gives the specified draw; otherwise fail naming the first bad seed and the mistake."""
    p = _probs(logits, temperature, top_k)
    got = {}
    for seed in seeds:
        got[seed], what = _sample(sample_token, logits, seed, temperature, top_k, dtype=dtype)
    # Same generator state, same token: otherwise the draw does not (only) come from rng.
    for seed in seeds[:repeat]:
        again, what = _sample(sample_token, logits, seed, temperature, top_k, dtype=dtype)
        if again != got[seed]:
            fail(f"{what} returned {got[seed]} and then {again}: two calls with generators in the same state "
                 f"must return the same token. Draw with the rng argument only, not with np.random.* or "
                 f"the random module")
    bad = [s for s in seeds if got[s] != _draw(p, s)]
    if bad:
        seed = bad[0]
        hint = ""
        matches = list(dict.fromkeys(h for variant, h in _variants(logits, temperature, top_k)
                                     if all(variant(s) == got[s] for s in seeds)
                                     and any(variant(s) != _draw(p, s) for s in seeds)))
        if len(matches) == 1:
            hint = f" ({matches[0]})"
        elif len(logits) <= 8:
            hint = f" (p = {_fmt(round(v, 4) for v in p)})"
        fail(f"{_describe(logits, seed, temperature, top_k)}: expected token {_draw(p, seed)} (the draw "
             f"rng.choice({len(p)}, p=p) makes with this generator), got {got[seed]}; {len(bad)} of "
             f"{len(seeds)} seeds differ{hint}")
    return got


# ---- tests --------------------------------------------------------------------------------------

def test_returns_int(sample_token):
    """Returns one token id, an integer in [0, V)"""
    for logits, top_k in [([2.0, 1.0, 0.0, -1.0], None), ([0.5, 0.25], None), ([1.0, 3.0, 2.0], 1)]:
        what = _describe(logits, 0, 1.0, top_k)
        result = sample_token(np.array(logits), np.random.default_rng(0),
                              **({} if top_k is None else {"top_k": top_k}))
        _token(result, len(logits), what)


def test_seeded_draws(sample_token):
    """Matches the draw rng.choice(V, p=softmax(logits)) makes with the generator given"""
    _check_seeds(sample_token, [2.0, 1.0, 0.0, -1.0], list(range(12)))
    _check_seeds(sample_token, [0.3, -1.2, 2.5, 0.0, 1.1, -0.4, 0.9], list(range(100, 112)))
    rng = np.random.default_rng(2024)
    logits = [float(v) for v in rng.normal(0.0, 1.5, size=50)]
    _check_seeds(sample_token, logits, list(range(200, 210)), dtype=np.float32, repeat=0)


def test_temperature(sample_token):
    """Divides the logits by the temperature (seeded draws at temperatures 0.5, 2 and 10)"""
    logits = [2.0, 1.0, 0.0, -1.0, 0.5]
    for temperature, seeds in [(0.5, range(12)), (2.0, range(20, 32)), (10.0, range(40, 52))]:
        _check_seeds(sample_token, logits, list(seeds), temperature, repeat=1)


def test_near_zero_temperature(sample_token):
    """A temperature near 0 picks the argmax (without overflow)"""
    for logits, temperature in [([0.1, 2.0, 1.9, -3.0], 1e-3), ([50.0, 99.0, -100.0, 98.5, 0.0], 1e-6)]:
        want = _argmax(logits)
        for seed in range(6):
            try:
                got, what = _sample(sample_token, logits, seed, temperature)
            except ValueError as exc:
                hint = ""
                if "nan" in str(exc).lower():
                    hint = (f" (logits / temperature reaches {max(abs(v) for v in logits) / temperature:.3g}: "
                            f"np.exp overflows to inf and inf / inf is nan; subtract the maximum of "
                            f"logits / temperature before np.exp)")
                fail(f"{_describe(logits, seed, temperature, None)} raised ValueError: {exc}{hint}")
            if got != want:
                fail(f"{what}: expected the argmax, token {want} (its probability is 1 to within "
                     f"e^-100), got {got}{_single_hint(logits, temperature, None, seed, got)}")


def test_top_k_one_is_greedy(sample_token):
    """top_k=1 is greedy: always the largest logit"""
    for logits, temperature in [([0.3, -1.2, 2.5, 0.0, 2.4], 1.0), ([1.0, 0.9, 1.1], 5.0),
                                ([-2.0, -1.0, -3.0, -1.5], 1.0)]:
        want = _argmax(logits)
        for seed in range(8):
            got, what = _sample(sample_token, logits, seed, temperature, 1)
            if got != want:
                fail(f"{what}: with top_k=1 only the largest logit survives, so the token is {want} "
                     f"whatever the seed; got {got}{_single_hint(logits, temperature, 1, seed, got)}")


def test_top_k_keeps_ties(sample_token):
    """top_k keeps the k largest logits, and every logit tied with the k-th largest"""
    # Top 2 of [3, 2, 2, 1]: the 2nd largest is 2, so ids 0, 1 and 2 survive.
    logits = [3.0, 2.0, 2.0, 1.0]
    _check_seeds(sample_token, logits, list(range(30)), top_k=2, repeat=1)
    # Ties at the top, and k = V (keeps everything).
    _check_seeds(sample_token, [1.0, 3.0, 3.0, 2.0, 3.0, 0.0], list(range(30, 45)), top_k=2, repeat=0)
    _check_seeds(sample_token, [0.5, 1.5, -0.5, 1.0, 0.0, 2.0, -1.0], list(range(50, 62)), 1.5, 3, repeat=0)
    _check_seeds(sample_token, [0.5, 1.5, -0.5], list(range(70, 76)), top_k=3, repeat=0)


def test_distribution(sample_token):
    """Over many seeds, the frequencies follow softmax(logits / temperature) after top_k"""
    for logits, temperature, top_k, n in [([1.0, 0.0, 2.0, -1.0], 1.0, None, 240),
                                          ([1.0, 0.0, 2.0, -1.0, 0.5], 2.0, 3, 240)]:
        counts = [0] * len(logits)
        for seed in range(1000, 1000 + n):
            token, what = _sample(sample_token, logits, seed, temperature, top_k)
            counts[token] += 1
        setting = f"temperature={temperature:g}" + (f", top_k={top_k}" if top_k is not None else "")
        # A correct sampler of any kind (not only rng.choice) passes with probability above 1 - 1e-5.
        expect_frequencies(counts, _probs(logits, temperature, top_k), false_failure=1e-5, label="token",
                           what=f"sample_token(np.array({_fmt(logits)}), rng, {setting}) over {n} seeds")


def _single_hint(logits, temperature, top_k, seed, got):
    """A hint from one draw: only the mistakes that are unambiguous from one token."""
    p = _probs(logits, temperature, top_k)
    if p[got] == 0.0:
        return (f" (token {got} has probability 0 here: p = {_fmt(round(v, 4) for v in p)}"
                + ("; did top_k keep the k smallest logits?" if top_k is not None else "") + ")")
    if temperature != 1.0 and got == _draw(_probs(logits, temperature, top_k, multiply=True), seed):
        return " (looks like the logits were multiplied by the temperature: divide them)"
    return ""
