"""copy, deepcopy and pickle of tensors: a tensor travels as its storage's bytes plus its geometry.

A pickled tensor is ``_rebuild_tensor(storage, dtype code, size, stride, offset, flags, cls,
state)``; ``storage`` is a :class:`_Storage` that pickles as ``_rebuild_storage(bytes)``. Both
functions live in this module and only rebuild data: no code travels in the pickle. Tensors that
view one storage share one :class:`_Storage` object within a pickle (pickle's memo), so they
unpickle as views of one new storage.
"""

from __future__ import annotations

import weakref
from typing import Any

from ember import _safetensors as st
from ember_core import _C

__all__ = ["deepcopy_tensor", "reduce_tensor"]

# Live _Storage objects by storage id: while one pickle holds a storage (pickle keeps memoized
# objects alive), every other tensor over that storage reuses the same object, so the memo
# writes the bytes once.
_LIVE: weakref.WeakValueDictionary[int, _Storage] = weakref.WeakValueDictionary()

_NON_LEAF_DEEPCOPY = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at "
    "the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


class _Storage:
    """One storage's bytes, held as a 1-d uint8 tensor over the whole storage."""

    __slots__ = ("__weakref__", "base")

    def __init__(self, base: Any) -> None:
        self.base = base

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return _rebuild_storage, (bytes(memoryview(self.base)),)


def _rebuild_storage(data: bytes | bytearray) -> _Storage:
    """A new storage holding ``data`` (allocated by ember, so aligned for every dtype)."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"[unpickle] storage data must be bytes, got {type(data).__name__}")
    base: Any = _C.empty(len(data), dtype=_C.uint8)
    if data:
        memoryview(base)[:] = data  # one copy, straight into the new storage
    return _Storage(base)


def _storage_of(t: Any) -> _Storage:
    key = _C._storage_id(t)
    found = _LIVE.get(key)
    if found is None:
        found = _Storage(_C._storage_bytes(t))
        _LIVE[key] = found
    return found


def _view(storage: Any, code: str, size: Any, stride: Any, offset: int, conj: bool, op: str) -> Any:
    if code not in st.DTYPES:
        raise ValueError(f"[{op}] unknown dtype code {code!r}")
    t = _C._view_storage(storage, st.DTYPES[code], list(size), list(stride), offset)
    return t.conj() if conj else t


def _finish(t: Any, cls: type | None, requires_grad: bool, state: Any) -> Any:
    if cls is not None and cls is not type(t):
        t = _C._as_subclass(t, cls)
    if requires_grad:
        t.requires_grad_(True)
    if state:
        t.__dict__.update(state)
    return t


def _rebuild_tensor(
    storage: _Storage,
    code: str,
    size: tuple[int, ...],
    stride: tuple[int, ...],
    offset: int,
    requires_grad: bool,
    conj: bool,
    cls: type | None,
    state: dict[str, Any] | None,
) -> Any:
    """Rebuilds a pickled tensor over ``storage`` (bounds checked in C++ by ``_view_storage``)."""
    if not isinstance(storage, _Storage):
        raise TypeError(f"[unpickle] expected an ember storage, got {type(storage).__name__}")
    t = _view(storage.base, code, size, stride, offset, conj, "unpickle")
    return _finish(t, cls, requires_grad, state)


def _subclass(t: Any) -> type | None:
    from ember._tensor import Tensor  # a cycle at import time: _tensor imports this module

    return None if type(t) is Tensor else type(t)


def _instance_state(t: Any) -> dict[str, Any] | None:
    state = getattr(t, "__dict__", None)
    return dict(state) if state else None


def reduce_tensor(t: Any, protocol: int) -> tuple[Any, tuple[Any, ...]]:
    """``Tensor.__reduce_ex__``: bytes + geometry + dtype + requires_grad (+ subclass, __dict__).

    ``copy.copy`` goes through it too and, as in torch, gets a new tensor over the same storage.
    """
    cls = _subclass(t)
    return _rebuild_tensor, (
        _storage_of(t),
        st.DTYPE_CODES[t.dtype],
        tuple(t.shape),
        tuple(t.stride()),
        t.storage_offset(),
        bool(t.requires_grad),
        bool(t.is_conj()),
        cls,
        _instance_state(t),
    )


def deepcopy_tensor(t: Any, memo: dict[Any, Any]) -> Any:
    """``Tensor.__deepcopy__``: copies the storage once per ``memo`` (views stay views of it)."""
    if not isinstance(memo, dict):
        raise TypeError(f"[deepcopy] memo must be a dict, got {type(memo).__name__}")
    if not t.is_leaf:
        raise RuntimeError(_NON_LEAF_DEEPCOPY)
    if id(t) in memo:
        return memo[id(t)]
    key = ("ember.storage", _C._storage_id(t))
    base = memo.get(key)
    if base is None:
        base = _C._storage_bytes(t).clone()
        memo[key] = base
        memo.setdefault(id(memo), []).append(t)  # keeps the storage id from being reused
    new = _view(base, st.DTYPE_CODES[t.dtype], t.shape, t.stride(), t.storage_offset(),
                bool(t.is_conj()), "deepcopy")  # fmt: skip
    import copy

    cls = _subclass(t)
    state = _instance_state(t)
    new = _finish(new, cls, bool(t.requires_grad), None)
    memo[id(t)] = new
    if t.grad is not None:
        new.grad = copy.deepcopy(t.grad, memo)
    if state:
        new.__dict__.update(copy.deepcopy(state, memo))
    return new


# ---- what a weights-only load of an ember pickle section allows without being told.


def _checked_rebuild_tensor(
    storage: Any,
    code: Any,
    size: Any,
    stride: Any,
    offset: Any,
    requires_grad: Any,
    conj: Any,
    cls: Any,
    state: Any,
) -> Any:
    """``_rebuild_tensor`` for weights-only loads: every argument's type checked first (the
    view's bounds are checked in C++)."""
    from ember._tensor import Tensor
    from ember._weights_only import fail

    ints = (size, stride)
    if not isinstance(storage, _Storage) or not isinstance(code, str) or code not in st.DTYPES:
        raise fail("a pickled tensor needs an ember storage and a dtype code")
    if not all(isinstance(v, tuple) and all(st.is_int(i) for i in v) for v in ints):
        raise fail(f"a pickled tensor's size and stride must be int tuples: {ints!r:.80}")
    if not st.is_int(offset) or not isinstance(requires_grad, bool) or not isinstance(conj, bool):
        raise fail("a pickled tensor's offset must be an int, its flags bools")
    if cls is not None and not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise fail(f"a pickled tensor's class must be a Tensor subclass, got {cls!r:.60}")
    if state is not None and not (
        isinstance(state, dict) and all(isinstance(k, str) for k in state)
    ):
        raise fail("a pickled tensor's state must be a dict of str keys")
    try:
        return _rebuild_tensor(storage, code, size, stride, offset, requires_grad, conj, cls, state)
    except (TypeError, ValueError) as error:
        raise fail(f"a pickled tensor is invalid: {error}") from None


