"""The references of the backward-pass steps (20-27) agree with central differences of the forward steps.

Each reference runs as offline grading runs it: with the references of the steps it uses in scope.  The
gradients are checked in float64 on small random inputs, every entry of every parameter, against
(f(theta + h) - f(theta - h)) / 2h of a scalar loss sum(forward(...) * R) with a fixed random R (for
step 27, the loss itself).
"""

import numpy as np
import pytest

from grader.exercise import load_exercise
from grader.track import reference_function

H = 1e-6


def reference(exercise_id):
    """The reference entry function of an exercise, the references of what it uses in scope."""
    return reference_function(load_exercise(exercise_id))


def numeric_gradient(loss, array):
    """d loss / d array by central differences, one entry at a time (array is changed and restored)."""
    grad = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        saved = array[index]
        array[index] = saved + H
        plus = loss()
        array[index] = saved - H
        minus = loss()
        array[index] = saved
        grad[index] = (plus - minus) / (2 * H)
    return grad


def assert_matches(analytic, numeric, what):
    scale = max(1.0, float(np.abs(numeric).max()))
    error = float(np.abs(analytic - numeric).max())
    assert error <= 1e-6 * scale, f"{what}: largest difference from central differences {error:.3g}"


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(20)


def block_params(rng, C, F):
    p = {name: rng.normal(0, 0.3, (C, C)) for name in ("W_q", "W_k", "W_v", "W_o")}
    p.update(ln1_g=rng.normal(1, 0.2, C), ln1_b=rng.normal(0, 0.2, C),
             ln2_g=rng.normal(1, 0.2, C), ln2_b=rng.normal(0, 0.2, C),
             W1=rng.normal(0, 0.3, (C, F)), b1=rng.normal(0, 0.2, F),
             W2=rng.normal(0, 0.3, (F, C)), b2=rng.normal(0, 0.2, C))
    return p


def test_linear_backward(rng):
    linear_backward = reference("linear_backward")
    x, W, R = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(2, 3, 5))
    b = rng.normal(size=5)
    dx, dW, db = linear_backward(x, W, R)
    loss = lambda: float(((x @ W + b) * R).sum())
    for name, analytic, array in (("dx", dx, x), ("dW", dW, W), ("db", db, b)):
        assert_matches(analytic, numeric_gradient(loss, array), name)


def test_gelu_backward(rng):
    gelu, gelu_backward = reference("gelu"), reference("gelu_backward")
    x, R = rng.uniform(-3, 3, size=(3, 4)), rng.normal(size=(3, 4))
    assert_matches(gelu_backward(x, R), numeric_gradient(lambda: float((gelu(x) * R).sum()), x), "dx")


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_backward(rng, axis):
    softmax, softmax_backward = reference("softmax"), reference("softmax_backward")
    x, R = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 4))
    analytic = softmax_backward(softmax(x, axis=axis), R, axis=axis)
    assert_matches(analytic, numeric_gradient(lambda: float((softmax(x, axis=axis) * R).sum()), x), "dx")


def test_layer_norm_backward(rng):
    layer_norm, layer_norm_backward = reference("layer_norm"), reference("layer_norm_backward")
    x, R = rng.normal(2, 1.5, size=(2, 3, 5)), rng.normal(size=(2, 3, 5))
    gamma, beta = rng.normal(1, 0.5, size=5), rng.normal(size=5)
    dx, dgamma, dbeta = layer_norm_backward(x, gamma, R)
    loss = lambda: float((layer_norm(x, gamma, beta) * R).sum())
    for name, analytic, array in (("dx", dx, x), ("dgamma", dgamma, gamma), ("dbeta", dbeta, beta)):
        assert_matches(analytic, numeric_gradient(loss, array), name)


