"""Pretrain the capstone's GPT with the reference steps and write exercises/capstone/weights.npz + weights.toml.

    python3 -m sitebuild.capstone_weights [--steps N] [--out FOLDER]

Deterministic from capstone.toml's [pretraining] seed: the same corpus, model and steps give the same weights
on the same numpy.  weights.toml records how they were made (corpus, model, schedule, final losses, file size).
"""

import os

# One BLAS thread: the matrices are small, and threads fighting over a shared machine's cores make every
# product many times slower.  Set before numpy is imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from grader.capstone import corpus_text, load_capstone, reference_earlier  # noqa: E402
from grader.core.capstone_session import Session  # noqa: E402

MAX_WEIGHTS_BYTES = 1_000_000
HELD_OUT_WINDOWS = 64      # for the recorded figure: more windows than the page's quick estimate
REPORT_EVERY = 250
SAMPLE_TEMPERATURE = 0.8
SAMPLE_PROMPT = "MACBETH.\n"


def pretraining_config(capstone, steps):
    """The session config for pretraining: the page's model and optimiser, [pretraining]'s batch, schedule, seed."""
    config = capstone.session_config()
    pre = capstone.pretraining
    config["training"].update(batch_size=pre["batch_size"], max_lr=pre["max_lr"], min_lr=pre["min_lr"],
                              warmup_steps=pre["warmup_steps"], max_steps=steps, seed=pre["seed"])
    return config


def pretrain(capstone, text, steps, out_folder, log=print, prompt=SAMPLE_PROMPT):
    """Train `steps` steps from the seed, write weights.npz and weights.toml into `out_folder`; return the figures."""
    config = pretraining_config(capstone, steps)
    session = Session(reference_earlier(capstone), config)
    info = session.set_text(text)
    session.init_weights(capstone.pretraining["seed"])
    log(f"corpus: {len(text)} characters, vocabulary {len(info['vocab'])}, unigram loss {info['unigram']:.4f} "
        f"(held out {info['unigram_held_out']:.4f}); model {config['model']}; {steps} steps of batch "
        f"{config['training']['batch_size']}")
    losses, started, cpu_started = [], time.perf_counter(), time.process_time()
    while len(losses) < steps:
        losses += [entry["loss"] for entry in session.train(min(REPORT_EVERY, steps - len(losses)))]
        elapsed = time.perf_counter() - started
        log(f"step {len(losses)}: loss {np.mean(losses[-100:]):.4f} (mean of the last 100), held out "
            f"{session.held_out_loss():.4f}, {len(losses) / elapsed:.2f} steps/s, {elapsed:.0f} s")
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    figures = {"train_loss": float(np.mean(losses[-100:])), "held_out_loss": session.held_out_loss(HELD_OUT_WINDOWS),
               "unigram": info["unigram"], "unigram_held_out": info["unigram_held_out"],
               "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1),
               "steps_per_second": round(steps / seconds, 2)}
    weights = session.weights_bytes()
    if len(weights) > MAX_WEIGHTS_BYTES:
        raise SystemExit(f"the weights take {len(weights)} bytes, more than {MAX_WEIGHTS_BYTES}: make the model "
                         f"smaller in capstone.toml's [model]")
    session.start_generation(prompt, SAMPLE_TEMPERATURE, 1.0, capstone.pretraining["seed"])
    sample = prompt + session.next_text(300)
    out_folder = Path(out_folder)
    out_folder.mkdir(parents=True, exist_ok=True)
    _write_atomically(out_folder / "weights.npz", weights)
    _write_atomically(out_folder / "weights.toml",
                      provenance(capstone, config, info, steps, figures, weights, sample).encode())
    log(f"train loss {figures['train_loss']:.4f}, held-out loss {figures['held_out_loss']:.4f}, unigram "
        f"{figures['unigram']:.4f} (held out {figures['unigram_held_out']:.4f}); {len(weights)} bytes; "
        f"{seconds:.0f} s ({cpu_seconds:.0f} s CPU)\nsample at temperature {SAMPLE_TEMPERATURE}:\n{sample}")
    return figures


def provenance(capstone, config, info, steps, figures, weights, sample):
    """weights.toml: how weights.npz was made."""
    corpus, training = capstone.corpus, config["training"]
    lines = ["# Written by `python3 -m sitebuild.capstone_weights`: how weights.npz was made. Do not edit.",
             "", "[corpus]", f"package = {_toml(corpus['package'])}", f"sha256 = {_toml(corpus['sha256'])}",
             f"members = {_toml(corpus['members'])}", f"held_out = {corpus['held_out']}",
             f"vocab_size = {len(info['vocab'])}", f"train_tokens = {info['train_tokens']}",
             f"held_out_tokens = {info['held_out_tokens']}", "", "[model]"]
    lines += [f"{key} = {value}" for key, value in config["model"].items()]
    lines += ["", "[pretraining]", f"steps = {steps}"]
    lines += [f"{key} = {_toml(training[key])}" for key in ("seed", "batch_size", "max_lr", "min_lr", "warmup_steps",
                                                             "weight_decay", "max_norm")]
    lines += [f"numpy = {_toml(np.__version__)}", "", "[result]"]
    lines += [f"{key} = {round(value, 4) if isinstance(value, float) else value}" for key, value in figures.items()]
    lines += [f"sample_temperature = {SAMPLE_TEMPERATURE}", f"sample = {_toml(sample)}", "", "[file]",
              'name = "weights.npz"', f"bytes = {len(weights)}",
              f"sha256 = {_toml(hashlib.sha256(weights).hexdigest())}"]
    return "\n".join(lines) + "\n"


def _toml(value):
    """A TOML value for a string, number or list of them (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def _write_atomically(path, data):
    """Write to a temporary file beside `path`, then rename it: a reader sees the old file or the new one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, help="training steps (default: capstone.toml's [pretraining] steps)")
    parser.add_argument("--out", type=Path, help="folder for weights.npz and weights.toml (default: the capstone's)")
    args = parser.parse_args(argv)
    capstone = load_capstone()
    pretrain(capstone, corpus_text(capstone), args.steps or capstone.pretraining["steps"], args.out or capstone.path,
             log=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
