"""The backward engine: runs the recorded graph in reverse, in dependency order.

No recursion anywhere (a chain of 100,000 ops is fine): dependencies are counted with an explicit
stack, then nodes run as soon as every gradient they wait for has arrived (Kahn's algorithm).
All state is local to one call, so independent backward passes can run in several threads.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import ember
from ember.autograd import _anomaly
from ember.autograd.graph import AccumulateGrad, Edge, Node
from ember_core import _C


def _add(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _count_dependencies(roots: Sequence[Node], needed: set[Node] | None) -> dict[Node, int]:
    deps: dict[Node, int] = {}
    seen = set(roots)
    stack = list(roots)
    while stack:
        node = stack.pop()
        for edge in node.next_functions:
            if edge is None:
                continue
            nxt = edge[0]
            if needed is not None and nxt not in needed:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _nodes_leading_to(roots: Sequence[Node], targets: set[Node]) -> set[Node]:
    """The nodes from which some target is reachable (iterative post-order walk)."""
    needed: set[Node] = set()
    done: set[Node] = set()
    stack: list[tuple[Node, bool]] = [(r, False) for r in roots]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            if node in targets or any(
                e is not None and e[0] in needed for e in node.next_functions
            ):
                needed.add(node)
            done.add(node)
            continue
        if node in done:
            continue
        stack.append((node, True))
        for edge in node.next_functions:
            if edge is not None and edge[0] not in done:
                stack.append((edge[0], False))
    return needed


def _run_tensor_hooks(node: Node, buffer: list[Any]) -> None:
    hooks = node._tensor_pre_hooks
    if hooks:
        for nr, fns in hooks.items():
            for fn in list(fns):
                if buffer[nr] is None:
                    continue
                new = fn(buffer[nr])
                if new is not None:
                    buffer[nr] = new
    retained = node._retained_grads
    if retained:
        # retain_grad() stores the gradient after every other hook on the tensor, as torch does.
        for nr, meta in retained.items():
            if buffer[nr] is not None:
                grad = buffer[nr].detach()
                meta.grad = grad.clone() if meta.grad is None else meta.grad + grad
    if node._pre_hooks:
        for fn in list(node._pre_hooks):
            new = fn(tuple(buffer))
            if new is not None:
                buffer[:] = list(new)


def _obeys_layout(grad: Any, variable: Any) -> bool:
    """torch's gradient layout contract: a new .grad has its parameter's strides when the
    parameter is dense (else it is contiguous), so optimizers' fused steps and later add_s see
    one layout. A transposed gradient (the backward of weight.T) or an expanded one (stride 0,
    which a later add_ could not write) does not obey it."""
    if variable.is_contiguous():
        return bool(grad.is_contiguous())
    return bool(grad.stride() == variable.stride())


def _clone_in_layout(grad: Any, variable: Any) -> Any:
    if variable.is_contiguous() or not _dense(variable):
        return grad.clone(memory_format=ember.contiguous_format)
    return ember.empty_strided(variable.shape, variable.stride(), dtype=grad.dtype).copy_(grad)


def _dense(t: Any) -> bool:
    """Whether t's elements fill their storage span exactly (a permutation of a contiguous
    layout), which torch requires before a gradient copies its strides."""
    strides = t.stride()
    if any(st <= 0 for st, n in zip(strides, t.shape, strict=True) if n > 1):
        return False
    span = 1 + sum((n - 1) * st for st, n in zip(strides, t.shape, strict=True) if n > 0)
    return bool(span == t.numel())


def _accumulate(node: AccumulateGrad, grad: Any, create_graph: bool, owned: set[int]) -> None:
    meta = node.meta
    if meta.hooks:
        for fn in list(meta.hooks):
            new = fn(grad)
            if new is not None:
                grad = new
    if grad is None:
        return
    if meta.grad is None:
        if create_graph:
            meta.grad = grad
        elif id(grad) in owned and _obeys_layout(grad, node.variable):
            meta.grad = grad.detach()
        else:
            # The same gradient object may reach several leaves (or be the caller's own
            # tensor): each .grad must be its own tensor, since optimizers modify it in place.
            meta.grad = _clone_in_layout(grad, node.variable)
        owned.discard(id(grad))
    elif create_graph:
        meta.grad = meta.grad + grad
    else:
        meta.grad.add_(grad)
    if meta.post_accumulate_hooks:
        for fn in list(meta.post_accumulate_hooks):
            fn(node.variable)


def _check_nan(node: Node, grads: list[Any]) -> None:
    for i, g in enumerate(grads):
        if g is not None and (g.is_floating_point() or g.is_complex()) and bool(g.isnan().any()):
            trace = node.metadata.get("traceback_")
            if trace:
                sys.stderr.write(
                    f"Error detected in {node.name()}. Traceback of forward call that caused "
                    "the error:\n" + "".join(trace)
                )
            raise RuntimeError(
                f"[backward] Function '{node.name()}' returned nan values in its {i}th output."
            )


def run_backward(
    roots: Sequence[Edge],
    grads: Sequence[Any],
    retain_graph: bool,
    create_graph: bool,
    capture: Sequence[Edge] | None = None,
    accumulate: bool = True,
) -> list[Any]:
    """Propagates ``grads`` from ``roots``; returns the gradients reaching ``capture`` edges.

    With ``accumulate`` the leaves' ``.grad`` are updated (``backward``); ``autograd.grad``
    passes ``accumulate=False`` and reads the captured gradients instead.
    """
    root_nodes = list(dict.fromkeys(edge[0] for edge in roots))
    capture_map: dict[Node, list[tuple[int, int]]] = {}
    if capture is not None:
        for i, (node, nr) in enumerate(capture):
            capture_map.setdefault(node, []).append((i, nr))
    captured: list[Any] = [None] * (len(capture) if capture is not None else 0)
    needed = None
    if capture is not None:
        needed = _nodes_leading_to(root_nodes, set(capture_map))
    deps = _count_dependencies(root_nodes, needed)

    buffers: dict[Node, list[Any]] = {}
    for (node, nr), grad in zip(roots, grads, strict=True):
        buffer = buffers.get(node)
        if buffer is None:
            buffer = buffers[node] = [None] * node.num_outputs
        buffer[nr] = _add(buffer[nr], grad)
    # Gradients the caller handed in are not ours to store in a .grad without copying.
    foreign = {id(g) for g in grads}
    owned: set[int] = set()

    ready = [n for n in root_nodes if deps.get(n, 0) == 0]
    previous_mode = _C.is_grad_enabled()
    _C._set_grad_enabled(create_graph)
    try:
        while ready:
            node = ready.pop()
            buffer = buffers.pop(node, None)
            if buffer is None:
                buffer = [None] * node.num_outputs
            if node._tensor_pre_hooks or node._pre_hooks or node._retained_grads:
                _run_tensor_hooks(node, buffer)
            targets = capture_map.get(node)
            if targets is not None:
                for index, nr in targets:
                    if type(node) is AccumulateGrad and node.meta.hooks:
                        captured[index] = _apply_leaf_hooks(node, buffer[nr])
                    else:
                        captured[index] = buffer[nr]
            if type(node) is AccumulateGrad:
                if accumulate:
                    _accumulate(node, buffer[0], create_graph, owned)
                continue
            if (
                needed is not None
                and node in capture_map
                and not any(e is not None and e[0] in needed for e in node.next_functions)
            ):
                continue
            grads_in = node.apply(buffer)
            if node._hooks:
                for fn in list(node._hooks):
                    new = fn(tuple(grads_in), tuple(buffer))
                    if new is not None:
                        grads_in = list(new)
            if _anomaly.enabled and _anomaly.check_nan:
                _check_nan(node, grads_in)
            if not retain_graph:
                node.release()
            for edge, grad in zip(node.next_functions, grads_in, strict=False):
                if edge is None:
                    continue
                nxt, nr = edge
                if needed is not None and nxt not in needed:
                    continue
                if grad is not None:
                    if id(grad) not in foreign:
                        owned.add(id(grad))
                    buffer = buffers.get(nxt)
                    if buffer is None:
                        buffer = buffers[nxt] = [None] * nxt.num_outputs
                    buffer[nr] = _add(buffer[nr], grad)
                count = deps[nxt] - 1
                deps[nxt] = count
                if count == 0:
                    ready.append(nxt)
    except Exception as error:
        if _anomaly.enabled and "node" in locals():
            trace = node.metadata.get("traceback_")
            if trace:
                sys.stderr.write(
                    f"Error detected in {node.name()}. Traceback of forward call that caused "
                    "the error:\n" + "".join(trace)
                )
        raise error
    finally:
        _C._set_grad_enabled(previous_mode)
    return captured


def _apply_leaf_hooks(node: AccumulateGrad, grad: Any) -> Any:
    for fn in list(node.meta.hooks or ()):
        new = fn(grad)
        if new is not None:
            grad = new
    return grad
