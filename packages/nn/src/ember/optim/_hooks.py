"""RemovableHandle: the handle returned by the optimizer's hook registration methods."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any


class RemovableHandle:
    """Removes one hook from the ordered dicts it was added to (torch.utils.hooks.RemovableHandle).

    Example:
        >>> h = optimizer.register_step_pre_hook(lambda opt, args, kwargs: None)
        >>> h.remove()
    """

    next_id: int = 0

    def __init__(self, hooks_dict: OrderedDict[int, Any], *extra: OrderedDict[int, Any]) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.extra_refs = tuple(weakref.ref(d) for d in extra)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self) -> None:
        """Removes the hook; removing twice is a no-op."""
        for ref in (self.hooks_dict_ref, *self.extra_refs):
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *args: object) -> None:
        self.remove()
