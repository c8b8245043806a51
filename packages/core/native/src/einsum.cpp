// torch.einsum. Each operand becomes one strided view over a shared "canonical" dim list
// (ellipsis dims, then every subscript in use): absent dims get size 1 and repeated subscripts
// sum their strides, which is the diagonal. Subscripts no later operand or the output needs are
// summed away; operands are contracted left to right as permute + reshape + bmm.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "ember/errors.h"
#include "ember/ops.h"

namespace ember {
namespace {

constexpr int kLabels = 52;  // A-Z then a-z: torch orders implicit outputs this way

int label_index(char c) { return c >= 'a' ? 26 + (c - 'a') : c - 'A'; }
char label_char(int i) { return static_cast<char>(i < 26 ? 'A' + i : 'a' + (i - 26)); }
bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// One side of a term: its subscripts in order and where "..." sits among them (-1: none).
struct Term {
  std::vector<int> labels;
  int ellipsis_at = -1;
};

// Parses equation[begin, end) as one term; `what` names it in errors ("operand 0", "output").
Term parse_term(const std::string& eq, size_t begin, size_t end, const std::string& what) {
  Term term;
  for (size_t i = begin; i < end; ++i) {
    const char c = eq[i];
    if (c == ' ') continue;
    if (c == '.') {
      EMBER_CHECK(term.ellipsis_at < 0, RuntimeError, "[einsum] found '.' for ", what,
                  " for which an ellipsis was already found");
      EMBER_CHECK(i + 2 < end && eq[i + 1] == '.' && eq[i + 2] == '.', RuntimeError,
                  "[einsum] found '.' for ", what, " that is not part of any ellipsis");
      term.ellipsis_at = static_cast<int>(term.labels.size());
      i += 2;
      continue;
    }
    EMBER_CHECK(is_label(c), RuntimeError, "[einsum] invalid subscript given at index ", i,
                " in the equation string \"", eq, "\", subscripts must be in [a-zA-Z]");
    term.labels.push_back(label_index(c));
  }
  return term;
}

// sum over `dims` keeping them as size 1 and keeping the dtype (no int -> int64 promotion).
Tensor sum_keep(const Tensor& x, const std::vector<int64_t>& dims) {
  if (dims.empty()) return x;
  EMBER_CHECK(x.dtype() != ScalarType::Bool, TypeError,
              "[einsum] summing over subscripts is not supported for dtype bool");
  return sum(x, dims, true, x.dtype());
}

// Contracts two canonical operands: dims in `keep` survive, the others are summed.
Tensor contract(const Tensor& left_in, const Tensor& right_in, const std::vector<bool>& keep) {
  const int64_t nd = left_in.dim();
  std::vector<int64_t> left_only_sum, right_only_sum;
  for (int64_t d = 0; d < nd; ++d) {
    if (keep[d]) continue;
    const bool l = left_in.sizes()[d] != 1, r = right_in.sizes()[d] != 1;
    if (l && !r) left_only_sum.push_back(d);
    if (r && !l) right_only_sum.push_back(d);
  }
  const Tensor left = sum_keep(left_in, left_only_sum);
  const Tensor right = sum_keep(right_in, right_only_sum);
  // Batch dims (both sides), left-only, right-only and contracted dims, with their products.
  std::vector<int64_t> batch, lo, ro, summed, rest;
  int64_t nb = 1, nl = 1, nr = 1, ns = 1;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t sl = left.sizes()[d], sr = right.sizes()[d];
    if (sl == 1 && sr == 1) {
      rest.push_back(d);
    } else if (!keep[d]) {
      summed.push_back(d), ns *= sl;
    } else if (sl != 1 && sr != 1) {
      batch.push_back(d), nb *= sl;
    } else if (sl != 1) {
      lo.push_back(d), nl *= sl;
    } else {
      ro.push_back(d), nr *= sr;
    }
  }
  auto concat = [](std::initializer_list<const std::vector<int64_t>*> parts) {
    std::vector<int64_t> out;
    for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
    return out;
  };
  const Tensor l3 =
      reshape(permute(left, concat({&batch, &lo, &summed, &ro, &rest})), {nb, nl, ns});
  const Tensor r3 =
      reshape(permute(right, concat({&batch, &summed, &ro, &lo, &rest})), {nb, ns, nr});
  const Tensor prod = bmm(l3, r3);
  // Back to the canonical dims: the product is contiguous over (batch, lo, ro).
  Shape sizes(nd, 1), strides(nd, 0);
  int64_t stride = 1;
  const std::vector<int64_t> order = concat({&batch, &lo, &ro});
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    sizes[*it] = left.sizes()[*it] == 1 ? right.sizes()[*it] : left.sizes()[*it];
    strides[*it] = stride;
    stride *= sizes[*it];
  }
  return prod.as_strided(sizes, strides, prod.offset());
}

}  // namespace

