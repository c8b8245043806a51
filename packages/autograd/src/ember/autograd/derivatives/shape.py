"""Derivatives of views, shape ops, joins/splits and indexing.

The gradient of a view is the output gradient put back in the input's geometry; the gradient
of a selection (indexing, gather, take) is the output gradient scattered, with accumulation,
to the positions it was read from.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import by_parts
from ember.autograd.graph import is_tensor


def _norm_dim(dim: int, ndim: int) -> int:
    return dim % ndim if ndim else 0


def _inverse_permutation(dims: Any) -> list[int]:
    dims = [int(d) % len(dims) for d in dims]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return inverse


def _has_tensor_index(index: Any) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, list) or is_tensor(i) or hasattr(i, "__array__") for i in items)


@by_parts
def _index_backward(g: Any, shape: tuple[int, ...], index: Any) -> Any:
    """The gradient of ``x[index]``: ``g`` sent back to where each element was read from."""
    if not _has_tensor_index(index):
        grad = ember.zeros(shape, dtype=g.dtype)
        grad[index] = g
        return grad
    # Advanced indexing may read an element several times: find each element's flat position
    # by indexing an arange the same way, then accumulate.
    numel = 1
    for s in shape:
        numel *= s
    positions = ember.arange(numel).reshape(shape)[index]
    flat = ember.zeros(numel, dtype=g.dtype)
    flat.index_put_((positions.reshape(-1),), g.reshape(-1), accumulate=True)
    return flat.reshape(shape)


@by_parts
def _setitem_input(g: Any, index: Any) -> Any:
    grad = g.clone()
    grad[index] = 0.0
    return grad


@by_parts
def _setitem_value(g: Any, index: Any) -> Any:
    return g[index]


@by_parts
def _view_backward(g: Any, shape: tuple[int, ...], view: Any) -> Any:
    """The gradient of a view that reads each element at most once: ``g`` written at the
    positions ``view`` takes from an arange. Out of place, so it stays differentiable."""
    numel = 1
    for s in shape:
        numel *= s
    positions = view(ember.arange(numel).reshape(shape)).reshape(-1)
    flat = ember.zeros(numel, dtype=g.dtype)
    return flat.index_put((positions,), g.reshape(-1)).reshape(shape)


def _select_backward(g: Any, shape: tuple[int, ...], dim: int, index: int) -> Any:
    return _view_backward(g, shape, lambda t: t.select(dim, index))


def _narrow_backward(g: Any, shape: tuple[int, ...], dim: int, start: int, length: int) -> Any:
    return _view_backward(g, shape, lambda t: t.narrow(dim, start, length))


def _diagonal_backward(g: Any, shape: tuple[int, ...], offset: int, dim1: int, dim2: int) -> Any:
    return _view_backward(g, shape, lambda t: t.diagonal(offset, dim1, dim2))


def _grads(g: Any) -> list[Any]:
    """The output gradients of a multi-output op: a lone tensor when it had one output."""
    return [g] if is_tensor(g) else list(g)


def _split_backward(grads: Any, shapes: Any, dim: int) -> Any:
    return ember.cat(_grads(grads), dim)


def _cat_backward(g: Any, shapes: Any, dim: int) -> list[Any]:
    ref = next(s for s in shapes if len(s) != 1 or s[0] != 0)  # legacy empty [0] inputs
    d = _norm_dim(dim, len(ref))
    grads, start = [], 0
    for s in shapes:
        if len(s) == 1 and s[0] == 0 and len(ref) != 1:
            grads.append(ember.zeros(s, dtype=g.dtype))
            continue
        grads.append(g.narrow(d, start, s[d]))
        start += s[d]
    return grads


def _stack_backward(g: Any, count: int, dim: int) -> list[Any]:
    return list(g.unbind(_norm_dim(dim, g.dim())))


def _repeat_backward(g: Any, shape: tuple[int, ...], repeats: Any) -> Any:
    repeats = [int(r) for r in repeats]
    lead = len(repeats) - len(shape)
    padded = (1,) * lead + tuple(shape)
    split: list[int] = []
    for r, s in zip(repeats, padded, strict=True):
        split += [r, s]
    grad = g.reshape(split).sum(list(range(0, 2 * len(repeats), 2)))
    return grad.reshape(shape)


def _tile_backward(g: Any, shape: tuple[int, ...], dims: Any) -> Any:
    dims = [int(d) for d in dims]
    if len(dims) < len(shape):
        dims = [1] * (len(shape) - len(dims)) + dims
    return _repeat_backward(g, shape, dims)


def _roll_backward(g: Any, shifts: Any, dims: Any) -> Any:
    if isinstance(shifts, (tuple, list)):
        negated: Any = [-int(s) for s in shifts]
    else:
        negated = -int(shifts)
    return g.roll(negated, dims)


@by_parts
def _gather_input(g: Any, shape: tuple[int, ...], dim: int, index: Any) -> Any:
    return ember.zeros(shape, dtype=g.dtype).scatter_add(dim, index, g)


@by_parts
def _index_select_input(g: Any, shape: tuple[int, ...], dim: int, index: Any) -> Any:
    d = _norm_dim(dim, len(shape))
    if len(shape) == 0:
        return g.reshape(shape)
    return ember.zeros(shape, dtype=g.dtype).index_add(d, index.reshape(-1), g)


@by_parts
def _take_input(g: Any, shape: tuple[int, ...], index: Any) -> Any:
    numel = 1
    for s in shape:
        numel *= s
    flat = ember.zeros(numel, dtype=g.dtype)
    flat.index_put_((index.reshape(-1) % max(numel, 1),), g.reshape(-1), accumulate=True)
    return flat.reshape(shape)


@by_parts
def _take_along_dim_input(g: Any, shape: tuple[int, ...], indices: Any, dim: Any) -> Any:
    if dim is None:
        return _take_input(g, shape, indices)
    d = _norm_dim(dim, len(shape))
    target = list(g.shape)
    target[d] = shape[d]
    # take_along_dim broadcasts input and indices: scatter into the broadcast shape, then sum.
    expanded = indices.expand(g.shape) if tuple(indices.shape) != tuple(g.shape) else indices
    return ember.zeros(target, dtype=g.dtype).scatter_add(d, expanded, g)


@by_parts
def _masked_select_input(g: Any, shape: tuple[int, ...], mask: Any) -> Any:
    target = ember.broadcast_shapes(shape, mask.shape)
    grad = ember.zeros(target, dtype=g.dtype)
    grad[mask.expand(target)] = g
    return grad


@by_parts
def _index_put_input(g: Any, indices: Any, accumulate: bool) -> Any:
    if accumulate:
        return g
    return g.index_put(tuple(indices), ember.zeros((), dtype=g.dtype))


@by_parts
def _index_put_values(g: Any, indices: Any) -> Any:
    return g[tuple(indices)]


def _unbind_backward(grads: Any, dim: int) -> Any:
    return ember.stack(_grads(grads), dim)


def _diag_backward(g: Any, shape: tuple[int, ...], diagonal: int) -> Any:
    if len(shape) == 1:
        return g.diagonal(diagonal)
    return _diagonal_backward(g, shape, diagonal, 0, 1)


def _trace_backward(g: Any, shape: tuple[int, ...]) -> Any:
    length = min(shape)
    return _diagonal_backward(g.expand(length), shape, 0, 0, 1)


def _diag_embed_backward(g: Any, offset: int, dim1: int, dim2: int) -> Any:
    return g.diagonal(offset, dim1, dim2).movedim(-1, -1)


def _movedim_backward(g: Any, source: Any, destination: Any) -> Any:
    return g.movedim(destination, source)


def _atleast_backward(g: Any, shapes: Any) -> list[Any]:
    grads = g if isinstance(g, tuple) else (g,)
    return [grad.reshape(shape) for grad, shape in zip(grads, shapes, strict=True)]


def _reshape(g: Any, a: Any) -> Any:
    return g.reshape(a.input_shape)


_view = Rule("input, *shape", view=True, input=_reshape)

RULES: dict[str, Rule] = {
    "atleast_1d": Rule(
        "*tensors", view=None, tensors=lambda g, a: _atleast_backward(g, a.tensors_shape)
    ),
    "atleast_2d": Rule(
        "*tensors", view=None, tensors=lambda g, a: _atleast_backward(g, a.tensors_shape)
    ),
    "atleast_3d": Rule(
        "*tensors", view=None, tensors=lambda g, a: _atleast_backward(g, a.tensors_shape)
    ),
    "Tensor.view": _view,
    "Tensor.reshape": Rule("input, *shape", view=None, input=_reshape),
    "reshape": Rule(view=None, input=_reshape),
    "Tensor.view_as": Rule(view=True, input=_reshape),
    "Tensor.reshape_as": Rule(view=None, input=_reshape),
    "flatten": Rule(view=None, input=_reshape),
    "unflatten": Rule(view=None, input=_reshape),
    "squeeze": Rule(view=True, input=_reshape),
    "unsqueeze": Rule(view=True, input=_reshape),
    "Tensor.permute": Rule(
        "input, *dims", view=True, input=lambda g, a: g.permute(_inverse_permutation(a.dims))
    ),
    "permute": Rule(view=True, input=lambda g, a: g.permute(_inverse_permutation(a.dims))),
    "transpose": Rule(view=True, input=lambda g, a: g.transpose(a.dim0, a.dim1)),
    # numpy's names for the function and method; the in-place form takes dim0/dim1.
    "swapaxes": Rule(view=True, input=lambda g, a: g.transpose(a.axis0, a.axis1)),
    "Tensor.swapaxes_": Rule(
        "input, dim0, dim1", view=True, input=lambda g, a: g.transpose(a.dim0, a.dim1)
    ),
    "t": Rule(view=True, input=lambda g, a: g.t()),
    "adjoint": Rule(view=True, input=lambda g, a: g.mT),
    "movedim": Rule(
        view=True,
        input=lambda g, a: _movedim_backward(g, a.source, a.destination),
    ),
    # Broadcasting views: the engine sums the gradient back to the input's shape.
    "Tensor.expand": Rule("input, *sizes", view=True, input=lambda g, a: g),
    "Tensor.expand_as": Rule(view=True, input=lambda g, a: g),
    "broadcast_to": Rule(view=True, input=lambda g, a: g),
    "broadcast_tensors": Rule("*tensors", tensors=lambda g, a: _grads(g)),
    "narrow": Rule(
        view=True,
        input=lambda g, a: _narrow_backward(g, a.input_shape, a.dim, int(a.start), a.length),
    ),
    "select": Rule(
        view=True,
        input=lambda g, a: _select_backward(g, a.input_shape, a.dim, int(a.index)),
    ),
    "diagonal": Rule(
        view=True,
        input=lambda g, a: _diagonal_backward(g, a.input_shape, a.offset, a.dim1, a.dim2),
    ),
    # view=None: a view for basic indexing, a copy for advanced indexing.
    "index": Rule(
        "input, index", view=None, input=lambda g, a: _index_backward(g, a.input_shape, a.index)
    ),
    # x[index] = value (in place on x).
    "setitem": Rule(
        "input, index, value",
        input=lambda g, a: _setitem_input(g, a.index),
        value=lambda g, a: _setitem_value(g, a.index),
    ),
    # Several views of one tensor: writing into one in place must be refused (view=None asks
    # the storage), or the base's gradient would silently miss the write.
    "unbind": Rule(view=None, input=lambda g, a: _unbind_backward(g, a.dim)),
    "split": Rule(
        view=None,
        tensor=lambda g, a: _split_backward(g, a.tensor_shape, a.dim),
    ),
    "Tensor.split": Rule(
        "tensor, split_size, dim=0",
        view=None,
        tensor=lambda g, a: _split_backward(g, a.tensor_shape, a.dim),
    ),
    "split_with_sizes": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, a.dim),
    ),
    "chunk": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, a.dim),
    ),
    "tensor_split": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, a.dim),
    ),
    "hsplit": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, 1 if len(a.input_shape) > 1 else 0),
    ),
    "vsplit": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, 0),
    ),
    "dsplit": Rule(
        view=None,
        input=lambda g, a: _split_backward(g, a.input_shape, 2),
    ),
    "cat": Rule(
        tensors=lambda g, a: _cat_backward(g, a.tensors_shape, a.dim if a.axis is None else a.axis),
    ),
    "stack": Rule(tensors=lambda g, a: _stack_backward(g, len(a.tensors_shape), a.dim)),
    "flip": Rule(input=lambda g, a: g.flip(a.dims)),
    "Tensor.flip": Rule("input, *dims", input=lambda g, a: g.flip(a.dims)),
    "fliplr": Rule(input=lambda g, a: g.fliplr()),
    "flipud": Rule(input=lambda g, a: g.flipud()),
    "roll": Rule(input=lambda g, a: _roll_backward(g, a.shifts, a.dims)),
    "Tensor.repeat": Rule(
        "input, *repeats", input=lambda g, a: _repeat_backward(g, a.input_shape, a.repeats)
    ),
    "tile": Rule(input=lambda g, a: _tile_backward(g, a.input_shape, a.dims)),
    "Tensor.tile": Rule(
        "input, *dims", input=lambda g, a: _tile_backward(g, a.input_shape, a.dims)
    ),
    "tril": Rule(input=lambda g, a: g.tril(a.diagonal)),
    "triu": Rule(input=lambda g, a: g.triu(a.diagonal)),
    "diag": Rule(input=lambda g, a: _diag_backward(g, a.input_shape, a.diagonal)),
    "diag_embed": Rule(
        input=lambda g, a: _diag_embed_backward(g, a.offset, a.dim1, a.dim2),
    ),
    "diagflat": Rule(
        input=lambda g, a: g.diagonal(a.offset).reshape(a.input_shape),
    ),
    "trace": Rule(input=lambda g, a: _trace_backward(g, a.input_shape)),
    "gather": Rule(
        input=lambda g, a: _gather_input(g, a.input_shape, a.dim, a.index),
    ),
    "index_select": Rule(
        input=lambda g, a: _index_select_input(g, a.input_shape, a.dim, a.index),
    ),
    "take": Rule(input=lambda g, a: _take_input(g, a.input_shape, a.index)),
    "take_along_dim": Rule(
        input=lambda g, a: _take_along_dim_input(g, a.input_shape, a.indices, a.dim),
    ),
    "masked_select": Rule(input=lambda g, a: _masked_select_input(g, a.input_shape, a.mask)),
    "index_put": Rule(
        input=lambda g, a: _index_put_input(g, a.indices, a.accumulate),
        values=lambda g, a: _index_put_values(g, a.indices),
    ),
}
