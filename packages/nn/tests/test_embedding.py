"""embedding, embedding_bag and one_hot against numpy, gradcheck and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest
from layers_helpers import RNG, check_grad, close, randn, t

import ember
import ember.nn as nn
import ember.nn.functional as F


def test_embedding_lookup_and_gradient() -> None:
    w = randn(6, 3)
    idx = np.array([[0, 2, 2], [5, 1, 0]])
    close(F.embedding(t(idx), t(w)), w[idx])
    check_grad(lambda v: F.embedding(t(idx), v), w)
    wt = t(w, requires_grad=True)
    F.embedding(t(idx), wt).sum().backward()
    counts = np.bincount(idx.ravel(), minlength=6)[:, None] * np.ones((1, 3))
    close(wt.grad, counts)


def test_padding_idx_gets_zero_gradient() -> None:
    w = randn(5, 2)
    idx = t(np.array([0, 1, 1, 4, 1]))
    for pad in (1, -4):
        wt = t(w, requires_grad=True)
        out = F.embedding(idx, wt, padding_idx=pad)
        close(out, w[idx.numpy()])  # the padding row is still looked up
        out.sum().backward()
        close(wt.grad, np.array([[1, 1], [0, 0], [0, 0], [0, 0], [1, 1]], dtype=float))
    # the custom backward is exact wherever padding_idx is not looked up
    check_grad(lambda v: F.embedding(idx, v, padding_idx=3), w)
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(idx, t(w), padding_idx=5)


def test_scale_grad_by_freq() -> None:
    w = t(randn(4, 2), requires_grad=True)
    idx = t(np.array([0, 0, 0, 2]))
    F.embedding(idx, w, scale_grad_by_freq=True).sum().backward()
    close(w.grad, np.array([[1, 1], [0, 0], [1, 1], [0, 0]], dtype=float))


def test_max_norm_renormalizes_referenced_rows_in_place() -> None:
    w = np.array([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    wt = t(w)
    out = F.embedding(t(np.array([0, 1])), wt, max_norm=1.0)
    got = wt.numpy()
    np.testing.assert_allclose(np.linalg.norm(got[0]), 1.0, rtol=1e-6)
    close(got[1], w[1])  # below max_norm: unchanged
    close(got[2], w[2])  # not referenced: unchanged
    close(out, got[[0, 1]])


def test_embedding_errors() -> None:
    w = t(randn(4, 2))
    with pytest.raises(NotImplementedError, match="sparse=True"):
        F.embedding(t(np.array([0])), w, sparse=True)
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        F.embedding(t(np.array([0.0])), w)
    with pytest.raises(IndexError):
        F.embedding(t(np.array([4])), w)


def np_bag(
    w: np.ndarray,
    idx: np.ndarray,
    offsets: np.ndarray,
    mode: str,
    psw: np.ndarray | None = None,
    pad: int = -1,
) -> np.ndarray:
    bounds = [*list(offsets), len(idx)]
    out = np.zeros((len(offsets), w.shape[1]))
    for b in range(len(offsets)):
        sel = [k for k in range(bounds[b], bounds[b + 1]) if idx[k] != pad]
        if not sel:
            continue
        rows = w[idx[sel]] * (psw[sel][:, None] if psw is not None else 1.0)
        out[b] = {"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0)}[mode]
    return out


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_offsets(mode: str) -> None:
    w = randn(6, 3)
    idx = np.array([0, 2, 1, 3, 3, 5, 4])
    offsets = np.array([0, 2, 2, 5])  # the third bag is empty
    close(F.embedding_bag(t(idx), t(w), t(offsets), mode=mode), np_bag(w, idx, offsets, mode))
    check_grad(lambda v: F.embedding_bag(t(idx), v, t(offsets), mode=mode), w)
    # include_last_offset: the last offset closes the last bag
    got = F.embedding_bag(
        t(idx), t(w), t(np.array([0, 2, 2, 5, 7])), mode=mode, include_last_offset=True
    )
    close(got, np_bag(w, idx, offsets, mode))
    # 2-D input: fixed-length bags
    idx2 = RNG.integers(0, 6, (3, 4))
    close(
        F.embedding_bag(t(idx2), t(w), mode=mode),
        np_bag(w, idx2.ravel(), np.array([0, 4, 8]), mode),
    )
    # padding_idx entries are left out of every mode (and of the mean's count)
    close(
        F.embedding_bag(t(idx), t(w), t(offsets), mode=mode, padding_idx=3),
        np_bag(w, idx, offsets, mode, pad=3),
    )


def test_embedding_bag_per_sample_weights() -> None:
    w, idx, offsets = randn(5, 2), np.array([0, 1, 4, 2]), np.array([0, 1])
    psw = RNG.random(4)
    close(
        F.embedding_bag(t(idx), t(w), t(offsets), mode="sum", per_sample_weights=t(psw)),
        np_bag(w, idx, offsets, "sum", psw),
    )
    check_grad(
        lambda v, s: F.embedding_bag(t(idx), v, t(offsets), mode="sum", per_sample_weights=s),
        w,
        psw,
    )
    with pytest.raises(
        NotImplementedError, match="per_sample_weights is only supported for mode='sum'"
    ):
        F.embedding_bag(t(idx), t(w), t(offsets), per_sample_weights=t(psw))


def test_embedding_bag_errors() -> None:
    w = t(randn(5, 2))
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(t(np.array([0, 1])), w)
    with pytest.raises(ValueError, match="if input is 2D, then offsets has to be None"):
        F.embedding_bag(t(np.array([[0, 1]])), w, t(np.array([0])))
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        F.embedding_bag(t(np.array([[0, 1]])), w, mode="min")


def test_one_hot() -> None:
    idx = np.array([[0, 3], [2, 1]])
    close(F.one_hot(t(idx)), np.eye(4, dtype=np.int64)[idx])
    out = F.one_hot(t(idx), 6)
    assert out.dtype == ember.int64 and tuple(out.shape) == (2, 2, 6)
    with pytest.raises(RuntimeError, match=r"Class values must be smaller than num_classes\."):
        F.one_hot(t(idx), 3)
    with pytest.raises(RuntimeError, match=r"Class values must be non-negative\."):
        F.one_hot(t(np.array([-1])))
    with pytest.raises(
        RuntimeError, match=r"one_hot is only applicable to index tensor of type LongTensor\."
    ):
        F.one_hot(t(np.array([1.0])))
    assert tuple(F.one_hot(t(np.zeros(0, dtype=np.int64)), 3).shape) == (0, 3)


def test_embedding_module() -> None:
    ember.manual_seed(0)
    m = nn.Embedding(2000, 16, padding_idx=3)
    w = m.weight.detach().numpy()
    assert list(m.state_dict()) == ["weight"]
    assert (w[3] == 0).all()
    assert abs(w.mean()) < 0.02 and abs(w.std() - 1.0) < 0.02  # N(0, 1) initialization
    assert repr(m) == "Embedding(2000, 16, padding_idx=3)"
    out = m(t(np.array([[3, 5]])))
    out.sum().backward()
    g = m.weight.grad.numpy()
    assert (g[3] == 0).all() and (g[5] == 1).all()
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=3)
    with pytest.raises(NotImplementedError, match="sparse=True"):
        nn.Embedding(3, 2, sparse=True)


def test_embedding_from_pretrained() -> None:
    w = randn(4, 3)
    m = nn.Embedding.from_pretrained(t(w))
    assert not m.weight.requires_grad
    close(m(t(np.array([2]))), w[[2]])
    assert nn.Embedding.from_pretrained(t(w), freeze=False).weight.requires_grad
    with pytest.raises(
        AssertionError, match="Embeddings parameter is expected to be 2-dimensional"
    ):
        nn.Embedding.from_pretrained(t(w[0]))
    bag = nn.EmbeddingBag.from_pretrained(t(w), mode="max")
    close(bag(t(np.array([[0, 1]]))), np.maximum(w[0], w[1])[None])
    assert repr(nn.EmbeddingBag(3, 2, max_norm=1.0, padding_idx=0, mode="sum")) == (
        "EmbeddingBag(3, 2, max_norm=1.0, mode='sum', padding_idx=0)"
    )


def test_embedding_bag_module() -> None:
    m = nn.EmbeddingBag(10, 4, mode="sum", padding_idx=0)
    idx, offsets = t(np.array([0, 1, 2, 3])), t(np.array([0, 3]))
    w = m.weight.detach().numpy()
    close(m(idx, offsets), np.stack([w[1] + w[2], w[3]]), rtol=1e-6)
