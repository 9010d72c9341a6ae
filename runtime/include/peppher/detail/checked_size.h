// Checked 64-bit arithmetic for the sizes an entry wrapper computes from descriptor
// expressions (numElements = n/d, partition = J.rows/2, ...): a zero divisor or an overflow
// becomes a peppher::Error naming the interface, the parameter and the expression.
#pragma once

#include <limits>
#include <string>
#include <type_traits>

#include "peppher/error.h"

namespace peppher::detail {

/// @brief What went wrong while a size was computed.
enum class SizeFault : unsigned char { None, DivisionByZero, RemainderByZero, Overflow, Operand };

/// @brief A size under computation: its exact value in long long, or the first fault met
///        (later operations pass it on unchanged). Compose emits the operations; the result
///        goes to peppher::checked_length or peppher::checked_size, which throw on a fault.
struct CheckedSize {
  long long value = 0;
  SizeFault fault = SizeFault::None;
  const char* at = nullptr;        // the operation, the divisor or the operand, as written
  unsigned long long operand = 0;  // SizeFault::Operand: the value that does not fit

  constexpr CheckedSize(long long v) : value(v) {}  // NOLINT: a literal or exact value
  constexpr CheckedSize(SizeFault f, const char* where, unsigned long long raw = 0)
      : fault(f), at(where), operand(raw) {}
  constexpr bool ok() const { return fault == SizeFault::None; }
};

/// @brief A by-value parameter (or a container's extent) as a size operand named @p name:
///        an unsigned value above long long's range is a fault, not a negative number.
template <typename T>
constexpr CheckedSize checked_operand(T v, const char* name) {
  if constexpr (std::is_unsigned_v<T>) {
    if (static_cast<unsigned long long>(v) >
        static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
      return CheckedSize(SizeFault::Operand, name, static_cast<unsigned long long>(v));
    }
  }
  return CheckedSize(static_cast<long long>(v));
}

/// @brief a + b; @p op is the operation as written ("n + m"), named when it overflows.
inline CheckedSize checked_add(CheckedSize a, CheckedSize b, const char* op) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  long long r = 0;
  if (__builtin_add_overflow(a.value, b.value, &r)) return {SizeFault::Overflow, op};
  return r;
}

/// @brief a - b.
inline CheckedSize checked_sub(CheckedSize a, CheckedSize b, const char* op) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  long long r = 0;
  if (__builtin_sub_overflow(a.value, b.value, &r)) return {SizeFault::Overflow, op};
  return r;
}

/// @brief a * b.
inline CheckedSize checked_mul(CheckedSize a, CheckedSize b, const char* op) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  long long r = 0;
  if (__builtin_mul_overflow(a.value, b.value, &r)) return {SizeFault::Overflow, op};
  return r;
}

/// @brief -a.
inline CheckedSize checked_neg(CheckedSize a, const char* op) {
  if (!a.ok()) return a;
  long long r = 0;
  if (__builtin_sub_overflow(0LL, a.value, &r)) return {SizeFault::Overflow, op};
  return r;
}

/// @brief a / b, truncated as C does; @p divisor is b as written, named when it is 0.
inline CheckedSize checked_div(CheckedSize a, CheckedSize b, const char* op, const char* divisor) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  if (b.value == 0) return {SizeFault::DivisionByZero, divisor};
  if (b.value == -1) return checked_neg(a, op);  // LLONG_MIN / -1 overflows
  return a.value / b.value;
}

/// @brief a % b, with C's sign; @p divisor is b as written, named when it is 0.
inline CheckedSize checked_mod(CheckedSize a, CheckedSize b, const char* op, const char* divisor) {
  (void)op;  // a remainder never overflows (LLONG_MIN % -1 is 0, computed without trapping)
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  if (b.value == 0) return {SizeFault::RemainderByZero, divisor};
  if (b.value == -1) return 0LL;
  return a.value % b.value;
}

/// @brief What went wrong, for a message: "division by zero (d = 0)", "n * n * n overflows
///        64-bit arithmetic".
inline std::string describe(const CheckedSize& s) {
  switch (s.fault) {
    case SizeFault::None:
      break;
    case SizeFault::DivisionByZero:
      return std::string("division by zero (") + s.at + " = 0)";
    case SizeFault::RemainderByZero:
      return std::string("remainder by zero (") + s.at + " = 0)";
    case SizeFault::Overflow:
      return std::string(s.at) + " overflows 64-bit arithmetic";
    case SizeFault::Operand:
      return std::string(s.at) + " = " + std::to_string(s.operand) +
             " does not fit in 64-bit signed arithmetic";
  }
  return "no fault";
}

/// @brief Throws peppher::Error "<iface>: parameter '<param>' has <what>: <fault>".
[[noreturn]] inline void throw_size_fault(const char* iface, const char* param, const char* what,
                                          const CheckedSize& s) {
  throw Error(std::string(iface) + ": parameter '" + param + "' has " + what + ": " + describe(s));
}

}  // namespace peppher::detail

namespace peppher {

/// @brief checked_length (error.h) of a size computed with checked arithmetic: throws
///        peppher::Error naming the interface, the parameter, @p what and the fault (a zero
///        divisor, an overflow) when there was one, else checks the value as error.h's does.
inline std::size_t checked_length(const char* iface, const char* param, const char* what,
                                  const detail::CheckedSize& s, long long max) {
  if (!s.ok()) detail::throw_size_fault(iface, param, what, s);
  return checked_length(iface, param, what, s.value, max);
}

/// @brief The same for raw pointer @p pointer's length, which must be 0 when it is null.
inline std::size_t checked_length(const char* iface, const char* param, const char* what,
                                  const detail::CheckedSize& s, long long max,
                                  const void* pointer) {
  if (!s.ok()) detail::throw_size_fault(iface, param, what, s);
  return checked_length(iface, param, what, s.value, max, pointer);
}

/// @brief A size that is not a length (a partition's block size, a halo's width), computed
///        with checked arithmetic: its value, or peppher::Error as checked_length throws it.
inline long long checked_size(const char* iface, const char* param, const char* what,
                              const detail::CheckedSize& s) {
  if (!s.ok()) detail::throw_size_fault(iface, param, what, s);
  return s.value;
}

/// @brief An OpenCL launch size (globalSize, localSize, a localArg's size) computed with
///        checked arithmetic in a backend wrapper: its value, or peppher::Error naming the
///        interface, the variant and @p what on a fault or a negative size.
inline std::size_t checked_launch_size(const char* iface, const char* variant, const char* what,
                                       const detail::CheckedSize& s) {
  if (s.ok() && s.value >= 0) return static_cast<std::size_t>(s.value);
  throw Error(std::string(iface) + ": variant '" + variant + "' has " + what +
              (s.ok() ? " = " + std::to_string(s.value) + ", a negative size"
                      : ": " + detail::describe(s)));
}

}  // namespace peppher
