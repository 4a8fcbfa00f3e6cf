"""The capstone: the learner's own steps (or the references) assembled into a character-level GPT that
trains and writes text.  Runs in CPython (tests, the weights script, benchmarks) and in Pyodide (the page's
worker calls the Session's methods; arguments and results are JSON-friendly).

Every step's entry function is wrapped, in every namespace where another step finds it, so that an
exception raised or a wrong result returned by any step, however deep inside another one (adamw_step
inside train_step), stops the session with a `StepFailed` naming that step and its source.  What the
session itself takes from a step's result (a loss, a learning rate, a token id) is converted where it is
used, once, and checked after conversion (finite floats, exact ints): a value whose own methods lie
(an int subclass, a 0-d object array whose __float__ is NaN) stops the session naming the step, not
with a traceback of the session's code.
"""

import io
import math
import operator
import time

import numpy as np

from grader.core import engine
from grader.core.engine import EarlierStep, describe_exception, load_earlier, one_line

# What the session calls itself (exercise ids); the others come in as what these use.
SESSION_STEPS = ("char_tokenize", "get_batch", "lr_at", "train_step", "gpt_logits", "cross_entropy", "gpt_step",
                 "top_p_filter", "sample_token")
# Initialisation, measured on the capstone's model (d_model 64, batch 4): with GPT-2's normal(0.02) the
# loss sits at the unigram baseline for ~130 steps before it goes below; with the blocks' matrices at
# 1/sqrt(fan_in) (Xavier-like: 0.125 here, GPT-2's 0.02 is about that for its d_model 768) and token embeddings
# of 0.3 (not drowned by the sinusoidal positions, of size 1 in every column), after ~30.
EMBEDDING_STD = 0.3
# The output layer is the token embeddings again (tied): a final layer-norm gain of 0.3 keeps the first logits
# small, so the loss starts near log V (every character equally likely) instead of above it.
FINAL_GAIN = 0.3
BLOCK_KEYS = ("ln1_g", "ln1_b", "W_q", "W_k", "W_v", "W_o", "ln2_g", "ln2_b", "W1", "b1", "W2", "b2")


class StepFailed(Exception):
    """A step raised an error or returned a wrong result.  str() is the learner-facing message."""

    def __init__(self, label, exercise_id, message):
        super().__init__(message)
        self.label, self.exercise_id = label, exercise_id


class Unusable(Exception):
    """Raised by a conversion of a step's result: str() says what the step returned ("a loss of nan, ...")."""


# The steps whose code is running, innermost last (the page's worker asks which one posted a message), and the
# seconds spent so far in the steps each of them called (its own time leaves those out).
_running = []
_called_seconds = []


def running_step():
    """The innermost running step whose code is the learner's (else the innermost one), or None."""
    return next((step for step in reversed(_running) if step.yours), _running[-1] if _running else None)


