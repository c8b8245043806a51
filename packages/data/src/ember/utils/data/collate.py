"""default_collate and default_convert: samples to batches, as torch's.

Inside a DataLoader worker, stacked tensors are allocated directly in shared memory, so the
batch crosses to the main process without a copy.
"""

from __future__ import annotations

import collections.abc
import copy
import sys
from typing import Any

import ember
from ember._tensor import Tensor
from ember.utils.data import _worker_state
from ember_core import _C

_ERR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)
_STRING_KINDS = "SaUO"


def _is_ndarray(x: Any) -> bool:
    np = sys.modules.get("numpy")  # an array can only exist once numpy is imported
    return np is not None and isinstance(x, np.ndarray)


def _is_numpy_scalar(x: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.generic)


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _stack(batch: list[Any]) -> Tensor:
    first: tuple[int, ...] = tuple(batch[0].shape)
    for i, t in enumerate(batch):
        if tuple(t.shape) != first:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"{list(first)} at entry 0 and {list(t.shape)} at entry {i}"
            )
    if _worker_state.info is not None:
        out = _C._empty_shared([len(batch), *first], batch[0].dtype)
        stacked: Tensor = ember.stack(batch, 0, out=out)
    else:
        stacked = ember.stack(batch, 0)
    return stacked


def default_collate(batch: Any) -> Any:
    """Merges a list of samples into a batch.

    Tensors are stacked along a new first dimension; numpy arrays become tensors and are
    stacked; Python floats become a float64 tensor, ints an int64 tensor; strings and bytes stay
    a list; dicts, namedtuples and sequences are collated per field (tuples give lists, as in
    torch).

    Raises:
        RuntimeError: tensors of different shapes, or sequences of different lengths.
        TypeError: an element of a type it cannot batch.

    Example:
        >>> default_collate([(ember.ones(2), 0), (ember.zeros(2), 1)])[1]
        tensor([0, 1])
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack(list(batch))
    if _is_ndarray(elem):
        if elem.dtype.kind in _STRING_KINDS:
            raise TypeError(_ERR.format(elem.dtype))
        return default_collate([ember.as_tensor(b) for b in batch])
    if _is_numpy_scalar(elem):
        if elem.dtype.kind in _STRING_KINDS:
            raise TypeError(_ERR.format(elem.dtype))
        np = sys.modules["numpy"]
        return ember.as_tensor(np.asarray(batch))
    if isinstance(elem, float):
        return ember.tensor(batch, dtype=ember.float64)
    if isinstance(elem, int):
        return ember.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)  # keeps the mapping's type and its other state
                clone.update(fields)
                return clone
            return type(elem)(fields)  # type: ignore[call-arg]
        except TypeError:
            return fields
    if _is_namedtuple(elem):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch, strict=True)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        size = len(next(it))
        if not all(len(e) == size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch, strict=True))
        if isinstance(elem, tuple):
            return [default_collate(list(s)) for s in transposed]
        collated = [default_collate(list(s)) for s in transposed]
        try:
            return type(elem)(collated)  # type: ignore[call-arg]
        except TypeError:
            return collated
    raise TypeError(_ERR.format(type(elem)))


def default_convert(data: Any) -> Any:
    """Converts one sample without batching: numpy arrays become tensors, containers recurse.

    The collate function of a DataLoader whose ``batch_size`` is None.

    Example:
        >>> import numpy as np
        >>> default_convert({"x": np.zeros(2)})["x"].dtype
        ember.float64
    """
    if isinstance(data, Tensor):
        return data
    if _is_ndarray(data) or _is_numpy_scalar(data):
        if data.dtype.kind in _STRING_KINDS:
            return data
        return ember.as_tensor(data)
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        try:
            return type(data)({k: default_convert(v) for k, v in data.items()})  # type: ignore[call-arg]
        except TypeError:
            return {k: default_convert(v) for k, v in data.items()}
    if _is_namedtuple(data):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence):
        try:
            return type(data)([default_convert(d) for d in data])  # type: ignore[call-arg]
        except TypeError:
            return [default_convert(d) for d in data]
    return data