def test_causal_attention_backward(rng):
    attention, backward = reference("causal_attention"), reference("causal_attention_backward")
    q, k = rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 4, 3))
    v, R = rng.normal(size=(2, 4, 5)), rng.normal(size=(2, 4, 5))
    loss = lambda: float((attention(q, k, v) * R).sum())
    for name, analytic, array in zip(("dq", "dk", "dv"), backward(q, k, v, R), (q, k, v)):
        assert_matches(analytic, numeric_gradient(loss, array), name)


def test_embedding_backward(rng):
    embedding_backward = reference("embedding_backward")
    ids = np.array([[1, 3, 1], [0, 1, 3]])     # id 2 never occurs, id 1 three times
    W_E, R = rng.normal(size=(5, 4)), rng.normal(size=(2, 3, 4))
    analytic = embedding_backward(ids, R, 5)
    assert_matches(analytic, numeric_gradient(lambda: float((W_E[ids] * R).sum()), W_E), "dW_E")


def test_transformer_block_backward(rng):
    block, backward = reference("transformer_block"), reference("transformer_block_backward")
    T, C, F, n_heads = 4, 6, 8, 2
    x, R, p = rng.normal(size=(T, C)), rng.normal(size=(T, C)), block_params(rng, C, F)
    dx, grads = backward(x, p, n_heads, R)
    assert sorted(grads) == sorted(p)
    loss = lambda: float((block(x, p, n_heads) * R).sum())
    assert_matches(dx, numeric_gradient(loss, x), "dx")
    for name in p:
        assert grads[name].shape == p[name].shape, name
        assert_matches(grads[name], numeric_gradient(loss, p[name]), f"grads[{name!r}]")


def test_gpt_loss_and_grads_two_blocks(rng):
    """Every parameter of a 2-block model, against central differences of step 14's loss of step 13's logits."""
    gpt_logits, cross_entropy = reference("gpt_logits"), reference("cross_entropy")
    gpt_loss_and_grads = reference("gpt_loss_and_grads")
    V, C, F, n_heads = 7, 6, 8, 2
    p = {"W_E": rng.normal(0, 0.5, (V, C)), "blocks": [block_params(rng, C, F) for _ in range(2)],
         "lnf_g": rng.normal(1, 0.2, C), "lnf_b": rng.normal(0, 0.2, C)}
    ids, targets = np.array([3, 1, 3, 0, 6]), np.array([1, 3, 0, 6, 3])   # id 2, 4, 5 never occur as input
    loss, grads = gpt_loss_and_grads(ids, targets, p, n_heads)
    forward = lambda: cross_entropy(gpt_logits(ids, p, n_heads), targets)
    assert loss == pytest.approx(forward(), abs=1e-12)
    assert_matches(grads["W_E"], numeric_gradient(forward, p["W_E"]), "W_E")
    for name in ("lnf_g", "lnf_b"):
        assert_matches(grads[name], numeric_gradient(forward, p[name]), name)
    assert len(grads["blocks"]) == 2
    for i, block in enumerate(p["blocks"]):
        for name in block:
            assert_matches(grads["blocks"][i][name], numeric_gradient(forward, block[name]), f"blocks[{i}][{name}]")


def test_gpt_loss_and_grads_no_blocks(rng):
    gpt_logits, cross_entropy = reference("gpt_logits"), reference("cross_entropy")
    gpt_loss_and_grads = reference("gpt_loss_and_grads")
    p = {"W_E": rng.normal(0, 0.5, (5, 4)), "blocks": [],
         "lnf_g": rng.normal(1, 0.2, 4), "lnf_b": rng.normal(0, 0.2, 4)}
    ids, targets = [0, 4, 4], [4, 4, 1]
    loss, grads = gpt_loss_and_grads(ids, targets, p, 1)
    forward = lambda: cross_entropy(gpt_logits(ids, p, 1), targets)
    assert grads["blocks"] == []
    for name in ("W_E", "lnf_g", "lnf_b"):
        assert_matches(grads[name], numeric_gradient(forward, p[name]), name)
