"""Variable-length sequences for recurrent layers: ``PackedSequence`` and its helpers.

A packed batch stores, time step after time step, the rows of the sequences still running at
that step (``batch_sizes[t]`` of them, longest sequences first), so a recurrent layer never
computes on padding. Every function here is made of differentiable ember ops.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import ember
from ember._tensor import Tensor

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]


class PackedSequence_(NamedTuple):  # torch's name for the tuple base
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """Returns the inverse of an index permutation (``None`` stays ``None``).

    Example:
        >>> ember.nn.utils.rnn.invert_permutation(ember.tensor([2, 0, 1]))
        tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    output: Tensor = ember.empty_like(permutation)
    output[permutation] = ember.arange(permutation.numel(), dtype=permutation.dtype)
    return output


class PackedSequence(PackedSequence_):
    """A batch of variable-length sequences packed time step by time step (torch's fields).

    Build one with :func:`pack_padded_sequence` or :func:`pack_sequence`, never by hand.

    Attributes:
        data: ``(sum(lengths), *)``: the rows of every time step, concatenated.
        batch_sizes: int64 ``(max_length,)``: rows per time step.
        sorted_indices: how the batch was sorted by decreasing length (None if it was sorted).
        unsorted_indices: the inverse of ``sorted_indices``.

    Example:
        >>> packed = ember.nn.utils.rnn.pack_sequence([ember.ones(3, 2), ember.ones(1, 2)])
        >>> packed.batch_sizes
        tensor([2, 1, 1])
    """

    def __new__(
        cls,
        data: Tensor,
        batch_sizes: Tensor | None = None,
        sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            # torch's legacy form PackedSequence((data, batch_sizes)).
            if isinstance(data, (list, tuple)) and len(data) == 2:
                data, batch_sizes = data
            else:
                raise TypeError(
                    "PackedSequence: expected batch_sizes, got None (build it with "
                    "pack_padded_sequence or pack_sequence)"
                )
        if batch_sizes.dim() != 1 or batch_sizes.dtype != ember.int64:
            raise ValueError(
                "PackedSequence: batch_sizes should always be a 1D int64 CPU tensor, got "
                f"shape {tuple(batch_sizes.size())} and dtype {batch_sizes.dtype}"
            )
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """Applies ``Tensor.to`` to ``data`` (indices keep their dtype)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self) -> PackedSequence:
        """Returns ``self`` with ``data`` on the CPU."""
        return self.to("cpu")

    def cuda(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """Moves ``data`` to a CUDA device (raises on a CPU-only build, like ``Tensor.cuda``)."""
        data = self.data.to("cuda", *args, **kwargs)
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def double(self) -> PackedSequence:
        """``data`` as float64."""
        return self.to(dtype=ember.float64)

    def float(self) -> PackedSequence:
        """``data`` as float32."""
        return self.to(dtype=ember.float32)

    def half(self) -> PackedSequence:
        """``data`` as float16."""
        return self.to(dtype=ember.float16)

    def bfloat16(self) -> PackedSequence:
        """``data`` as bfloat16."""
        return self.to(dtype=ember.bfloat16)

    def long(self) -> PackedSequence:
        """``data`` as int64."""
        return self.to(dtype=ember.int64)

    def int(self) -> PackedSequence:
        """``data`` as int32."""
        return self.to(dtype=ember.int32)

    def short(self) -> PackedSequence:
        """``data`` as int16."""
        return self.to(dtype=ember.int16)

    def char(self) -> PackedSequence:
        """``data`` as int8."""
        return self.to(dtype=ember.int8)

    def byte(self) -> PackedSequence:
        """``data`` as uint8."""
        return self.to(dtype=ember.uint8)

    @property
    def is_cuda(self) -> bool:
        """Whether ``data`` is on a CUDA device."""
        return bool(self.data.is_cuda)

    def is_pinned(self) -> bool:
        """Whether ``data`` is in pinned memory (ember's CPU tensors never are, yet)."""
        pinned = getattr(self.data, "is_pinned", None)
        return bool(pinned()) if pinned is not None else False


def _lengths_list(lengths: Tensor | Sequence[int], name: str) -> list[int]:
    if isinstance(lengths, Tensor):
        if lengths.dim() != 1:
            raise RuntimeError(
                f"{name}: 'lengths' must be a 1D tensor, got shape {tuple(lengths.size())}"
            )
        return [int(x) for x in lengths.tolist()]
    return [int(x) for x in lengths]


def pack_padded_sequence(
    input: Tensor,
    lengths: Tensor | Sequence[int],
    batch_first: bool = False,
    enforce_sorted: bool = True,
) -> PackedSequence:
    """Packs a padded batch ``(T, B, *)`` (``(B, T, *)`` if ``batch_first``) of given lengths.

    Args:
        input: the padded batch.
        lengths: each sequence's length (list or 1-D int64 tensor).
        batch_first: whether dim 0 of ``input`` is the batch.
        enforce_sorted: if True, ``lengths`` must be decreasing; if False, the batch is sorted
            here and ``sorted_indices`` records how.

    Returns:
        The :class:`PackedSequence`.

    Example:
        >>> x = ember.zeros(3, 2, 4)  # T=3, B=2
        >>> ember.nn.utils.rnn.pack_padded_sequence(x, [3, 1]).batch_sizes
        tensor([2, 1, 1])
    """
    if not isinstance(input, Tensor):
        raise TypeError(
            f"pack_padded_sequence(): input must be a Tensor, not {type(input).__name__}"
        )
    if input.dim() < 2:
        raise RuntimeError(
            "pack_padded_sequence: input must have at least 2 dims (T, B, *), got shape "
            f"{tuple(input.size())}"
        )
    lens = _lengths_list(lengths, "pack_padded_sequence")
    if batch_first:
        input = input.transpose(0, 1)
    steps, batch = input.size()[0], input.size()[1]
    if len(lens) != batch:
        raise RuntimeError(
            f"pack_padded_sequence: expected {batch} lengths (the batch size of input of shape "
            f"{tuple(input.size())}), got {len(lens)}"
        )
    sorted_indices: Tensor | None = None
    if enforce_sorted:
        if any(lens[i] < lens[i + 1] for i in range(len(lens) - 1)):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability."
            )
    else:
        order = sorted(range(batch), key=lambda i: -lens[i])  # stable, as torch's sort
        sorted_indices = ember.tensor(order, dtype=ember.int64)
        lens = [lens[i] for i in order]
        input = input.index_select(1, sorted_indices)
    if batch and lens[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if batch and lens[0] > steps:
        raise RuntimeError(
            f"pack_padded_sequence: the longest length {lens[0]} exceeds the padded length "
            f"{steps} of input of shape {tuple(input.size())}"
        )
    max_len = lens[0] if batch else 0
    batch_sizes = [sum(1 for n in lens if n > t) for t in range(max_len)]
    data = ember.cat([input[t, : batch_sizes[t]] for t in range(max_len)], dim=0)
    return PackedSequence(data, ember.tensor(batch_sizes, dtype=ember.int64), sorted_indices)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Inverse of :func:`pack_padded_sequence`: the padded batch and the lengths (int64).

    Args:
        sequence: the packed batch.
        batch_first: return ``(B, T, *)`` instead of ``(T, B, *)``.
        padding_value: value of the padding.
        total_length: pad to this length (at least the longest sequence).

    Returns:
        ``(padded, lengths)``, in the batch order before packing.

    Example:
        >>> rnn = ember.nn.utils.rnn
        >>> packed = rnn.pack_sequence([ember.ones(2), ember.ones(1)])
        >>> padded, lengths = rnn.pad_packed_sequence(packed)
        >>> padded.size(), lengths
        (ember.Size([2, 2]), tensor([2, 1]))
    """
    if not isinstance(sequence, PackedSequence):
        raise TypeError(
            "pad_packed_sequence(): sequence must be a PackedSequence, not "
            f"{type(sequence).__name__}"
        )
    sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_len}"
            )
    else:
        total_length = max_len
    data = sequence.data
    batch = sizes[0] if sizes else 0
    feature = tuple(data.size()[1:])
    rows: list[Tensor] = []
    offset = 0
    for size in sizes:
        step = data[offset : offset + size]
        offset += size
        if size < batch:
            fill = ember.full((batch - size, *feature), padding_value, dtype=data.dtype)
            step = ember.cat([step, fill], dim=0)
        rows.append(step)
    if total_length > max_len:
        fill = ember.full((batch, *feature), padding_value, dtype=data.dtype)
        rows.extend([fill] * (total_length - max_len))
    padded = (
        ember.stack(rows, dim=0)
        if rows
        else ember.full((total_length, 0, *feature), padding_value, dtype=data.dtype)
    )
    lengths = [sum(1 for s in sizes if s > b) for b in range(batch)]
    lengths_t = ember.tensor(lengths, dtype=ember.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths_t = lengths_t[sequence.unsorted_indices]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths_t


def pad_sequence(
    sequences: Tensor | Iterable[Tensor],
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """Stacks tensors ``(L_i, *)`` of different lengths into ``(T, B, *)`` (or ``(B, T, *)``).

    Args:
        sequences: the tensors; their trailing dims must agree.
        batch_first: return ``(B, T, *)``.
        padding_value: value of the padding.
        padding_side: ``"right"`` (pad after each sequence) or ``"left"``.

    Returns:
        The padded batch.

    Example:
        >>> ember.nn.utils.rnn.pad_sequence([ember.ones(2), ember.ones(1)], batch_first=True)
        tensor([[1., 1.],
                [1., 0.]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    seqs = list(sequences.unbind(0)) if isinstance(sequences, Tensor) else list(sequences)
    if not seqs:
        raise RuntimeError("pad_sequence: received an empty list of sequences")
    for i, s in enumerate(seqs):
        if not isinstance(s, Tensor):
            raise TypeError(
                f"pad_sequence(): sequences[{i}] must be a Tensor, not {type(s).__name__}"
            )
        if s.dim() == 0:
            raise RuntimeError(f"pad_sequence: sequences[{i}] is a 0-d tensor; need (L, *)")
    trailing = tuple(seqs[0].size()[1:])
    for i, s in enumerate(seqs):
        if tuple(s.size()[1:]) != trailing:
            raise RuntimeError(
                f"pad_sequence: sequences[{i}] has shape {tuple(s.size())}, whose trailing dims "
                f"differ from those of sequences[0] {tuple(seqs[0].size())}"
            )
    longest = max(s.size()[0] for s in seqs)
    dtype = seqs[0].dtype
    padded: list[Tensor] = []
    for s in seqs:
        missing = longest - s.size()[0]
        if missing:
            fill = ember.full((missing, *trailing), padding_value, dtype=s.dtype)
            parts = [s, fill] if padding_side == "right" else [fill, s]
            s = ember.cat(parts, dim=0)
        padded.append(s.to(dtype))
    out: Tensor = ember.stack(padded, dim=0 if batch_first else 1)
    return out


def unpad_sequence(
    padded_sequences: Tensor, lengths: Tensor | Sequence[int], batch_first: bool = False
) -> list[Tensor]:
    """Splits a padded batch back into its sequences (inverse of :func:`pad_sequence`).

    Example:
        >>> [s.size() for s in ember.nn.utils.rnn.unpad_sequence(ember.zeros(3, 2), [3, 1])]
        [ember.Size([3]), ember.Size([1])]
    """
    lens = _lengths_list(lengths, "unpad_sequence")
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    if len(lens) != padded_sequences.size()[0]:
        raise RuntimeError(
            f"unpad_sequence: got {len(lens)} lengths for a batch of "
            f"{padded_sequences.size()[0]} sequences"
        )
    return [padded_sequences[i, :n] for i, n in enumerate(lens)]


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Packs a list of tensors ``(L_i, *)`` (decreasing lengths unless ``enforce_sorted=False``).

    Example:
        >>> ember.nn.utils.rnn.pack_sequence([ember.ones(3), ember.ones(2)]).data.size()
        ember.Size([5])
    """
    lengths = [s.size()[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Inverse of :func:`pack_sequence`: the list of tensors, in their original order.

    Example:
        >>> rnn = ember.nn.utils.rnn
        >>> packed = rnn.pack_sequence([ember.ones(3), ember.ones(2)])
        >>> [s.size() for s in rnn.unpack_sequence(packed)]
        [ember.Size([3]), ember.Size([2])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
