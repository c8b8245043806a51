"""What ``ember.save`` stores beyond tensors and plain containers: numpy arrays (as data) and,
only on the caller's explicit opt-in, a pickle section for other objects (docs/serialization.md).

A numpy array becomes a tensor record plus a tree node ``["ndarray", i]`` (``["npscalar", i]``
for numpy scalars) and loads back as a numpy array. Objects outside the format go, all together,
into one pickle stored as the uint8 entry ``__ember_pickle__``; the tree holds
``["pickle", k, "module.Class"]`` for the k-th. ``load`` unpickles that entry with the
weights-only unpickler (ember's rebuild functions and the user allowlist), or with plain pickle
when ``weights_only=False``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from ember_core import _C

__all__ = [
    "PICKLE_ENTRY",
    "PICKLE_KEY",
    "class_name",
    "is_numpy",
    "numpy_tensor",
    "unpickle_section",
]

PICKLE_ENTRY = "__ember_pickle__"
PICKLE_KEY = "ember.pickle"  # metadata: the index of the pickle section's tensor record

# numpy dtypes ember stores as data (bfloat16 has no numpy dtype; others need the pickle opt-in).
_NUMPY_KINDS = {
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
    "complex64", "complex128", "uint16", "uint32", "uint64",
}  # fmt: skip


def is_numpy(obj: Any) -> bool:
    """Whether ``obj`` is a numpy array or scalar (checked without importing numpy)."""
    return type(obj).__module__ == "numpy" and hasattr(obj, "__array_interface__")


def numpy_tensor(obj: Any) -> Any | None:
    """A tensor holding a copy of the array's values (native byte order), or None for dtypes
    ember has no tensor dtype for (object, str, datetime, unsigned 16/32/64-bit, ...)."""
    import numpy as np

    array = np.asarray(obj)
    if array.dtype.name not in _NUMPY_KINDS:
        return None
    native = np.asarray(array, dtype=array.dtype.newbyteorder("="), order="C")  # keeps 0-d
    return _C.from_numpy(native).clone()


def class_name(obj: Any) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def unpickle_section(
    metadata: dict[str, str], makers: list[Callable[[], Any]], weights_only: bool
) -> list[Any]:
    """The objects of the pickle section: with weights_only, through the restricted unpickler
    (ember's rebuild functions and the user allowlist only); else plain pickle, which runs the
    file's code."""
    import pickle

    from ember import _tensor_pickle
    from ember import _weights_only as restricted

    index = metadata.get(PICKLE_KEY, "")
    if not index.isdigit() or int(index) >= len(makers):
        raise restricted.fail("the file's pickle nodes name no pickle section")
    raw: Any = makers[int(index)]()
    data = memoryview(raw.contiguous())
    if weights_only:
        unpickler = restricted.RestrictedUnpickler(
            io.BytesIO(data), _tensor_pickle.implicit_globals()
        )
        try:
            objects = unpickler.load()
        except (restricted.UnpicklingError, RuntimeError, NotImplementedError):
            raise
        except Exception as error:  # malformed opcodes, allowed callables given bad arguments
            raise restricted.fail(
                f"the pickle section is malformed: {type(error).__name__}: {error}"
            ) from None
    else:
        objects = pickle.loads(data)
    if not isinstance(objects, list):
        raise restricted.fail("the pickle section does not hold a list")
    return objects
