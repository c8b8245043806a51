"""The linalg_lapack family (fields: registry/_schema.py).

The underscored ops are the native halves of ember.linalg's functions: `op` is the public name
their errors start with ("[linalg.inv] ..."); ember.linalg wraps the tuples in return_types.
"""

from registry._schema import Op

OPS = [
    Op(
        "_linalg_cholesky_ex",
        function=("(A: Tensor, upper: bool, check_errors: bool, op: str) -> tuple[Tensor, Tensor]"),
        grad="rule",
        doc="(L, info): the Cholesky factor (U^T U when upper) and LAPACK's info per matrix.",
        example=(
            ">>> A = ember.tensor([[4.0, 0.0], [0.0, 9.0]])\n"
            '>>> L, info = ember._C._linalg_cholesky_ex(A, False, False, "linalg.cholesky_ex")\n'
            ">>> L.tolist(), info.item()\n"
            "([[2.0, 0.0], [0.0, 3.0]], 0)"
        ),
    ),
    Op(
        "_linalg_copy_out",
        function="(out: Tensor, result: Tensor, op: str) -> Tensor",
        grad="none",
        doc="Copies result into out (resized if its shape differs; same dtype) and returns out.",
        example=(
            ">>> out = ember.empty(0)\n"
            '>>> ember._C._linalg_copy_out(out, ember.ones(2), "linalg.inv").tolist()\n'
            "[1.0, 1.0]"
        ),
    ),
    Op(
        "_linalg_det",
        function="(A: Tensor, op: str) -> Tensor",
        grad="rule",
        doc="The determinant of each square matrix in the last two dims, from an LU factorization.",
        example=(
            ">>> A = ember.tensor([[4.0, 2.0], [2.0, 3.0]])\n"
            '>>> ember._C._linalg_det(A, "linalg.det").item()\n'
            "8.0"
        ),
    ),
    Op(
        "_linalg_eig",
        function="(A: Tensor, compute_v: bool, op: str) -> tuple[Tensor, Tensor]",
        grad="rule",
        doc="(eigenvalues, eigenvectors) of general square matrices, always complex.",
        details="The eigenvectors are unit-norm columns, empty when not compute_v.",
        example=(
            ">>> A = ember.tensor([[2.0, 0.0], [0.0, 3.0]])\n"
            '>>> w, v = ember._C._linalg_eig(A, False, "linalg.eigvals")\n'
            ">>> w.tolist(), v.numel()\n"
            "([(2+0j), (3+0j)], 0)"
        ),
    ),
    Op(
        "_linalg_eigh",
        function="(A: Tensor, UPLO: str, compute_v: bool, op: str) -> tuple[Tensor, Tensor]",
        grad="rule",
        doc="(eigenvalues ascending, eigenvectors) of symmetric matrices, read from one triangle.",
        example=(
            ">>> A = ember.tensor([[2.0, 0.0], [0.0, 1.0]])\n"
            '>>> ember._C._linalg_eigh(A, "L", True, "linalg.eigh")[0].tolist()\n'
            "[1.0, 2.0]"
        ),
    ),
    Op(
        "_linalg_inv_ex",
        function="(A: Tensor, check_errors: bool, op: str) -> tuple[Tensor, Tensor]",
        grad="rule",
        doc="(inverse, info) of square matrices; info > 0 marks a singular one.",
        example=(
            ">>> A = ember.tensor([[2.0, 0.0], [0.0, 4.0]])\n"
            '>>> ember._C._linalg_inv_ex(A, False, "linalg.inv_ex")[0].tolist()\n'
            "[[0.5, 0.0], [-0.0, 0.25]]"
        ),
    ),
    Op(
        "_linalg_lstsq",
        function=(
            "(A: Tensor, B: Tensor, rcond: float | None, driver: str, op: str) "
            "-> tuple[Tensor, Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="(solution, residuals, rank, singular_values) of min ||A X - B|| by a LAPACK driver.",
        details=(
            "driver is 'gels', 'gelsy', 'gelsd' or 'gelss'; rcond None means eps * max(m, n). "
            "Fields a driver does not compute are empty."
        ),
        example=(
            ">>> A = ember.tensor([[1.0, 0.0], [0.0, 2.0]])\n"
            '>>> ember._C._linalg_lstsq(A, ember.tensor([[1.0], [4.0]]), None, "gelsd", "x")[0].tolist()\n'  # noqa: E501
            "[[1.0], [2.0]]"
        ),
    ),
    Op(
        "_linalg_lu_factor_ex",
        function=(
            "(A: Tensor, pivot: bool, check_errors: bool, op: str) -> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="(LU, pivots, info): the packed LU factorization with 1-based int32 row swaps.",
        example=(
            ">>> A = ember.tensor([[4.0, 2.0], [2.0, 3.0]])\n"
            '>>> LU, piv, info = ember._C._linalg_lu_factor_ex(A, True, False, "linalg.lu_factor")\n'  # noqa: E501
            ">>> LU.tolist(), piv.tolist(), info.item()\n"
            "([[4.0, 2.0], [0.5, 2.0]], [1, 2], 0)"
        ),
    ),
    Op(
        "_linalg_lu_solve",
        function=(
            "(LU: Tensor, pivots: Tensor, B: Tensor, left: bool, adjoint: bool, op: str) -> Tensor"
        ),
        grad="rule",
        doc="Solves A X = B (or X A = B, or with A^H) from lu_factor's LU and pivots.",
        example=(
            ">>> A = ember.tensor([[4.0, 2.0], [2.0, 3.0]])\n"
            '>>> LU, piv, _ = ember._C._linalg_lu_factor_ex(A, True, False, "linalg.lu_factor")\n'
            ">>> B = ember.tensor([[8.0], [7.0]])\n"
            '>>> ember._C._linalg_lu_solve(LU, piv, B, True, False, "linalg.lu_solve").tolist()\n'
            "[[1.25], [1.5]]"
        ),
    ),
    Op(
        "_linalg_qr",
        function="(A: Tensor, mode: str, op: str) -> tuple[Tensor, Tensor]",
        grad="rule",
        doc="(Q, R) with A = Q R; mode 'reduced', 'complete' or 'r' (Q empty).",
        example=(
            '>>> Q, R = ember._C._linalg_qr(ember.ones(3, 2), "reduced", "linalg.qr")\n'
            ">>> Q.shape, R.shape\n"
            "(ember.Size([3, 2]), ember.Size([2, 2]))"
        ),
    ),
    Op(
        "_linalg_slogdet",
        function="(A: Tensor, op: str) -> tuple[Tensor, Tensor]",
        grad="rule",
        doc="(sign, log|det|) of square matrices, from an LU factorization.",
        example=(
            ">>> A = ember.tensor([[-2.0, 0.0], [0.0, 3.0]])\n"
            '>>> sign, logabsdet = ember._C._linalg_slogdet(A, "linalg.slogdet")\n'
            ">>> sign.item(), round(logabsdet.item(), 4)\n"
            "(-1.0, 1.7918)"
        ),
    ),
    Op(
        "_linalg_solve_ex",
        function=(
            "(A: Tensor, B: Tensor, left: bool, check_errors: bool, op: str) "
            "-> tuple[Tensor, Tensor]"
        ),
        grad="rule",
        doc="(X, info) with A X = B (or X A = B); B may be a vector and batches broadcast.",
        example=(
            ">>> A = ember.tensor([[2.0, 0.0], [0.0, 4.0]])\n"
            '>>> X, info = ember._C._linalg_solve_ex(A, ember.tensor([2.0, 4.0]), True, False, "x")\n'  # noqa: E501
            ">>> X.tolist(), info.item()\n"
            "([1.0, 1.0], 0)"
        ),
    ),
    Op(
        "_linalg_svd",
        function=(
            "(A: Tensor, full_matrices: bool, compute_uv: bool, op: str) "
            "-> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="(U, S, Vh) with A = U diag(S) Vh, S descending; U and Vh empty when not compute_uv.",
        example=(
            ">>> A = ember.tensor([[3.0, 0.0], [0.0, -2.0]])\n"
            '>>> ember._C._linalg_svd(A, False, False, "linalg.svdvals")[1].tolist()\n'
            "[3.0, 2.0]"
        ),
    ),
    Op(
        "_lu_unpack",
        function=(
            "(LU: Tensor, pivots: Tensor, unpack_data: bool, unpack_pivots: bool, op: str) "
            "-> tuple[Tensor, Tensor, Tensor]"
        ),
        grad="rule",
        doc="(P, L, U) with A = P @ L @ U from lu_factor's output; parts not asked for are empty.",
        example=(
            ">>> A = ember.tensor([[4.0, 2.0], [2.0, 3.0]])\n"
            '>>> LU, piv, _ = ember._C._linalg_lu_factor_ex(A, True, False, "linalg.lu_factor")\n'
            '>>> P, L, U = ember._C._lu_unpack(LU, piv, True, True, "lu_unpack")\n'
            ">>> L.tolist(), U.tolist()\n"
            "([[1.0, 0.0], [0.5, 1.0]], [[4.0, 2.0], [0.0, 2.0]])"
        ),
    ),
    Op(
        "adjoint",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        conj="pass",
        grad="rule",
        doc="A view of the conjugate transpose of the last two dims (x.mT.conj()).",
        example=(">>> ember.adjoint(ember.tensor([[1 + 2j, 3j]])).tolist()\n[[(1-2j)], [-3j]]"),
    ),
]
