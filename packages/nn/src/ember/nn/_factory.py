"""``ember.nn.factory_kwargs``: normalise the ``device``/``dtype`` keyword arguments of a layer."""

from __future__ import annotations

from typing import Any


def factory_kwargs(kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """Merges ``device``/``dtype``/``memory_format`` and a nested ``factory_kwargs`` dict.

    Example:
        >>> ember.nn.factory_kwargs({"device": "cpu", "factory_kwargs": {"dtype": ember.float64}})
        {'dtype': ember.float64, 'device': 'cpu'}
    """
    if kwargs is None:
        return {}
    if not isinstance(kwargs, dict):
        raise TypeError(
            f"factory_kwargs(): argument 'kwargs' must be a dict, not {type(kwargs).__name__}"
        )
    simple_keys = {"device", "dtype", "memory_format"}
    expected_keys = simple_keys | {"factory_kwargs"}
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")
    r = dict(kwargs.get("factory_kwargs", {}))
    for k in ("device", "dtype", "memory_format"):
        if k in kwargs:
            if k in r:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            r[k] = kwargs[k]
    return r
