// Namespaces and function templates with type and non-type parameters.
#pragma once
#include <cstddef>

namespace blas {
namespace level1 {

void scal(std::size_t n, double alpha, double *x);

}  // namespace level1

template <typename T>
void axpy(int n, T a, const T *x, T *y);

template <typename T, int BLOCK>
void blocked_sum(const T *in, std::size_t size, T *result);

}  // namespace blas
