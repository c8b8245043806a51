"""The dtype family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "get_num_threads",
        function="() -> int",
        grad="none",
    ),
    Op(
        "set_num_threads",
        function="(num: int) -> None",
        grad="none",
    ),
]
