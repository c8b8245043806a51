"""default_collate and default_convert: samples to batches, as torch's.

Inside a DataLoader worker, stacked tensors are allocated directly in shared memory, so the
batch crosses to the main process without a copy.
"""

from __future__ import annotations

import collections.abc
import copy
import sys
from collections.abc import Callable
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


CollateFnMap = dict[type | tuple[type, ...], Callable[..., Any]]


def collate(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Any:
    """Collates a batch, looking up each element's type in ``collate_fn_map`` (torch's ``collate``).

    The element's exact type is looked up first, then each key in insertion order with
    ``isinstance``; containers (mappings, namedtuples, sequences) are collated per field with the
    same map. Each function in the map takes the batch and ``collate_fn_map`` as a keyword.

    Raises:
        RuntimeError: sequences of different lengths.
        TypeError: an element no entry of the map and no container rule handles.

    Example:
        >>> def stack(batch, *, collate_fn_map):
        ...     return ember.stack(batch, 0)
        >>> collate([ember.ones(2), ember.zeros(2)], collate_fn_map={Tensor: stack}).shape
        ember.Size([2, 2])
    """
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if collate_fn_map is default_collate_fn_map:
            _register_numpy()
        fn = collate_fn_map.get(elem_type)
        if fn is not None:
            return fn(batch, collate_fn_map=collate_fn_map)
        for collate_type, fn in collate_fn_map.items():
            if isinstance(elem, collate_type):
                return fn(batch, collate_fn_map=collate_fn_map)

    # Samples are passed as torch passes them: a list per mapping key, a tuple per position of
    # a sequence or namedtuple (so a string field collates to a tuple there, as in torch).
    def recurse(samples: Any) -> Any:
        return collate(samples, collate_fn_map=collate_fn_map)

    if isinstance(elem, collections.abc.Mapping):
        fields = {key: recurse([d[key] for d in batch]) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)  # keeps the mapping's type and its other state
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if _is_namedtuple(elem):
        return elem_type(*(recurse(s) for s in zip(*batch, strict=True)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        size = len(next(it))
        if not all(len(e) == size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch, strict=True))
        if isinstance(elem, tuple):
            return [recurse(s) for s in transposed]
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                seq = copy.copy(elem)  # keeps the sequence's type and its other state
                for i, s in enumerate(transposed):
                    seq[i] = recurse(s)
                return seq
            return elem_type([recurse(s) for s in transposed])
        except TypeError:
            return [recurse(s) for s in transposed]
    raise TypeError(_ERR.format(elem_type))


def collate_tensor_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Tensor:
    """Stacks tensors along a new first dimension (in shared memory inside a worker)."""
    return _stack(list(batch))


def collate_numpy_array_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Any:
    """Turns numpy arrays into tensors and collates those; string arrays are refused."""
    if batch[0].dtype.kind in _STRING_KINDS:
        raise TypeError(_ERR.format(batch[0].dtype))
    return collate([ember.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Tensor:
    """Numpy scalars become one tensor of their dtype."""
    if batch[0].dtype.kind in _STRING_KINDS:
        raise TypeError(_ERR.format(batch[0].dtype))
    np = sys.modules["numpy"]
    return ember.as_tensor(np.asarray(batch))


def collate_float_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Tensor:
    """Python floats become a float64 tensor."""
    return ember.tensor(batch, dtype=ember.float64)


def collate_int_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Tensor:
    """Python ints (and bools) become an int64 tensor."""
    return ember.tensor(batch)


def collate_str_fn(batch: Any, *, collate_fn_map: CollateFnMap | None = None) -> Any:
    """Strings and bytes stay a list."""
    return batch


# The map default_collate uses; users extend it in place, as torch documents. The numpy entries
# join it (right after Tensor, where torch puts them) only once numpy is imported: ember never
# imports numpy for a DataLoader whose samples hold none (spawn workers start lean).
default_collate_fn_map: CollateFnMap = {
    Tensor: collate_tensor_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}
_numpy_registered = False


def _register_numpy() -> None:
    global _numpy_registered
    if _numpy_registered:
        return
    np = sys.modules.get("numpy")  # a numpy value can only exist once numpy is imported
    if np is None:
        return
    _numpy_registered = True
    rest = {k: v for k, v in default_collate_fn_map.items() if k is not Tensor}
    tensor_fn = default_collate_fn_map.get(Tensor)
    default_collate_fn_map.clear()  # in place: users hold this dict
    if tensor_fn is not None:
        default_collate_fn_map[Tensor] = tensor_fn
    default_collate_fn_map.setdefault(np.ndarray, rest.pop(np.ndarray, collate_numpy_array_fn))
    scalars = (np.bool_, np.number, np.object_)
    default_collate_fn_map.setdefault(scalars, rest.pop(scalars, collate_numpy_scalar_fn))
    default_collate_fn_map.update(rest)


def default_collate(batch: Any) -> Any:
    """Merges a list of samples into a batch.

    Tensors are stacked along a new first dimension; numpy arrays become tensors and are
    stacked; Python floats become a float64 tensor, ints an int64 tensor; strings and bytes stay
    a list; dicts, namedtuples and sequences are collated per field (tuples give lists, as in
    torch). Extend it for your own types through ``default_collate_fn_map``.

    Raises:
        RuntimeError: tensors of different shapes, or sequences of different lengths.
        TypeError: an element of a type it cannot batch.

    Example:
        >>> default_collate([(ember.ones(2), 0), (ember.zeros(2), 1)])[1]
        tensor([0, 1])
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


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
