"""The linalg_lapack family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "_linalg_cholesky_ex",
        function="(A: Tensor, upper: Any, check_errors: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_copy_out",
        function="(out: Tensor | None, result: Any, op: Any) -> Any",
        grad="none",
    ),
    Op(
        "_linalg_det",
        function="(A: Tensor, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_eig",
        function="(A: Tensor, compute_v: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_eigh",
        function="(A: Tensor, UPLO: str, compute_v: bool, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_inv_ex",
        function="(A: Tensor, check_errors: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_lstsq",
        function="(A: Tensor, B: Tensor, rcond: Any, driver: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_lu_factor_ex",
        function="(A: Tensor, pivot: Any, check_errors: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_lu_solve",
        function="(LU: Any, pivots: Any, B: Tensor, left: Any, adjoint: Any, op: Any) -> Tensor",
        grad="rule",
    ),
    Op(
        "_linalg_qr",
        function="(A: Tensor, mode: Any, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_slogdet",
        function="(A: Tensor, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_solve_ex",
        function="(A: Tensor, B: Tensor, left: bool, check_errors: bool, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_linalg_svd",
        function="(A: Tensor, full_matrices: bool, compute_uv: bool, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "_lu_unpack",
        function="(LU: Any, pivots: Any, unpack_data: bool, unpack_pivots: bool, op: Any) -> Any",
        grad="rule",
    ),
    Op(
        "adjoint",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
    ),
    Op(
        "mode",
        function=(
            "(input: Tensor, dim: int = -1, keepdim: bool = False, *, out: Tensor | tuple[Tensor, "
            "...] | list[Tensor] | None = None) -> Any"
        ),
        method="(dim: int = -1, keepdim: bool = False) -> Any",
        grad="rule",
        doc="The most frequent value along `dim` and an index where it occurs.",
        details="Ties go to the smallest value. Returns a namedtuple (values, indices).",
        example=(">>> ember.mode(ember.tensor([3, 1, 1, 3, 2])).values.item()\n1"),
    ),
]
