// cg, sequential CPU variant: conjugate gradient whose every step calls three components,
// spmv, dot and axpy (its requiredInterfaces). Inside cg's task those calls run on this
// worker, on the task's data and this function's own arrays (docs/SELECTION.md, "Nested calls").
#include <cmath>
#include <vector>

#include "axpy_wrapper.h"
#include "dot_wrapper.h"
#include "spmv_wrapper.h"

namespace {

// x . y through the dot component, into a float of this function (a Scalar view over it).
float dot_of(const float* x, const float* y, int n) {
  float result = 0.0f;
  auto into = peppher::Scalar<float>::view(&result);
  dot(x, y, n, into);
  return result;
}

}  // namespace

void cg_cpu(const peppher::Vector<float>& values, const peppher::Vector<int>& row_offsets,
            const peppher::Vector<int>& col_indices, const peppher::Vector<float>& b,
            peppher::Vector<float>& x, int max_iterations, float tolerance,
            peppher::Scalar<int>& iterations) {
  const int n = static_cast<int>(b.size());
  const int nnz = static_cast<int>(values.size());
  const auto size = static_cast<std::size_t>(n);
  std::vector<float> r(b.data(), b.data() + size), p(size), ap(size);
  float* xs = x.data();
  // r = b - A x, p = r.
  spmv(n, nnz, values.data(), row_offsets.data(), col_indices.data(), xs, n, ap.data());
  axpy(-1.0f, ap.data(), r.data(), n);
  p = r;
  float rr = dot_of(r.data(), r.data(), n);
  const float limit = tolerance * std::sqrt(dot_of(b.data(), b.data(), n));
  int k = 0;
  for (; k < max_iterations && std::sqrt(rr) > limit; ++k) {
    spmv(n, nnz, values.data(), row_offsets.data(), col_indices.data(), p.data(), n, ap.data());
    const float alpha = rr / dot_of(p.data(), ap.data(), n);
    axpy(alpha, p.data(), xs, n);
    axpy(-alpha, ap.data(), r.data(), n);
    const float rr_next = dot_of(r.data(), r.data(), n);
    const float beta = rr_next / rr;
    for (std::size_t i = 0; i < size; ++i) p[i] = r[i] + beta * p[i];
    rr = rr_next;
  }
  iterations.set(k);
}
