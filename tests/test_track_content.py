"""The tracks: build-gpt builds on itself (steps call the earlier steps they use instead of pasting them), and
the primitives keep their calling convention (seed first, a flat result) and their parts."""

import ast
import re

import pytest

from grader.exercise import load_all
from grader.track import used_steps

TRACK = [e for e in load_all() if e.track == "build-gpt"]
BY_ID = {e.id: e for e in TRACK}

# What learners and the hidden tests rely on being in scope (issue 21); an exercise may use more.
REQUIRED_USES = {
    "attention": {"softmax"},
    "causal_attention": {"softmax"},
    "multi_head_attention": {"softmax", "causal_attention"},
    "mlp": {"gelu"},
    "transformer_block": {"layer_norm", "multi_head_attention", "mlp"},
    "gpt_logits": {"sinusoidal_pe", "layer_norm", "transformer_block"},
    "cross_entropy_grad": {"softmax"},
    "sample_token": {"softmax"},
    "generate": {"gpt_logits", "sample_token"},
    "causal_attention_backward": {"softmax"},
    "transformer_block_backward": {"layer_norm", "causal_attention", "gelu", "linear_backward", "gelu_backward",
                                   "layer_norm_backward", "causal_attention_backward"},
    "gpt_loss_and_grads": {"sinusoidal_pe", "transformer_block", "layer_norm", "cross_entropy", "cross_entropy_grad",
                           "layer_norm_backward", "transformer_block_backward", "embedding_backward"},
    "train_step": {"gpt_loss_and_grads", "clip_grad_norm", "adamw_step"},
    "attention_with_cache": {"softmax"},
    "gpt_step": {"sinusoidal_pe", "layer_norm", "mlp", "attention_with_cache"},
    "top_p_filter": {"softmax"},
}
PARTS = [(range(1, 14), "Forward pass"), (range(14, 18), "Loss and sampling"), (range(18, 20), "Variants"),
         (range(20, 28), "Backward pass"), (range(28, 31), "Optimisation"), (range(31, 35), "Data"),
         (range(35, 36), "Training"), (range(36, 39), "Inference")]


def sources(exercise):
    """(name, text) of every file a learner or the grader runs as the step's own code."""
    yield "starter.py", exercise.starter
    yield "solution.py", exercise.solution
    for name, text in exercise.mutants.items():
        yield f"mutants/{name}", text


