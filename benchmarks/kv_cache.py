"""Decoding with a key-value cache (step 37's gpt_step) against recomputing the whole sequence, in the same run.

Baseline: what `generate` (step 17) does, `gpt_logits(ids[:t + 1], p, n_heads)[-1]` for every new token,
which runs the model on t + 1 positions at position t.  Measured: `gpt_step(ids[t], p, n_heads, cache)`
with the cache of the previous call, one position per call.  Both are the references, run as offline
grading runs them (the references of the steps they use in scope), on the same random model and ids;
the two must give the same logits (the largest difference is printed).  Figures are the time per token
over --tokens tokens (default 64, the issue's figure), the best of --repeat runs.

    python benchmarks/kv_cache.py [--tokens 64] [--repeat 5]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercise import ExerciseError, load_exercise  # noqa: E402
from grader.track import reference_function  # noqa: E402

V, C, F, LAYERS, HEADS = 65, 64, 256, 4, 4   # a small character-level GPT


def reference(exercise_id):
    """The reference entry function of an exercise, the references of what it uses in scope."""
    try:
        return reference_function(load_exercise(exercise_id))
    except ExerciseError as exc:
        sys.exit(str(exc))


def random_model(rng):
    def block():
        return {"ln1_g": np.ones(C), "ln1_b": np.zeros(C), "ln2_g": np.ones(C), "ln2_b": np.zeros(C),
                **{name: rng.normal(0, C ** -0.5, (C, C)) for name in ("W_q", "W_k", "W_v", "W_o")},
                "W1": rng.normal(0, C ** -0.5, (C, F)), "b1": np.zeros(F),
                "W2": rng.normal(0, F ** -0.5, (F, C)), "b2": np.zeros(C)}
    return {"W_E": rng.normal(0, 1, (V, C)), "blocks": [block() for _ in range(LAYERS)],
            "lnf_g": np.ones(C), "lnf_b": np.zeros(C)}


def recompute(gpt_logits, ids, p):
    return [gpt_logits(ids[:t + 1], p, HEADS)[-1] for t in range(len(ids))]


def with_cache(gpt_step, ids, p):
    rows, cache = [], None
    for token_id in ids:
        logits, cache = gpt_step(token_id, p, HEADS, cache)
        rows.append(logits)
    return rows


def seconds_per_token(decode, ids, repeat):
    """(best seconds per token over `repeat` runs, the logits of the last run)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        rows = decode(ids)
        best = min(best, (time.perf_counter() - started) / len(ids))
    return best, np.array(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=64, help="tokens decoded per run (default 64)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each, the best is kept (default 5)")
    args = parser.parse_args()
    gpt_logits, gpt_step = reference("gpt_logits"), reference("gpt_step")
    rng = np.random.default_rng(0)
    p = random_model(rng)
    ids = [int(i) for i in rng.integers(0, V, size=args.tokens)]

    baseline, expected = seconds_per_token(lambda ids: recompute(gpt_logits, ids, p), ids, args.repeat)
    cached, got = seconds_per_token(lambda ids: with_cache(gpt_step, ids, p), ids, args.repeat)

    print(f"{args.tokens} tokens, V={V}, C={C}, F={F}, {LAYERS} blocks, {HEADS} heads, best of {args.repeat}")
    print(f"  {'gpt_logits on the whole sequence per token (baseline)':<56} {baseline * 1e3:8.3f} ms/token")
    print(f"  {'gpt_step with its cache':<56} {cached * 1e3:8.3f} ms/token")
    print(f"Cache: x{baseline / cached:.1f} faster per token; "
          f"largest difference in the logits {float(np.abs(got - expected).max()):.1e}")


if __name__ == "__main__":
    main()
