"""The fft family (fields: registry/_schema.py).

The native halves of ember.fft: complex values travel as a trailing dim of 2 (real, imag), `dim`
counts dims of that complex view and normalization is 'backward', 'forward' or 'ortho'.
"""

from registry._schema import Op

OPS = [
    Op(
        "_fft_c2c",
        function="(input: Tensor, dim: Sequence[int], normalization: str, forward: bool) -> Tensor",
        grad="rule",
        doc="Complex-to-complex FFT of a (..., 2) float tensor over dims of its complex view.",
        example=(
            ">>> z = ember.tensor([[1.0, 0.0], [0.0, 0.0]])  # the complex vector [1, 0]\n"
            '>>> ember._C._fft_c2c(z, [0], "backward", True).tolist()\n'
            "[[1.0, 0.0], [1.0, 0.0]]"
        ),
    ),
    Op(
        "_fft_c2r",
        function=(
            "(input: Tensor, dim: Sequence[int], normalization: str, last_dim_size: int) -> Tensor"
        ),
        grad="rule",
        doc="Complex-to-real inverse FFT of a Hermitian half-spectrum held as (..., 2).",
        details="last_dim_size is the length of the real signal along the last of `dim`.",
        example=(
            ">>> half = ember.tensor([[10.0, 0.0], [-2.0, 2.0], [-2.0, 0.0]])\n"
            '>>> ember._C._fft_c2r(half, [0], "backward", 4).tolist()\n'
            "[1.0, 2.0, 3.0, 4.0]"
        ),
    ),
    Op(
        "_fft_r2c",
        function=(
            "(input: Tensor, dim: Sequence[int], normalization: str, onesided: bool) -> Tensor"
        ),
        grad="rule",
        doc="Real-to-complex forward FFT; the result holds complex values as a trailing dim of 2.",
        details="onesided keeps the n // 2 + 1 non-redundant bins along the last of `dim`.",
        example=(
            ">>> x = ember.tensor([1.0, 2.0, 3.0, 4.0])\n"
            '>>> ember._C._fft_r2c(x, [0], "backward", True).tolist()\n'
            "[[10.0, 0.0], [-2.0, 2.0], [-2.0, 0.0]]"
        ),
    ),
]
