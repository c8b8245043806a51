"""Datasets: map-style (``Dataset``) and iterable (``IterableDataset``), and their combinators."""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import ember
from ember._tensor import Tensor

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


class Dataset(Generic[T_co]):
    """A map from keys (usually ``0..len-1``) to samples; subclasses define ``__getitem__``.

    Subclasses usually define ``__len__`` too (samplers and ``len(DataLoader)`` need it), and
    may define ``__getitems__(indices)`` to fetch a whole batch at once.

    Example:
        >>> class Squares(Dataset):
        ...     def __len__(self): return 4
        ...     def __getitem__(self, i): return i * i
        >>> Squares()[3]
        9
    """

    def __getitem__(self, index: Any) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset[T_co]) -> ConcatDataset[T_co]:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A stream of samples; subclasses define ``__iter__``.

    With ``num_workers > 0`` each worker iterates its own copy: shard the stream with
    ``get_worker_info()`` or every worker yields every sample.

    Example:
        >>> class Count(IterableDataset):
        ...     def __iter__(self): return iter(range(3))
        >>> list(Count())
        [0, 1, 2]
    """

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset[T_co]) -> ChainDataset[T_co]:  # type: ignore[override]
        return ChainDataset([self, other])


class TensorDataset(Dataset[tuple[Tensor, ...]]):
    """Samples are the i-th rows of the given tensors (all of one first dimension).

    Example:
        >>> ds = TensorDataset(ember.zeros(5, 2), ember.arange(5))
        >>> len(ds), ds[1][1].item()
        (5, 1)
    """

    tensors: tuple[Tensor, ...]

    def __init__(self, *tensors: Tensor) -> None:
        if not tensors:
            raise ValueError("[TensorDataset] needs at least one tensor")
        for t in tensors:
            if not isinstance(t, Tensor) or t.dim() == 0:
                raise TypeError(
                    "[TensorDataset] arguments must be tensors of at least one dimension, got "
                    f"{type(t).__name__}"
                    + (f" of shape {t.shape}" if isinstance(t, Tensor) else "")
                )
        first = tensors[0].size(0)
        if any(t.size(0) != first for t in tensors):
            raise ValueError(
                "[TensorDataset] Size mismatch between tensors: first dimensions "
                f"{[t.size(0) for t in tensors]}"
            )
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].size(0))


class StackDataset(Dataset[T_co]):
    """Zips datasets of one length: samples are tuples (positional) or dicts (keywords).

    Example:
        >>> ds = StackDataset(image=[1, 2], label=[0, 1])
        >>> ds[1]
        {'image': 2, 'label': 1}
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and kwargs:
            raise ValueError(
                "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                "input/output, but both types are given."
            )
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        self.datasets: tuple[Any, ...] | dict[str, Any] = args if args else kwargs
        lengths = [len(d) for d in (args if args else kwargs.values())]
        if any(n != lengths[0] for n in lengths):
            raise ValueError(f"Size mismatch between datasets: lengths {lengths}")
        self._length = lengths[0]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices: list[int]) -> list[Any]:
        return [self[i] for i in indices]

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset[T_co]):
    """The concatenation of map-style datasets.

    Example:
        >>> ds = ConcatDataset([[1, 2], [3]])
        >>> len(ds), ds[2]
        (3, 3)
    """

    datasets: list[Any]
    cumulative_sizes: list[int]

    @staticmethod
    def cumsum(sequence: Iterable[Any]) -> list[int]:
        r, s = [], 0
        for e in sequence:
            s += len(e)
            r.append(s)
        return r

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("[ConcatDataset] datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        if which == len(self.datasets):
            raise IndexError(f"[ConcatDataset] index {idx} is out of range for length {len(self)}")
        start = 0 if which == 0 else self.cumulative_sizes[which - 1]
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset[T_co]):
    """Iterable datasets chained one after the other.

    Example:
        >>> class R(IterableDataset):
        ...     def __init__(self, n): self.n = n
        ...     def __iter__(self): return iter(range(self.n))
        >>> list(ChainDataset([R(2), R(1)]))
        [0, 1, 0]
    """

    def __init__(self, datasets: Iterable[Dataset[T_co]]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[T_co]:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError("ChainDataset only supports IterableDataset")
            total += len(d)  # type: ignore[arg-type]
        return total


class Subset(Dataset[T_co]):
    """The samples of ``dataset`` at ``indices``, in that order.

    Example:
        >>> Subset([10, 11, 12], [2, 0])[0]
        12
    """

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list[int]) -> list[Any]:
        if callable(getattr(self.dataset, "__getitems__", None)):
            result: list[Any] = self.dataset.__getitems__([self.indices[i] for i in indices])
            return result
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(
    dataset: Any,
    lengths: Sequence[int | float],
    generator: ember.Generator | None = None,
) -> list[Subset[Any]]:
    """Splits a dataset into non-overlapping random subsets of the given lengths.

    Args:
        dataset: a map-style dataset with ``__len__``.
        lengths: lengths summing to ``len(dataset)``, or fractions summing to 1 (the floor of
            each share, the remainder dealt one by one, round-robin).
        generator: the stream the permutation is drawn from (default: the global one).

    Example:
        >>> a, b = random_split(range(10), [0.7, 0.3], generator=ember.Generator().manual_seed(0))
        >>> len(a), len(b)
        (7, 3)
    """
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(math.floor(n * frac))
        remainder = n - sum(counts)
        for i in range(remainder):
            counts[i % len(counts)] += 1
        for i, c in enumerate(counts):
            if c == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2,
                )
        lengths = counts
    if any(int(x) != x or x < 0 for x in lengths):
        raise ValueError(f"[random_split] lengths must be non-negative ints, got {list(lengths)}")
    if sum(lengths) != n:
        raise ValueError(
            "Sum of input lengths does not equal the length of the input dataset! "
            f"({sum(lengths)} != {n})"
        )
    perm: list[int] = ember.randperm(n, generator=generator).tolist()
    out: list[Subset[Any]] = []
    offset = 0
    for length in lengths:
        out.append(Subset(dataset, perm[offset : offset + int(length)]))
        offset += int(length)
    return out
