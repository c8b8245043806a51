"""The fft family (fields: registry/_schema.py)."""

from registry._schema import Op

OPS = [
    Op(
        "_fft_c2c",
        function="(input: Tensor, dim: Sequence[int], normalization: str, forward: bool) -> Tensor",
        grad="rule",
        doc="Complex-to-complex FFT of a (..., 2) float tensor over dims of its complex view.",
    ),
    Op(
        "_fft_c2r",
        function=(
            "(input: Tensor, dim: Sequence[int], normalization: str, last_dim_size: int) -> Tensor"
        ),
        grad="rule",
        doc="Complex-to-real inverse FFT of a Hermitian half-spectrum held as (..., 2).",
    ),
    Op(
        "_fft_r2c",
        function=(
            "(input: Tensor, dim: Sequence[int], normalization: str, onesided: bool) -> Tensor"
        ),
        grad="rule",
        doc="Real-to-complex forward FFT; the result holds complex values as a trailing dim of 2.",
    ),
]
