"""The pairwise family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "cdist",
        function="(x1: Any, x2: Any, p: float = 2.0, compute_mode: Any = None) -> Any",
        grad="rule",
    ),
    Op(
        "corrcoef",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        grad="rule",
    ),
    Op(
        "cov",
        function=(
            "(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, "
            "aweights: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(*, correction: int = 1, fweights: Tensor | None = None, "
            "aweights: Tensor | None = None) -> Tensor"
        ),
        grad="rule",
    ),
    Op(
        "polygamma",
        function="(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(n: int) -> Tensor",
        inplace="(n: int) -> Tensor",
        grad="rule",
    ),
]
