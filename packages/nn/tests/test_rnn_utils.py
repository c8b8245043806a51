"""ember.nn.utils.rnn: packing, padding and their inverses, checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember.autograd import gradcheck
from ember.nn.utils.rnn import (
    PackedSequence,
    invert_permutation,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

RNG = np.random.default_rng(7)


def _seqs(lengths, feat=(2,)):
    return [RNG.standard_normal((n, *feat)) for n in lengths]


def _np_pad(seqs, batch_first=False, value=0.0, side="right"):
    longest = max(len(s) for s in seqs)
    out = np.full((len(seqs), longest, *seqs[0].shape[1:]), value)
    for i, s in enumerate(seqs):
        if side == "right":
            out[i, : len(s)] = s
        else:
            out[i, longest - len(s) :] = s
    return out if batch_first else np.swapaxes(out, 0, 1)


def test_pack_sequence_layout_sorted():
    seqs = _seqs([3, 2, 1])
    packed = pack_sequence([ember.tensor(s) for s in seqs])
    assert isinstance(packed, tuple) and isinstance(packed, PackedSequence)
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert packed.batch_sizes.dtype == ember.int64
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    want = np.concatenate([seqs[0][0:1], seqs[1][0:1], seqs[2][0:1], seqs[0][1:2], seqs[1][1:2],
                           seqs[0][2:3]])  # fmt: skip
    np.testing.assert_array_equal(packed.data.numpy(), want)


def test_pack_unsorted_records_permutation():
    seqs = _seqs([2, 3, 1])
    packed = pack_sequence([ember.tensor(s) for s in seqs], enforce_sorted=False)
    assert packed.sorted_indices.tolist() == [1, 0, 2]
    assert packed.unsorted_indices.tolist() == [1, 0, 2]
    padded, lengths = pad_packed_sequence(packed, batch_first=True)
    assert lengths.tolist() == [2, 3, 1]
    np.testing.assert_array_equal(padded.numpy(), _np_pad(seqs, batch_first=True))


@settings(max_examples=25, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 5), min_size=1, max_size=5),
    batch_first=st.booleans(),
    value=st.sampled_from([0.0, -1.5]),
)
def test_pack_pad_round_trip(lengths, batch_first, value):
    seqs = _seqs(lengths, feat=(3,))
    padded = ember.tensor(_np_pad(seqs, batch_first, value))
    packed = pack_padded_sequence(padded, lengths, batch_first=batch_first, enforce_sorted=False)
    assert int(packed.batch_sizes.sum()) == sum(lengths)
    back, lens = pad_packed_sequence(packed, batch_first=batch_first, padding_value=value)
    assert lens.tolist() == lengths
    np.testing.assert_array_equal(back.numpy(), _np_pad(seqs, batch_first, value))
    for got, want in zip(unpack_sequence(packed), seqs, strict=True):
        np.testing.assert_array_equal(got.numpy(), want)


def test_pad_packed_total_length():
    packed = pack_sequence([ember.ones(2, 1), ember.ones(1, 1)])
    padded, _ = pad_packed_sequence(packed, total_length=4)
    assert tuple(padded.shape) == (4, 2, 1)
    np.testing.assert_array_equal(padded.numpy()[:, :, 0], [[1, 1], [1, 0], [0, 0], [0, 0]])
    with pytest.raises(ValueError, match="total_length=1 and max sequence length being 2"):
        pad_packed_sequence(packed, total_length=1)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pad_sequence(side, batch_first):
    seqs = _seqs([2, 4, 1], feat=(2, 3))
    got = pad_sequence([ember.tensor(s) for s in seqs], batch_first, 7.0, side).numpy()
    np.testing.assert_array_equal(got, _np_pad(seqs, batch_first, 7.0, side))


def test_unpad_sequence():
    seqs = _seqs([3, 1, 2])
    padded = pad_sequence([ember.tensor(s) for s in seqs])
    out = unpad_sequence(padded, ember.tensor([3, 1, 2]))
    for got, want in zip(out, seqs, strict=True):
        np.testing.assert_array_equal(got.numpy(), want)


def test_gradients_flow_through_pack_and_pad():
    a = ember.tensor(RNG.standard_normal((3, 2))).requires_grad_()
    b = ember.tensor(RNG.standard_normal((2, 2))).requires_grad_()

    def f(a, b):
        packed = pack_sequence([b, a], enforce_sorted=False)
        return pad_packed_sequence(packed, padding_value=0.5)[0]

    assert gradcheck(f, (a, b))


def test_packed_sequence_conversions():
    packed = pack_sequence([ember.ones(2, 1), ember.ones(1, 1)])
    assert packed.double().data.dtype == ember.float64
    assert packed.to(ember.float64).batch_sizes.dtype == ember.int64
    assert packed.to(ember.float32) is packed
    assert not packed.is_cuda
    data, sizes, _, _ = packed  # a 4-tuple, as torch's namedtuple
    assert tuple(data.shape) == (3, 1) and sizes.tolist() == [2, 1]
    assert invert_permutation(ember.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert invert_permutation(None) is None


def test_errors():
    x = ember.zeros(3, 2, 1)
    with pytest.raises(RuntimeError, match="sorted in decreasing order"):
        pack_padded_sequence(x, [1, 3])
    with pytest.raises(RuntimeError, match="greater than 0"):
        pack_padded_sequence(x, [3, 0])
    with pytest.raises(RuntimeError, match=r"expected 2 lengths.*\(3, 2, 1\)"):
        pack_padded_sequence(x, [3])
    with pytest.raises(RuntimeError, match="exceeds the padded length 3"):
        pack_padded_sequence(x, [4, 1])
    with pytest.raises(ValueError, match="padding_side to be one of left or right"):
        pad_sequence([ember.ones(2)], padding_side="mid")
    with pytest.raises(RuntimeError, match=r"sequences\[1\] has shape \(2, 3\)"):
        pad_sequence([ember.ones(2, 2), ember.ones(2, 3)])
    with pytest.raises(TypeError, match="must be a PackedSequence"):
        pad_packed_sequence(x)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="batch_sizes should always be a 1D int64"):
        PackedSequence(ember.ones(2), ember.ones(2))