def _checked_rebuild_parameter(data: Any, requires_grad: Any, state: Any) -> Any:
    from ember._dtype import is_tensor
    from ember._weights_only import fail
    from ember.nn.parameter import _rebuild_parameter

    if not is_tensor(data) or not isinstance(requires_grad, bool):
        raise fail("a pickled Parameter needs a tensor and a bool requires_grad")
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise fail("a pickled Parameter's state must be a dict of str keys")
    return _rebuild_parameter(data, requires_grad, state)


def implicit_globals() -> dict[str, Any]:
    """The globals ember's own pickles name, allowed in every weights-only load (as torch allows
    its tensor rebuild functions, ``Parameter``, ``OrderedDict``, ``Size``, ``device``, dtypes).
    Not ``Tensor`` itself: ``Tensor(n, m)`` would allocate whatever the file asks."""
    import collections

    from ember import _memory_format
    from ember._device import device
    from ember._tensor import Size
    from ember._weights_only import builtin_builder, codecs_encode

    table: dict[str, Any] = {
        "ember._tensor_pickle._rebuild_tensor": _checked_rebuild_tensor,
        "ember._tensor_pickle._rebuild_storage": _rebuild_storage,
        "ember._tensor.Size": Size,
        "ember._device.device": device,
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "builtins.set": builtin_builder(set),
        "builtins.frozenset": builtin_builder(frozenset),
        "builtins.bytearray": builtin_builder(bytearray),
        "builtins.complex": builtin_builder(complex),
        "_codecs.encode": codecs_encode,
    }
    for name in ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d"):
        table[f"ember._memory_format.{name}"] = getattr(_memory_format, name)
    for dtype in st.DTYPES.values():
        table[f"ember_core._C.{str(dtype).removeprefix('ember.')}"] = dtype
    try:
        from ember.nn.parameter import Parameter
    except ImportError:  # ember-nn not installed: no Parameter to rebuild
        return table
    table["ember.nn.parameter._rebuild_parameter"] = _checked_rebuild_parameter
    table["ember.nn.parameter.Parameter"] = Parameter
    return table
