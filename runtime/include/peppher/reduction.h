// Reductions into a peppher::Scalar, Vector or Matrix in partitioned calls (FORMAT.md
// `reduction`): the operators, their identities, and the typed element-wise fold the call core
// (detail::Call::add_reduction) applies to each block's partial in block order.
#pragma once

#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

namespace peppher {

/// @brief How the partials of a partitioned call's reduction operand are combined.
enum class Reduction { Sum, Prod, Min, Max };

namespace detail {

/// @brief The type-erased operator of one reduction: the identity each element of a block's
///        partial starts at, and acc[i] = acc[i] (op) partial[i] for i < count.
struct ReductionOps {
  Reduction op = Reduction::Sum;
  std::size_t elem_size = 0;
  alignas(16) unsigned char identity[16] = {};
  void (*fold)(void* acc, const void* partial, std::size_t count) = nullptr;
};

template <typename T>
T reduction_identity(Reduction op) {
  switch (op) {
    case Reduction::Sum:
      return T(0);
    case Reduction::Prod:
      return T(1);
    case Reduction::Min:
      if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::max();
    case Reduction::Max:
      if constexpr (std::numeric_limits<T>::has_infinity)
        return -std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::lowest();
  }
  return T(0);
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return __builtin_isnan(v);  // no <cmath>
  return false;
}

// acc[i] (op) partial[i] for i < count, each element read and written with memcpy (the
// buffers need not be aligned for T). Min and max keep acc on ties and ignore a NaN partial,
// like fmin/fmax with acc first.
template <typename T, Reduction Op>
void reduction_fold(void* acc, const void* partial, std::size_t count) {
  auto* acc_bytes = static_cast<unsigned char*>(acc);
  const auto* partial_bytes = static_cast<const unsigned char*>(partial);
  for (std::size_t i = 0; i < count; ++i) {
    T a, p;
    std::memcpy(&a, acc_bytes + i * sizeof(T), sizeof(T));
    std::memcpy(&p, partial_bytes + i * sizeof(T), sizeof(T));
    if constexpr (Op == Reduction::Sum) {
      a = static_cast<T>(a + p);
    } else if constexpr (Op == Reduction::Prod) {
      a = static_cast<T>(a * p);
    } else if constexpr (Op == Reduction::Min) {
      if (p < a || is_nan(a)) a = p;  // a NaN accumulator takes the partial, as fmin
    } else {
      if (p > a || is_nan(a)) a = p;
    }
    std::memcpy(acc_bytes + i * sizeof(T), &a, sizeof(T));
  }
}

/// @brief The operator @p op on element type @p T (arithmetic; `bool` only with min and max).
template <typename T>
ReductionOps reduction_ops(Reduction op) {
  static_assert(std::is_arithmetic_v<T>, "a reduction needs an arithmetic element type");
  static_assert(sizeof(T) <= sizeof(ReductionOps::identity), "element type too large");
  ReductionOps r;
  r.op = op;
  r.elem_size = sizeof(T);
  const T identity = reduction_identity<T>(op);
  std::memcpy(r.identity, &identity, sizeof(T));
  switch (op) {
    case Reduction::Sum:
      r.fold = reduction_fold<T, Reduction::Sum>;
      break;
    case Reduction::Prod:
      r.fold = reduction_fold<T, Reduction::Prod>;
      break;
    case Reduction::Min:
      r.fold = reduction_fold<T, Reduction::Min>;
      break;
    case Reduction::Max:
      r.fold = reduction_fold<T, Reduction::Max>;
      break;
  }
  return r;
}

}  // namespace detail
}  // namespace peppher
