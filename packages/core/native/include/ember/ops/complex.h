// Ops specific to complex dtypes: parts, views between complex and real, abs/angle, conj.
#pragma once

#include <complex>

#include "ember/tensor.h"

namespace ember {

// The value of a one-element tensor of any dtype as a complex number.
std::complex<double> item_complex(const Tensor& t, const char* op);
// x.real / x.imag: real views of a complex tensor (strides doubled); real(x) of a real x is x.
// The imag of a conjugate view is a new tensor (-imag of the storage), not a view.
Tensor real(const Tensor& x);
Tensor imag(const Tensor& x);
// (..., 2) real view of a complex tensor, and back (torch's stride/offset rules).
Tensor view_as_real(const Tensor& x);
Tensor view_as_complex(const Tensor& x);
// |x| and arg(x): real results for complex input (angle of a real x is 0 or pi).
Tensor complex_abs(const Tensor& x, const Tensor& out);
Tensor angle(const Tensor& x, const Tensor& out);
// conj: a view of x with the conj bit flipped (x itself for a real x), as torch.
Tensor conj(const Tensor& x);
// x itself when its conj bit is clear, else a new tensor holding the conjugated values.
Tensor resolve_conj(const Tensor& x);
// Always computes: a new tensor (or out) with the imaginary part negated; a copy for real x.
Tensor conj_physical(const Tensor& x, const Tensor& out);
// Negates the imaginary parts of a complex tensor's storage in place (no-op for real dtypes).
void negate_imag_(const Tensor& x);
// A complex tensor from real and imaginary parts (torch.complex).
Tensor complex_from_parts(const Tensor& real, const Tensor& imag, const Tensor& out);

}  // namespace ember
