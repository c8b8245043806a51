"""The pairwise family (fields: registry/_schema.py)."""

from registry._schema import Op, unary

OPS = [
    Op(
        "cdist",
        function=(
            "(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str | None = None) -> Tensor"
        ),
        grad="rule",
        doc="The p-norm distance between each row of x1 and each row of x2 (batched: [B, P, R]).",
        details=(
            "Args:\n"
            "    x1 (Tensor): [B, P, M] or [P, M], float32 or float64.\n"
            "    x2 (Tensor): [B, R, M] or [R, M]; batch dims broadcast.\n"
            "    p (float): the norm's order, >= 0 (inf too).\n"
            "    compute_mode (str, optional): 'use_mm_for_euclid_dist_if_necessary', "
            "'use_mm_for_euclid_dist'\n"
            "        or 'donot_use_mm_for_euclid_dist' (how p=2 is computed)."
        ),
        example=(
            ">>> x1 = ember.tensor([[0.0, 0.0]])\n"
            ">>> ember.cdist(x1, ember.tensor([[3.0, 4.0], [1.0, 0.0]])).tolist()\n"
            "[[5.0, 1.0]]"
        ),
    ),
    Op(
        "corrcoef",
        function="(input: Tensor) -> Tensor",
        method="() -> Tensor",
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="Pearson correlation coefficients of the rows (variables) of a 1-d or 2-d input.",
        example=(
            ">>> ember.corrcoef(ember.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).tolist()\n"
            "[[1.0, -1.0], [-1.0, 1.0]]"
        ),
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
        dtypes="numeric+complex, unsigned",
        grad="rule",
        doc="The covariance matrix of the rows (variables) of input, columns being observations.",
        details=(
            "correction=1 divides by N - 1; fweights (integer counts) and aweights (weights) "
            "weigh the observations."
        ),
        example=(
            ">>> ember.cov(ember.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])).tolist()\n"
            "[[1.0, 2.0], [2.0, 4.0]]"
        ),
    ),
    Op(
        "polygamma",
        function="(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor",
        method="(n: int) -> Tensor",
        inplace="(n: int) -> Tensor",
        grad="rule",
        kernel=unary("Polygamma", "float", ints_to_float=True, bind=False),
        doc="The n-th derivative of the digamma function, elementwise (n >= 0; n=0 is digamma).",
        example=(
            ">>> round(ember.polygamma(1, ember.tensor([1.0])).item(), 4)  # pi^2 / 6\n1.6449"
        ),
    ),
]
