"""The special family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "_special_bessel_j0",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="none",
    ),
    Op(
        "_special_bessel_j1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="none",
    ),
    Op(
        "_special_erfcx",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "_special_i0e",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "_special_i1",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "_special_i1e",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "_special_ndtri",
        function="(input: Tensor, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "_special_zeta",
        function="(input: Tensor, other: Tensor | Number, *, out: Tensor | None = None) -> Any",
        grad="rule",
    ),
    Op(
        "i0",
        function="(input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="() -> Tensor",
        inplace="() -> Tensor",
        dtypes="real",
        grad="rule",
    ),
]
