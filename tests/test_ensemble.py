"""training.ensemble: several runs as one graph whose outputs are the mean of the members' log-softmax, or as one
model whose weights are the mean of theirs."""

import numpy as np
import pytest

keras = pytest.importorskip("keras")

from charrestore.training.char_model import build_char_model  # noqa: E402
from charrestore.training.ensemble import combine, soup  # noqa: E402
from charrestore.training.runs import TrainingError  # noqa: E402
from charrestore.training.token_model import build_token_model  # noqa: E402


def log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def test_one_member_is_returned_unchanged():
    model = build_char_model(30, 8, emb=4, conv=8, lstm=4)
    assert combine([model]) is model


def test_char_ensemble_averages_log_probabilities():
    keras.utils.set_random_seed(0)
    a = build_char_model(30, 8, emb=4, conv=8, lstm=4)
    b = build_char_model(30, 8, emb=6, conv=8, lstm=6)  # members may differ in size
    ids = np.random.default_rng(0).integers(0, 30, size=(3, 11)).astype(np.int32)
    expected = (log_softmax(a(ids).numpy()) + log_softmax(b(ids).numpy())) / 2
    both = combine([a, b])
    assert both.count_params() == a.count_params() + b.count_params()
    assert [t.name for t in both.inputs] == ["ids"]
    np.testing.assert_allclose(both(ids).numpy(), expected, atol=1e-5)


def test_token_ensemble_keeps_both_heads_in_order():
    keras.utils.set_random_seed(1)
    a, b = (build_token_model(50, emb=8, lstm=4) for _ in range(2))
    rng = np.random.default_rng(1)
    ids = rng.integers(1, 50, size=(2, 9)).astype(np.int32)
    starts = np.array([[0, 2, 3, 5, 8], [0, 1, 4, 6, 7]], np.int32)
    punct, case = combine([a, b])([ids, starts])
    (pa, ca), (pb, cb) = a([ids, starts]), b([ids, starts])
    np.testing.assert_allclose(punct.numpy(), (log_softmax(pa.numpy()) + log_softmax(pb.numpy())) / 2, atol=1e-5)
    np.testing.assert_allclose(case.numpy(), (log_softmax(ca.numpy()) + log_softmax(cb.numpy())) / 2, atol=1e-5)


def test_soup_is_one_model_with_the_mean_weights():
    keras.utils.set_random_seed(2)
    a, b = (build_char_model(30, 8, emb=4, conv=8, lstm=4) for _ in range(2))
    expected = [(wa.numpy() + wb.numpy()) / 2 for wa, wb in zip(a.weights, b.weights)]
    assert any(not np.allclose(wa.numpy(), wb.numpy()) for wa, wb in zip(a.weights, b.weights))
    both = soup([a, b])
    assert both.count_params() == b.count_params()
    for got, want in zip(both.weights, expected):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-6)
    ids = np.random.default_rng(2).integers(0, 30, size=(2, 7)).astype(np.int32)
    assert both(ids).shape == b(ids).shape


def test_soup_refuses_members_of_different_shapes():
    a = build_char_model(30, 8, emb=4, conv=8, lstm=4)
    b = build_char_model(30, 8, emb=6, conv=8, lstm=6)
    with pytest.raises(TrainingError, match="differ in shape"):
        soup([a, b])
