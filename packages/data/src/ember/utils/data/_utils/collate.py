"""``torch.utils.data._utils.collate``'s names, where torch documents them to be imported from.

The implementation is ``ember.utils.data.collate``; this module only re-exports it so that
``from torch.utils.data._utils.collate import collate, default_collate_fn_map`` works unchanged.
"""

from ember.utils.data.collate import (
    collate,
    collate_float_fn,
    collate_int_fn,
    collate_numpy_array_fn,
    collate_numpy_scalar_fn,
    collate_str_fn,
    collate_tensor_fn,
    default_collate,
    default_collate_fn_map,
    default_convert,
)

__all__ = [
    "collate",
    "collate_float_fn",
    "collate_int_fn",
    "collate_numpy_array_fn",
    "collate_numpy_scalar_fn",
    "collate_str_fn",
    "collate_tensor_fn",
    "default_collate",
    "default_collate_fn_map",
    "default_convert",
]