class Session:
    """A GPT built from the steps in `earlier` ([EarlierStep] or their dicts, dependencies first).

    `config` = {"model": {n_layers, n_heads, d_model, block_size},
                "training": {batch_size, max_lr, min_lr, warmup_steps, max_steps, weight_decay, max_norm, seed, ...},
                "fine_tuning": {batch_size, max_lr, min_lr, warmup_steps, max_steps}: the schedule of weights
                               loaded without one (trained weights, fine-tuned), the rest as "training",
                "held_out": fraction of the text (its tail) kept for the held-out loss}
    (grader/capstone.py's `Capstone.session_config()`).
    """

    def __init__(self, earlier, config):
        self.earlier = [step if isinstance(step, EarlierStep) else EarlierStep.from_dict(step) for step in earlier]
        self.model, self.training = dict(config["model"]), dict(config["training"])
        self.held_out_fraction = float(config.get("held_out", 0.1))
        if self.model["d_model"] % self.model["n_heads"]:
            raise ValueError(f"d_model ({self.model['d_model']}) must be a multiple of n_heads "
                             f"({self.model['n_heads']})")
        self.schedules = {"training": self.training, "fine_tuning": {**self.training, **config["fine_tuning"]}}
        self.times = {}          # exercise id -> [calls, seconds of its own code]: which step is slow
        self.steps = _wrapped_steps(self.earlier, self.times)
        self.by_id = {step.exercise_id: step for step in self.earlier}
        self.vocab, self.params, self.opt = None, None, None
        self.steps_done = 0      # training steps the current weights have had, pretraining included
        self.schedule = "training"   # which of self.schedules the learning rate follows
        self.schedule_step = 0   # where in it training is
        self.generation = None

    # ---- text -------------------------------------------------------------------------------------

    def set_text(self, text):
        """Tokenize `text` (step 31) and split it: the tail is held out.  Returns figures about it."""
        vocab, ids = self._call("char_tokenize", text)
        vocab = self._use("char_tokenize", vocab, _characters)
        if vocab != self.vocab:   # weights for another vocabulary do not fit this text
            self.params, self.opt, self.generation = None, None, None
        self.vocab, self.index = vocab, {c: i for i, c in enumerate(vocab)}
        ids = self._use("char_tokenize", ids, lambda ids: _token_ids(ids, len(vocab)))
        split = int(len(ids) * (1 - self.held_out_fraction))
        self.train_ids, self.held_out_ids = ids[:split], ids[split:]
        block = self.model["block_size"]
        for name, part in (("training", self.train_ids), ("held-out", self.held_out_ids)):
            if len(part) < block + 2:
                raise ValueError(f"the text is too short: its {name} part has {len(part)} characters, "
                                 f"at least {block + 2} are needed (block_size {block} + 2)")
        counts = np.bincount(self.train_ids, minlength=len(vocab)).astype(np.float64)
        train_probs = counts / counts.sum()
        # Held-out characters never seen in training would cost infinitely much: add-one smoothing there.
        smoothed = (counts + 1) / (counts.sum() + len(vocab))
        return {"vocab": list(vocab), "train_tokens": int(len(self.train_ids)),
                "held_out_tokens": int(len(self.held_out_ids)),
                "unigram": float(-np.mean(np.log(train_probs[self.train_ids]))),
                "unigram_held_out": float(-np.mean(np.log(smoothed[self.held_out_ids])))}

    # ---- weights ----------------------------------------------------------------------------------

    def init_weights(self, seed):
        """A fresh model: normal weight matrices of std 1/sqrt(fan_in), the residual projections (W_o, W2)
        scaled down by sqrt(2 n_layers) as in GPT-2 so the residual stream does not grow with depth; token
        embeddings of EMBEDDING_STD; the blocks' layer-norm gains 1, the final one FINAL_GAIN; biases 0."""
        self._need_text()
        rng = np.random.default_rng(seed)
        C, L = self.model["d_model"], self.model["n_layers"]
        shapes = self._shapes()

        def block():
            b = {}
            for key, shape in shapes["block"].items():
                if key.startswith("ln") and key.endswith("_g"):
                    b[key] = np.ones(shape)
                elif key in ("b1", "b2") or key.endswith("_b"):
                    b[key] = np.zeros(shape)
                else:
                    std = 1 / math.sqrt(shape[0]) / (math.sqrt(2 * L) if key in ("W_o", "W2") else 1)
                    b[key] = rng.normal(0.0, std, shape)
            return b
        self.params = {"W_E": rng.normal(0.0, EMBEDDING_STD, (len(self.vocab), C)),
                       "blocks": [block() for _ in range(L)], "lnf_g": np.full(C, FINAL_GAIN),
                       "lnf_b": np.zeros(C)}
        self._weights_set(steps_done=0, schedule="training", schedule_step=0)

    def load_weights(self, data):
        """Weights from .npz bytes (as weights_bytes writes them); refused unless the vocabulary and every
        shape match this session's text and model.  With the training state (weights_bytes(True)), training
        goes on where it was: same schedule, step and optimiser state; without it (the pretrained weights),
        training fine-tunes them (the "fine_tuning" schedule, from its start).
        Returns {"steps": training steps they have had}."""
        self._need_text()
        try:
            archive = np.load(io.BytesIO(bytes(data)), allow_pickle=False)
            arrays = {name: archive[name] for name in archive.files}
        except Exception as exc:
            raise ValueError(f"the weights are not a readable .npz file: {one_line(exc)}") from None
        vocab = str(arrays.pop("vocab", ""))
        if vocab != self.vocab:
            raise ValueError(f"the weights were trained on a vocabulary of {len(vocab)} characters, "
                             f"this text has {len(self.vocab)}: {_vocab_difference(vocab, self.vocab)}")
        steps = int(arrays.pop("steps", 0))
        schedule = str(arrays.pop("schedule", "fine_tuning"))
        schedule_step = int(arrays.pop("schedule_step", 0))
        if schedule not in self.schedules:
            raise ValueError(f"the weights name an unknown schedule {schedule!r} (known: {', '.join(self.schedules)})")
        opt = {name: arrays.pop(name) for name in [name for name in arrays if name.startswith("opt.")]}
        expected = self._expected_shapes()
        unknown = sorted(set(arrays) - set(expected))
        missing = sorted(set(expected) - set(arrays))
        if unknown or missing:
            raise ValueError(f"the weights do not fit this model ({self._model_text()}): "
                             + "; ".join(filter(None, [missing and f"missing {', '.join(missing)}",
                                                       unknown and f"unexpected {', '.join(unknown)}"])))
        for name, shape in expected.items():
            if arrays[name].shape != shape:
                raise ValueError(f"the weights do not fit this model ({self._model_text()}): {name} has shape "
                                 f"{arrays[name].shape}, expected {shape}")
        self.params = self._tree(arrays)
        self._weights_set(steps_done=steps, schedule=schedule, schedule_step=schedule_step)
        self.opt = self._optimiser(opt)
        return {"steps": steps}

    def weights_bytes(self, with_training=False):
        """The current parameters as .npz bytes (float32: half the size, precise enough to sample from and to
        train on); `with_training`: also the schedule, its step and the optimiser state, for load_weights to
        go on training from (the optimiser state is left out when it holds what an .npz cannot: then training
        goes on with a fresh one)."""
        self._need_weights()
        arrays = _flat_tree(self.params)
        extra = {}
        if with_training:
            extra = {"schedule": np.array(self.schedule), "schedule_step": np.array(self.schedule_step)}
            extra.update(_optimiser_arrays(self.opt))
        out = io.BytesIO()
        np.savez_compressed(out, vocab=np.array(self.vocab), steps=np.array(self.steps_done), **extra,
                            **{name: np.asarray(value, dtype=np.float32) for name, value in arrays.items()})
        return out.getvalue()

    def step_times(self):
        """{exercise id: {"calls", "ms"}}: the calls of each step so far and the milliseconds spent in its own
        code (the steps it calls left out), for the steps called at least once."""
        return {exercise_id: {"calls": calls, "ms": seconds * 1000}
                for exercise_id, (calls, seconds) in self.times.items() if calls > 0}

    # ---- training ---------------------------------------------------------------------------------

    def train(self, n_steps):
        """`n_steps` steps of train_step (step 35) on get_batch (32) batches at the rate lr_at (30) gives.
        Returns [{"step", "loss", "lr"}]; "step" counts from 1 since the weights were set."""
        self._need_weights()
        t, n_heads = self.schedules[self.schedule], self.model["n_heads"]
        history = []
        for _ in range(int(n_steps)):
            lr = self._call("lr_at", self.schedule_step, t["max_lr"], t["min_lr"], t["warmup_steps"],
                            t["max_steps"])
            lr = self._use("lr_at", lr, lambda value: _finite_number(value, "a learning rate"))
            x, y = self._call("get_batch", self.train_ids, self.model["block_size"], t["batch_size"], self.rng)
            self.params, self.opt, loss = self._call("train_step", self.params, self.opt, x, y, n_heads, lr,
                                                     t["weight_decay"], t["max_norm"])
            loss = self._use("train_step", loss, lambda value: _finite_number(value, "a loss"))
            self.schedule_step += 1
            self.steps_done += 1
            history.append({"step": self.schedule_step, "loss": loss, "lr": lr})
        return history

    def held_out_loss(self, n_windows=8):
        """Mean cross_entropy (step 14) of gpt_logits (13) on `n_windows` fixed, evenly spaced held-out windows."""
        self._need_weights()
        block = self.model["block_size"]
        starts = np.linspace(0, len(self.held_out_ids) - block - 1, int(n_windows)).astype(int)
        losses = []
        for start in starts:
            window = self.held_out_ids[start:start + block + 1]
            logits = self._call("gpt_logits", window[:-1], self.params, self.model["n_heads"])
            loss = self._call("cross_entropy", logits, window[1:])
            losses.append(self._use("cross_entropy", loss, lambda value: _finite_number(value, "a loss")))
        return float(np.mean(losses))

    # ---- generation -------------------------------------------------------------------------------

    def start_generation(self, prompt, temperature, top_p, seed):
        """Feed `prompt` through gpt_step (step 37) to fill the cache; next_text goes on from there."""
        self._need_weights()
        unknown = sorted(set(prompt) - set(self.vocab))
        if unknown:
            raise ValueError(f"the prompt has characters the model does not know: "
                             f"{', '.join(map(repr, unknown))} (it knows {len(self.vocab)} characters: "
                             f"{_vocab_summary(self.vocab)})")
        if not temperature > 0:
            raise ValueError(f"temperature should be more than 0, not {temperature}")
        if not 0 < top_p <= 1:
            raise ValueError(f"top_p should be more than 0 and at most 1, not {top_p}")
        if "\n" not in self.index and not prompt:
            raise ValueError("an empty prompt starts from a new line, which this vocabulary does not have")
        ids = [self.index[c] for c in (prompt or "\n")]
        self.generation = {"ids": ids, "temperature": float(temperature), "top_p": float(top_p),
                           "rng": np.random.default_rng(seed)}
        self._refill_cache()

    def next_text(self, n_tokens):
        """`n_tokens` more characters, each drawn with sample_token (step 16), after top_p_filter (38) when
        top_p < 1, from the logits of gpt_step (37), whose cache (step 36) holds the context."""
        if self.generation is None:
            raise ValueError("call start_generation first")
        state = self.generation
        out = []
        for _ in range(int(n_tokens)):
            logits = state["logits"] / state["temperature"]
            if state["top_p"] < 1:
                probs = self._call("top_p_filter", logits, state["top_p"])
                probs = self._use("top_p_filter", probs, _floats)
                with np.errstate(divide="ignore"):
                    logits = np.log(probs)          # -inf where filtered out: softmax gives those 0
            token = self._call("sample_token", logits, state["rng"], 1.0)
            token = self._use("sample_token", token, lambda value: _token_id(value, len(self.vocab)))
            state["ids"].append(token)
            out.append(self.vocab[token])
            if state["position"] >= self.model["block_size"]:
                # The context is full: the model never saw positions past block_size.  Start a new cache
                # from the last block_size // 2 tokens (fed again at positions 0, 1, ...), so that each
                # restart costs half a context of gpt_step calls and leaves room for as many new tokens.
                state["ids"] = state["ids"][-(self.model["block_size"] // 2):]
                self._refill_cache()
            else:
                self._feed(token)
        return "".join(out)

    def _refill_cache(self):
        state = self.generation
        state["cache"], state["position"] = None, 0
        for token in state["ids"][-self.model["block_size"]:]:
            self._feed(token)

    def _feed(self, token):
        state = self.generation
        logits, state["cache"] = self._call("gpt_step", token, self.params, self.model["n_heads"], state["cache"])
        state["logits"] = self._use("gpt_step", logits, _floats)
        state["position"] += 1

    # ---- helpers ----------------------------------------------------------------------------------

    def _call(self, exercise_id, *args):
        return self.steps[exercise_id](*args)

    def _use(self, exercise_id, value, convert):
        """convert(value): what the session takes from a result of the step `exercise_id`, or a StepFailed
        naming it (the conversion may run the learner's own methods, which may raise anything)."""
        step = self.by_id[exercise_id]
        try:
            return convert(value)
        except Unusable as exc:
            problem = str(exc)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            problem = f"{_kind(value)} that the session could not use ({type(exc).__name__}: {one_line(exc)})"
        raise StepFailed(step.label, step.exercise_id, f"{step.label.capitalize()} returned {problem}")

    def _weights_set(self, steps_done, schedule, schedule_step):
        self.opt, self.generation = None, None
        self.steps_done, self.schedule, self.schedule_step = steps_done, schedule, schedule_step
        # Training that goes on draws batches other than those it drew from its start.
        seed = self.training["seed"]
        self.rng = np.random.default_rng(seed if schedule_step == 0 else (seed, schedule_step))

    def _expected_shapes(self):
        """{name in the .npz: shape} of every parameter."""
        shapes = self._shapes()
        expected = {"W_E": shapes["W_E"], "lnf_g": shapes["lnf"], "lnf_b": shapes["lnf"]}
        for i in range(self.model["n_layers"]):
            expected.update({f"blocks.{i}.{key}": shape for key, shape in shapes["block"].items()})
        return expected

    def _tree(self, arrays):
        """The parameter tree of float64 arrays from {name in the .npz: array}."""
        as_float = {name: np.asarray(value, dtype=np.float64) for name, value in arrays.items()}
        return {"W_E": as_float["W_E"], "lnf_g": as_float["lnf_g"], "lnf_b": as_float["lnf_b"],
                "blocks": [{key: as_float[f"blocks.{i}.{key}"] for key in BLOCK_KEYS}
                           for i in range(self.model["n_layers"])]}

    def _optimiser(self, arrays):
        """The optimiser state from the .npz's "opt." arrays (as _optimiser_arrays names them), or None (a fresh
        one) when they are not all there with the parameters' shapes."""
        expected = self._expected_shapes()
        trees = {}
        for part in ("m", "v"):
            flat = {name: arrays.get(f"opt.{part}.{name}") for name in expected}
            if any(value is None or value.shape != expected[name] for name, value in flat.items()):
                return None
            trees[part] = self._tree(flat)
        others = {name[len("opt.other."):]: value for name, value in arrays.items() if name.startswith("opt.other.")}
        return {**{key: value.item() if value.shape == () else value for key, value in others.items()}, **trees}

    def _shapes(self):
        C, V = self.model["d_model"], len(self.vocab)
        block = {"ln1_g": (C,), "ln1_b": (C,), "W_q": (C, C), "W_k": (C, C), "W_v": (C, C), "W_o": (C, C),
                 "ln2_g": (C,), "ln2_b": (C,), "W1": (C, 4 * C), "b1": (4 * C,), "W2": (4 * C, C), "b2": (C,)}
        return {"W_E": (V, C), "lnf": (C,), "block": block}

    def _model_text(self):
        m = self.model
        return f"{m['n_layers']} layers, d_model {m['d_model']}, {len(self.vocab)} characters"

    def _need_text(self):
        if self.vocab is None:
            raise ValueError("call set_text first: the vocabulary comes from the text")

    def _need_weights(self):
        self._need_text()
        if self.params is None:
            raise ValueError("call init_weights or load_weights first")


# ---- the steps, wrapped ---------------------------------------------------------------------------

def _wrapped_steps(earlier, times):
    """{exercise id: wrapped entry function} for every step, each wrapped in every namespace that sees it; each
    call adds to times[exercise id] = [calls, seconds in the step's own code]."""
    scope, error = load_earlier(earlier)
    if error is not None:
        failing = next((s for s in earlier if error.startswith(s.label.capitalize())), None)
        # load_earlier writes for an exercise's page ("which this step uses", "before any test ran").
        _, _, description = error.partition("\n")
        if failing and description:
            shown = [line for line in description.splitlines() if not line.startswith("(raised in ")]
            error = f"{failing.label.capitalize()} raised an error while loading:\n" + "\n".join(shown)
        error = error.replace(", which this step uses,", "")
        raise StepFailed(failing.label if failing else None, failing.exercise_id if failing else None, error)
    missing = [step_id for step_id in SESSION_STEPS if step_id not in {s.exercise_id for s in earlier}]
    if missing:
        raise ValueError(f"the capstone needs the steps {', '.join(missing)}, which were not given")
    raw = {step.entry: scope[step.entry] for step in earlier}
    wrapped = {step.entry: _wrap(step, raw[step.entry], earlier, times) for step in earlier}
    for step in earlier:
        namespace = getattr(raw[step.entry], "__globals__", {})   # the module the step's code ran in
        for name, function in raw.items():
            if name != step.entry and namespace.get(name) is function:
                namespace[name] = wrapped[name]
    return {step.exercise_id: wrapped[step.entry] for step in earlier}


def _wrap(step, function, earlier, times):
    check = RESULT_CHECKS.get(step.exercise_id)
    check_arguments = ARGUMENT_CHECKS.get(step.exercise_id)
    # A wrong argument is its caller's slip: the one step that uses this one, when there is one.
    callers = [s for s in earlier if step.exercise_id in s.uses]
    caller = callers[0] if len(callers) == 1 else None
    spent = times.setdefault(step.exercise_id, [0, 0.0])

    def wrapped(*args, **kwargs):
        try:
            problem = check_arguments(*args, **kwargs) if check_arguments and caller else None
        except TypeError:  # other arguments than the step takes: the step's own call says what is wrong
            problem = None
        if problem is not None:
            raise StepFailed(caller.label, caller.exercise_id,
                             f"{caller.label.capitalize()} called {step.entry} with {problem}")
        _running.append(step)
        _called_seconds.append(0.0)
        started = time.perf_counter()
        try:
            result = function(*args, **kwargs)
        except (StepFailed, KeyboardInterrupt):
            raise   # a step it called failed (already named), or the page stopped the run
        except BaseException as exc:   # the learner's code may raise anything, SystemExit included
            engine._earlier_labels.update({s.filename: s for s in earlier})   # another load may have cleared them
            # The description's "(raised in ..., which this step uses)" line would repeat the step's name.
            lines = [line for line in describe_exception(exc).splitlines() if not line.startswith("(raised in ")]
            raise StepFailed(step.label, step.exercise_id,
                             f"{step.label.capitalize()} raised " + "\n".join(lines)) from None
        finally:
            _running.pop()
            seconds = time.perf_counter() - started
            spent[0] += 1
            spent[1] += seconds - _called_seconds.pop()
            if _called_seconds:
                _called_seconds[-1] += seconds
        try:   # the checks call the result's own methods (len, comparisons), which may raise anything
            problem = (check(result, *args, **kwargs) if check else None) or _non_finite(result)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            problem = f"a {type(result).__name__} that could not be checked ({type(exc).__name__}: {one_line(exc)})"
        if problem is not None:
            raise StepFailed(step.label, step.exercise_id, f"{step.label.capitalize()} returned {problem}")
        return result
    wrapped.__name__ = function.__name__
    return wrapped


# ---- what each step must return -------------------------------------------------------------------
# Each check gets (result, *the step's arguments) and returns None or what is wrong ("an array of shape ...").

def _non_finite(result, where="a result"):
    """What is wrong when a float array or number somewhere in `result` is NaN or infinite, else None."""
    if isinstance(result, (tuple, list)):
        for i, item in enumerate(result):
            problem = _non_finite(item, f"item {i} of its result")
            if problem:
                return problem
    elif isinstance(result, dict):
        for key, item in result.items():
            problem = _non_finite(item, f"{key!r} of its result")
            if problem:
                return problem
    elif isinstance(result, (float, np.floating)) or (isinstance(result, np.ndarray) and result.dtype.kind == "f"):
        if not np.isfinite(result).all():
            return f"{where} with NaN or infinite values"
    return None


def _shape(value):
    return getattr(value, "shape", None) if isinstance(value, np.ndarray) else None


def _array(value, shape, what):
    """None when `value` is a float array of `shape`, else what is wrong."""
    if not isinstance(value, np.ndarray):
        return f"{_kind(value)} for {what}, where an array of shape {tuple(shape)} was expected"
    if value.shape != tuple(shape):
        return f"an array of shape {value.shape} for {what}, where shape {tuple(shape)} was expected"
    if value.dtype.kind != "f":
        return f"an array of dtype {value.dtype} for {what}, where floats were expected"
    return None


def _number(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) and not (
            isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iuf"):
        return f"{_kind(value)} for {what}, where a number was expected"
    return None


# ---- what the session takes from a result: converted once, checked after conversion ---------------

def _finite_number(value, what):
    """`value` (a number, or a 0-d array of numbers) as a finite float; else Unusable."""
    problem = _number(value, what)
    if problem:
        raise Unusable(problem)
    number = float(value)   # an exact float, whatever the value's own __float__ does
    if not math.isfinite(number):
        raise Unusable(f"{what} of {number}, where a finite number was expected")
    return number


def _token_id(value, n):
    """`value` as an exact int from 0 to n - 1 (operator.index: an int subclass gives its own value)."""
    if isinstance(value, bool):
        raise Unusable(f"{value!r}, where a token id from 0 to {n - 1} was expected")
    try:
        token = operator.index(value)
    except TypeError:
        raise Unusable(f"{_kind(value)}, where a token id from 0 to {n - 1} was expected") from None
    if not 0 <= token < n:
        raise Unusable(f"{token}, where a token id from 0 to {n - 1} was expected")
    return token


def _token_ids(ids, n):
    """`ids` as an array of intp (what bincount and indexing take; int32 in Pyodide), each from 0 to n - 1."""
    array = np.asarray(ids)
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise Unusable(f"ids {_kind(array)} of dtype {array.dtype}, where whole numbers were expected")
    array = array.astype(np.intp)
    if len(array) and (array.min() < 0 or array.max() >= n):
        raise Unusable(f"ids that do not index the vocabulary of {n} characters")
    return array


def _floats(array):
    """A checked float array as a plain ndarray of float64: a subclass's own operators are not used."""
    return np.asarray(array, dtype=np.float64)


def _characters(vocab):
    """The vocabulary as one exact str (str.__str__ takes a str subclass's own characters)."""
    characters = [str.__str__(c) for c in vocab]
    if any(len(c) != 1 for c in characters) or len(set(characters)) != len(characters):
        raise Unusable("a vocabulary that is not distinct single characters")
    return "".join(characters)


def _pair(value, n, what):
    if not isinstance(value, (tuple, list)) or len(value) != n:
        return f"{_kind(value)}, where {what} was expected"
    return None


def _kind(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__}"


def _first(*problems):
    return next((p for p in problems if p), None)


def _like_params(tree, like, what):
    """None when `tree` has the arrays of the parameter tree `like`, with their shapes."""
    if isinstance(like, dict):
        if not isinstance(tree, dict) or set(tree) != set(like):
            return f"{_kind(tree)} for {what}, where a dict with keys {sorted(like)} was expected"
        return _first(*(_like_params(tree[k], like[k], f"{what}[{k!r}]") for k in like))
    if isinstance(like, list):
        if not isinstance(tree, list) or len(tree) != len(like):
            return f"{_kind(tree)} for {what}, where a list of {len(like)} was expected"
        return _first(*(_like_params(t, l, f"{what}[{i}]") for i, (t, l) in enumerate(zip(tree, like))))
    return _array(tree, np.shape(like), what)


def _same_shape(result, x, *rest, **kwargs):
    return _array(result, np.shape(x), "its result (the shape of its first argument)")


def _char_tokenize(result, text):
    problem = _pair(result, 2, "(vocab, ids)")
    if problem:
        return problem
    vocab, ids = result
    if not all(isinstance(c, str) and len(c) == 1 for c in vocab) or len(set(vocab)) != len(vocab):
        return "a vocabulary that is not distinct single characters"
    if len(ids) != len(text):
        return f"{len(ids)} ids for a text of {len(text)} characters"
    ids = np.asarray(ids)
    if ids.dtype.kind not in "iu" or (len(ids) and (ids.min() < 0 or ids.max() >= len(vocab))):
        return "ids that are not whole numbers indexing the vocabulary"
    if "".join(np.array(list(vocab))[ids]) != text:
        return "ids that do not spell the text again when looked up in the vocabulary"
    return None


def _get_batch(result, data, block_size, batch_size, rng):
    return _pair(result, 2, "(x, y)") or _first(*(
        f"an array of shape {np.shape(a)} for {name}, where ({batch_size}, {block_size}) was expected"
        if np.shape(a) != (batch_size, block_size) else
        f"{name} with values that are not token ids" if np.asarray(a).dtype.kind not in "iu" else None
        for name, a in zip("xy", result)))


def _lr_at(result, *args):
    return _number(result, "the learning rate")


def _train_step(result, p, opt, x, y, *args, **kwargs):
    problem = _pair(result, 3, "(new parameters, new optimiser state, loss)")
    if problem:
        return problem
    new_p, new_opt, loss = result
    if not isinstance(new_opt, dict) or not {"m", "v"} <= set(new_opt):
        return f"{_kind(new_opt)} for the optimiser state, where a dict with 'm' and 'v' was expected"
    return _first(_like_params(new_p, p, "the new parameters"), _like_params(new_opt["m"], p, "opt['m']"),
                  _like_params(new_opt["v"], p, "opt['v']"), _number(loss, "the loss"))


def _gpt_loss_and_grads(result, ids, targets, p, n_heads):
    problem = _pair(result, 2, "(loss, grads)")
    return problem or _first(_number(result[0], "the loss"), _like_params(result[1], p, "the gradients"))


def _gpt_logits(result, ids, p, n_heads):
    return _array(result, (len(ids), p["W_E"].shape[0]), "the logits")


def _cross_entropy(result, logits, targets):
    return _number(result, "the loss")


def _clip_grad_norm(result, grads, max_norm):
    problem = _pair(result, 2, "(clipped gradients, norm)")
    if problem:
        return problem
    clipped, norm = result
    if not isinstance(clipped, (list, tuple)) or len(clipped) != len(grads):
        return f"{_kind(clipped)} for the clipped gradients, where {len(grads)} arrays were expected"
    return _first(*(_array(c, np.shape(g), f"gradient {i}") for i, (c, g) in enumerate(zip(clipped, grads))),
                  _number(norm, "the norm"))


def _adamw_step(result, param, grad, m, v, *args, **kwargs):
    problem = _pair(result, 3, "(new param, new m, new v)")
    if problem:
        return problem
    shape = np.shape(param)
    for name, a in zip(("param", "m", "v"), result):
        if _shape(a) != shape:
            return f"{_kind(a)} as the new {name} for a parameter of shape {shape}"
    return _first(*(_array(a, shape, f"the new {name}") for name, a in zip(("param", "m", "v"), result)))


def _gpt_step(result, token_id, p, n_heads, cache):
    problem = _pair(result, 2, "(logits, cache)")
    return problem or _array(result[0], (p["W_E"].shape[0],), "the logits")


def _attention_with_cache(result, q, k, v, cache):
    problem = _pair(result, 2, "(out, cache)")
    return problem or _array(result[0], np.shape(q), "out")


def _top_p_filter(result, logits, top_p):
    problem = _array(result, np.shape(logits), "the probabilities")
    if problem:
        return problem
    if np.any(result < 0) or not abs(float(result.sum()) - 1) < 1e-6:
        return "probabilities that are negative or do not sum to 1"
    return None


def _sample_token(result, logits, *args, **kwargs):
    try:
        _token_id(result, len(logits))
    except Unusable as exc:
        return str(exc)
    return None


def _sinusoidal_pe(result, T, C):
    return _array(result, (T, C), "the table")


def _layer_norm_backward(result, x, gamma, dout, *args, **kwargs):
    problem = _pair(result, 3, "(dx, dgamma, dbeta)")
    return problem or _first(_array(result[0], np.shape(x), "dx"), _array(result[1], np.shape(gamma), "dgamma"),
                             _array(result[2], np.shape(gamma), "dbeta"))


def _causal_attention_backward(result, q, k, v, dout):
    problem = _pair(result, 3, "(dq, dk, dv)")
    return problem or _first(*(_array(r, np.shape(a), name) for r, a, name in zip(result, (q, k, v), "qkv")))


def _transformer_block_backward(result, x, p, n_heads, dout):
    problem = _pair(result, 2, "(dx, grads)")
    return problem or _first(_array(result[0], np.shape(x), "dx"), _like_params(result[1], p, "the gradients"))


def _causal_attention(result, q, k, v):
    return _array(result, np.shape(q)[:-1] + np.shape(v)[-1:], "the attention output")


def _embedding_backward(result, ids, dout, V):
    return _array(result, (V, np.shape(dout)[-1]), "dW_E")


# ---- what a step must be called with, where its caller's classic slip would make it fail ----------
# Each check gets the step's arguments and returns None or what is wrong, after "called adamw_step with".

def _adamw_arguments(param, grad, m, v, t, *args, **kwargs):
    if isinstance(t, (int, float, np.integer, np.floating)) and t < 1:
        # The words of train_step's hidden tests for the same slip (exercises/train_step/tests.py).
        return (f"t = {t}: is opt['t'] incremented before adamw_step? With t = 0 the bias correction divides by "
                "1 - beta ** 0 = 0")
    return None


ARGUMENT_CHECKS = {"adamw_step": _adamw_arguments}

RESULT_CHECKS = {
    "char_tokenize": _char_tokenize, "get_batch": _get_batch, "lr_at": _lr_at, "train_step": _train_step,
    "gpt_loss_and_grads": _gpt_loss_and_grads, "gpt_logits": _gpt_logits, "cross_entropy": _cross_entropy,
    "cross_entropy_grad": _same_shape, "clip_grad_norm": _clip_grad_norm, "adamw_step": _adamw_step,
    "gpt_step": _gpt_step, "attention_with_cache": _attention_with_cache, "top_p_filter": _top_p_filter,
    "sample_token": _sample_token, "sinusoidal_pe": _sinusoidal_pe, "softmax": _same_shape,
    "layer_norm": _same_shape, "gelu": _same_shape, "gelu_backward": _same_shape, "transformer_block": _same_shape,
    "multi_head_attention": _same_shape, "mlp": _same_shape, "softmax_backward": _same_shape,
    "causal_attention": _causal_attention,
    "layer_norm_backward": _layer_norm_backward, "causal_attention_backward": _causal_attention_backward,
    "transformer_block_backward": _transformer_block_backward, "embedding_backward": _embedding_backward,
}


def _flat_tree(tree):
    """{name in the .npz: array} of a parameter tree (the parameters, or the optimiser's m or v)."""
    arrays = {"W_E": tree["W_E"], "lnf_g": tree["lnf_g"], "lnf_b": tree["lnf_b"]}
    for i, block in enumerate(tree["blocks"]):
        arrays.update({f"blocks.{i}.{key}": block[key] for key in BLOCK_KEYS})
    return arrays


def _optimiser_arrays(opt):
    """{"opt.m.<name>", "opt.v.<name>", "opt.other.<key>": array} of the optimiser state train_step returned (m and
    v shaped like the parameters, checked when it returned them; its other keys, such as AdamW's step count,
    numbers or numeric arrays), or {} when there is none or it holds something else."""
    if opt is None:
        return {}
    arrays = {}
    for part in ("m", "v"):
        for name, value in _flat_tree(opt[part]).items():
            arrays[f"opt.{part}.{name}"] = np.asarray(value, dtype=np.float32)
    for key, value in opt.items():
        if key in ("m", "v"):
            continue
        value = np.asarray(value) if isinstance(value, (int, float, np.number, np.ndarray)) else None
        if not isinstance(key, str) or value is None or value.dtype.kind not in "iuf":
            return {}
        arrays[f"opt.other.{key}"] = value
    return arrays


def _vocab_summary(vocab):
    return repr(vocab if len(vocab) <= 80 else vocab[:80] + "...")


def _vocab_difference(theirs, ours):
    only_theirs, only_ours = sorted(set(theirs) - set(ours)), sorted(set(ours) - set(theirs))
    parts = [f"only in the weights' {''.join(only_theirs)!r}" if only_theirs else "",
             f"only in the text's {''.join(only_ours)!r}" if only_ours else ""]
    return "; ".join(filter(None, parts)) or "the same characters in another order"