def module_level_functions(text):
    return {node.name for node in ast.parse(text).body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_the_track_ships_every_step_that_uses_others():
    assert set(REQUIRED_USES) <= set(BY_ID)


@pytest.mark.parametrize("exercise_id", sorted(REQUIRED_USES))
def test_uses_holds_at_least_what_learners_rely_on(exercise_id):
    assert REQUIRED_USES[exercise_id] <= set(BY_ID[exercise_id].uses)


@pytest.mark.parametrize("exercise", TRACK, ids=lambda e: e.id)
def test_no_starter_asks_to_paste_an_earlier_step(exercise):
    # "no need to paste them" (grader new --uses) is fine; "paste (or rewrite) your softmax" is not.
    starter = exercise.starter.lower()
    assert not re.search(r"(?<!need to )(?<!not )\bpaste", starter)
    assert "self-contained" not in starter


@pytest.mark.parametrize("exercise", TRACK, ids=lambda e: e.id)
def test_no_file_defines_the_entry_of_an_earlier_step(exercise):
    earlier = {other.entry for other in TRACK if other.step < exercise.step}
    assert {used.entry for used in used_steps(exercise)} <= earlier
    for name, text in sources(exercise):
        redefined = module_level_functions(text) & earlier
        assert not redefined, f"{exercise.id}/{name} defines {sorted(redefined)}: call the earlier step instead"


@pytest.mark.parametrize("exercise", TRACK, ids=lambda e: e.id)
def test_hidden_tests_do_not_import_the_reference(exercise):
    tree = ast.parse((exercise.path / "tests.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert not {name for name in imported if name.split(".")[-1] == "solution"}


@pytest.mark.parametrize("exercise", TRACK, ids=lambda e: e.id)
def test_every_step_belongs_to_its_part(exercise):
    expected = next(part for steps, part in PARTS if exercise.step in steps)
    assert exercise.part == expected


@pytest.mark.parametrize("exercise", TRACK, ids=lambda e: e.id)
def test_every_step_has_a_summary_of_its_own(exercise):
    # The index shows it under the title and searches it: it should add to the title, not repeat it.
    assert exercise.summary and exercise.summary.rstrip(".").lower() != exercise.title.lower()


def test_the_tracks():
    # build-gpt, and "primitives" in the seed platform's calling convention (issue 39).
    assert {e.track for e in load_all()} == {"build-gpt", "primitives"}


PRIMITIVES = [e for e in load_all() if e.track == "primitives"]
PRIMITIVE_PARTS = [(range(1, 5), "Positions"), (range(5, 12), "Initialisers")]


@pytest.mark.parametrize("slug", ["build-gpt", "primitives"])
def test_a_track_numbers_its_steps_from_1_without_gaps(slug):
    steps = sorted(e.step for e in load_all() if e.track == slug)
    assert steps == list(range(1, len(steps) + 1))


@pytest.mark.parametrize("exercise", PRIMITIVES, ids=lambda e: e.id)
def test_every_primitive_belongs_to_its_part(exercise):
    assert exercise.part == next(part for steps, part in PRIMITIVE_PARTS if exercise.step in steps)


@pytest.mark.parametrize("exercise", PRIMITIVES, ids=lambda e: e.id)
def test_every_primitive_takes_the_seed_first(exercise):
    for name, text in [("starter.py", exercise.starter), ("solution.py", exercise.solution)]:
        entry = next(node for node in ast.parse(text).body
                     if isinstance(node, ast.FunctionDef) and node.name == exercise.entry)
        assert entry.args.args[0].arg == "seed", f"{exercise.id}/{name}"
    # A 2-D natural shape is flattened (`.reshape(-1)`, "flattened"); a 1-D one is already flat, shape `(n,)`.
    assert re.search(r"reshape\(-1\)|flattened|already\s+flat|shape `\(n,\)`", exercise.statement), \
        "the statement names the natural shape the result flattens"


# The steps whose method is the point of the step (AUTHORING.md: "hidden or given"): their formula is left to the
# hints and how_it_works.md, and exercise.toml's hidden_formulas keeps it out of the starter (the loader refuses a
# starter that holds one). The other steps implement a definition their statement states.
FORMULA_IS_THE_POINT = {
    "build-gpt": {"relative_shift", "softmax", "causal_attention", "cross_entropy", "cross_entropy_grad",
                  "linear_backward", "gelu_backward", "softmax_backward", "layer_norm_backward",
                  "causal_attention_backward", "embedding_backward", "transformer_block_backward",
                  "gpt_loss_and_grads", "get_batch", "bpe_train", "bpe_encode", "attention_with_cache", "gpt_step",
                  "top_p_filter"},
    "primitives": {"variance_scaling", "orthogonal"},
}


@pytest.mark.parametrize("exercise", load_all(), ids=lambda e: e.id)
def test_the_steps_that_teach_a_method_keep_it_out_of_the_starter(exercise):
    hidden = exercise.id in FORMULA_IS_THE_POINT[exercise.track]
    assert bool(exercise.hidden_formulas) == hidden, (
        f"{exercise.id}: " + ("its method is the point: list its formula in hidden_formulas" if hidden
                              else "states its formula: no hidden_formulas, or add it to FORMULA_IS_THE_POINT"))
    if hidden:
        assert exercise.how_it_works, f"{exercise.id}: the method it hides is explained in how_it_works.md"
