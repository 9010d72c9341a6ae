// Exceptions thrown by variants: a backend wrapper runs on a StarPU worker, where an
// exception must not unwind (it would end in std::terminate). The wrapper records it here;
// the calling side rethrows it: at the call for synchronous calls (raw pointers), at the
// next host access of a container or the next synchronous call for asynchronous ones.
#pragma once

namespace peppher::detail {

/// @brief Records the exception being handled (call from a catch block of a backend
///        wrapper of variant @p variant of interface @p iface). Never throws.
/// @attention Thread-safe.
void record_variant_exception(const char* iface, const char* variant) noexcept;

/// @brief Rethrows the oldest recorded exception, if any, and forgets it (the others stay
///        for the next call). Cheap when none is recorded (one atomic load).
/// @attention Thread-safe; the exception goes to whichever thread calls first.
void rethrow_variant_exception();

/// @brief Writes every exception still recorded to stderr and forgets them (shutdown,
///        which must not throw).
void report_unclaimed_variant_exceptions() noexcept;

}  // namespace peppher::detail