Tensor einsum(const std::string& eq, const std::vector<Tensor>& operands) {
  EMBER_CHECK(!operands.empty(), ValueError,
              "[einsum] must specify the equation string and at "
              "least one operand");
  const size_t arrow = eq.find("->");
  const size_t lhs_end = arrow == std::string::npos ? eq.size() : arrow;
  std::vector<Term> terms;
  for (size_t begin = 0;;) {
    const size_t comma = std::min(eq.find(',', begin), lhs_end);
    terms.push_back(parse_term(eq, begin, comma, "operand " + std::to_string(terms.size())));
    if (comma >= lhs_end) break;
    begin = comma + 1;
  }
  EMBER_CHECK(terms.size() <= operands.size(), RuntimeError, "[einsum] fewer operands (",
              operands.size(), ") were provided than specified in the equation \"", eq, "\"");
  EMBER_CHECK(terms.size() >= operands.size(), RuntimeError, "[einsum] more operands (",
              operands.size(), ") were provided than specified in the equation \"", eq, "\"");
  for (size_t i = 1; i < operands.size(); ++i) {
    EMBER_CHECK(operands[i].dtype() == operands[0].dtype(), RuntimeError,
                "[einsum] expected all operands to have the same dtype, but operand 0 with shape ",
                operands[0].sizes(), " is ", dtype_name(operands[0].dtype()), " and operand ", i,
                " with shape ", operands[i].sizes(), " is ", dtype_name(operands[i].dtype()));
  }

  // Ellipsis dims per operand; the canonical dims: ellipsis dims first, then used subscripts.
  int64_t ell_ndim = 0;
  std::array<int, kLabels> count{}, position{};
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t nsub = static_cast<int64_t>(terms[i].labels.size()), nd = operands[i].dim();
    if (terms[i].ellipsis_at >= 0) {
      EMBER_CHECK(nsub <= nd, RuntimeError, "[einsum] the number of subscripts in the equation (",
                  nsub, ") is more than the number of dimensions of operand ", i, " with shape ",
                  operands[i].sizes());
      ell_ndim = std::max(ell_ndim, nd - nsub);
    } else {
      EMBER_CHECK(nsub == nd, RuntimeError, "[einsum] the number of subscripts in the equation (",
                  nsub, ") does not match the number of dimensions of operand ", i, " with shape ",
                  operands[i].sizes(), " and no ellipsis was given");
    }
    for (int l : terms[i].labels) ++count[l];
  }
  int64_t nd = ell_ndim;
  for (int l = 0; l < kLabels; ++l) {
    if (count[l] > 0) position[l] = static_cast<int>(nd++);
  }

  // The output dims, as canonical positions.
  std::vector<int64_t> out_dims;
  if (arrow == std::string::npos) {
    for (int64_t d = 0; d < ell_ndim; ++d) out_dims.push_back(d);
    for (int l = 0; l < kLabels; ++l) {
      if (count[l] == 1) out_dims.push_back(position[l]);
    }
  } else {
    const Term out = parse_term(eq, arrow + 2, eq.size(), "the output");
    std::array<bool, kLabels> seen{};
    for (size_t j = 0; j <= out.labels.size(); ++j) {
      if (static_cast<int>(j) == out.ellipsis_at) {
        for (int64_t d = 0; d < ell_ndim; ++d) out_dims.push_back(d);
      }
      if (j == out.labels.size()) break;
      const int l = out.labels[j];
      EMBER_CHECK(count[l] > 0, RuntimeError, "[einsum] output subscript ", label_char(l),
                  " does not appear in the equation for any input operand");
      EMBER_CHECK(!seen[l], RuntimeError, "[einsum] output subscript ", label_char(l),
                  " appears more than once in the output");
      seen[l] = true;
      out_dims.push_back(position[l]);
    }
  }

  // Each operand as a canonical view; sizes must agree or be 1 (broadcast).
  Shape dim_size(nd, 1);
  std::vector<int64_t> last_use(nd, -1);
  std::vector<Tensor> views;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Tensor& op = operands[i];
    const Term& term = terms[i];
    const int64_t n_ell =
        term.ellipsis_at >= 0 ? op.dim() - static_cast<int64_t>(term.labels.size()) : 0;
    // Canonical position and subscript (-1 inside the ellipsis) of each of op's dims.
    std::vector<int64_t> pos;
    std::vector<int> label;
    for (size_t j = 0; j <= term.labels.size(); ++j) {
      if (static_cast<int>(j) == term.ellipsis_at) {
        for (int64_t e = 0; e < n_ell; ++e) {
          pos.push_back(ell_ndim - n_ell + e);
          label.push_back(-1);
        }
      }
      if (j == term.labels.size()) break;
      pos.push_back(position[term.labels[j]]);
      label.push_back(term.labels[j]);
    }
    Shape sizes(nd, 1), strides(nd, 0);
    std::vector<bool> set(nd, false);
    for (int64_t d = 0; d < op.dim(); ++d) {
      const int64_t p = pos[d], s = op.sizes()[d];
      const bool in_ell = label[d] < 0;
      if (set[p]) {
        EMBER_CHECK(sizes[p] == s, RuntimeError, "[einsum] subscript ", label_char(label[d]),
                    " is repeated for operand ", i, " with shape ", op.sizes(),
                    " but the sizes don't match, ", s, " != ", sizes[p]);
        strides[p] += op.strides()[d];
        continue;
      }
      set[p] = true;
      sizes[p] = s;
      strides[p] = s == 1 ? 0 : op.strides()[d];
      if (s != 1 && dim_size[p] != 1 && dim_size[p] != s) {
        if (in_ell) {
          throw RuntimeError(str("[einsum] dimension ", d, " covered by ellipsis in operand ", i,
                                 " with shape ", op.sizes(), " has size ", s,
                                 " which does not broadcast with previously seen ellipsis size ",
                                 dim_size[p]));
        }
        throw RuntimeError(str("[einsum] subscript ", label_char(label[d]), " has size ", s,
                               " for operand ", i, " with shape ", op.sizes(),
                               " which does not broadcast with previously seen size ",
                               dim_size[p]));
      }
      if (s != 1) dim_size[p] = s;
      last_use[p] = static_cast<int64_t>(i);
    }
    views.push_back(op.as_strided(sizes, strides, op.offset()));
  }
  std::vector<bool> in_out(nd, false);
  for (int64_t d : out_dims) in_out[d] = true;

  // Sum what only the first operand needs, then contract left to right.
  std::vector<int64_t> first_only;
  for (int64_t d = 0; d < nd; ++d) {
    if (!in_out[d] && last_use[d] <= 0 && views[0].sizes()[d] != 1) first_only.push_back(d);
  }
  Tensor result = sum_keep(views[0], first_only);
  for (size_t i = 1; i < views.size(); ++i) {
    std::vector<bool> keep(nd);
    for (int64_t d = 0; d < nd; ++d) keep[d] = in_out[d] || last_use[d] > static_cast<int64_t>(i);
    EMBER_CHECK(result.dtype() != ScalarType::Bool, TypeError,
                "[einsum] contracting operands is not supported for dtype bool");
    result = contract(result, views[i], keep);
  }

  Shape sizes, strides;
  for (int64_t d : out_dims) {
    sizes.push_back(result.sizes()[d]);
    strides.push_back(result.strides()[d]);
  }
  return result.as_strided(sizes, strides, result.offset());
}

}  // namespace ember
