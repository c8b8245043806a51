"""The samplers family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "cauchy_",
        method=(
            "(median: float = 0.0, sigma: float = 1.0, *, "
            "generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with Cauchy(median, sigma) samples (floating dtypes); returns self.",
        example=(
            ">>> g = ember.Generator().manual_seed(0)\n"
            ">>> x = ember.empty(4).cauchy_(generator=g)\n"
            ">>> x.shape, x.dtype\n"
            "(ember.Size([4]), ember.float32)"
        ),
    ),
    Op(
        "geometric_",
        method="(p: float, *, generator: Generator | None = None) -> Tensor",
        grad="random",
        doc="Fills self with the trial number (1, 2, ...) of the first success at rate p.",
        example=(
            ">>> g = ember.Generator().manual_seed(0)\n"
            ">>> x = ember.empty(100).geometric_(0.5, generator=g)\n"
            ">>> bool((x >= 1).all()), bool((x == x.round()).all())\n"
            "(True, True)"
        ),
    ),
    Op(
        "log_normal_",
        method=(
            "(mean: float = 1.0, std: float = 2.0, *, generator: Generator | None = None) -> Tensor"
        ),
        grad="random",
        doc="Fills self with exp(N(mean, std)) samples (floating dtypes); returns self.",
        details="mean and std are those of the underlying normal, not of the result.",
        example=(
            ">>> g = ember.Generator().manual_seed(0)\n"
            ">>> bool((ember.empty(100).log_normal_(generator=g) > 0).all())\n"
            "True"
        ),
    ),
    Op(
        "multinomial",
        function=(
            "(input: Tensor, num_samples: int, replacement: bool = False, *, "
            "generator: Generator | None = None, out: Tensor | None = None) -> Tensor"
        ),
        method=(
            "(num_samples: int, replacement: bool = False, *, "
            "generator: Generator | None = None) -> Tensor"
        ),
        grad="none",
        doc="Draws category indices from the rows of `input` (weights).",
        details=(
            "Args:\n"
            "    input (Tensor): 1-d or 2-d non-negative float weights (need not sum to 1).\n"
            "    num_samples (int): how many indices to draw per row.\n"
            "    replacement (bool): draw with replacement; without it, at most num_categories "
            "samples.\n"
            "    generator (Generator, optional): the stream to draw from."
        ),
        example=(
            ">>> g = ember.Generator().manual_seed(0)\n"
            ">>> ember.multinomial(ember.tensor([0.0, 1.0, 0.0]), 2, True, generator=g).tolist()\n"
            "[1, 1]"
        ),
    ),
    Op(
        "poisson",
        function="(input: Tensor, generator: Generator | None = None) -> Tensor",
        grad="none",
        doc="A Poisson-distributed count for each rate in `input`.",
        example=(">>> ember.poisson(ember.zeros(3)).tolist()\n[0.0, 0.0, 0.0]"),
    ),
]
