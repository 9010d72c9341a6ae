// Registrations of raw-pointer operands kept across calls (issue 17): a legacy loop calling
// a component on the same array pays StarPU's registration once, not per call. Each call
// ends with the data home and device copies invalidated (acquire STARPU_RW), so the caller
// may change the memory freely between calls, free it, or reuse its address.
#pragma once

#include <starpu.h>

#include <cstddef>

namespace peppher::detail {

/// @brief The cached StarPU vector handle of @p count elements of @p elem_size bytes at
///        @p ptr, registered on first use; nullptr when it cannot be cached now (another
///        call still uses a registration of that address with another shape): the caller
///        then registers for the call only. Every non-null result is given back with
///        raw_cache_release().
/// @attention Thread-safe. A registration of that address with another shape that no call
///            uses is dropped (the address was freed and reused).
starpu_data_handle_t raw_cache_acquire(const void* ptr, std::size_t count, std::size_t elem_size);

/// @brief Ends a call's use of @p handle (from raw_cache_acquire): waits for the call's
///        task, brings the data home and invalidates device copies.
void raw_cache_release(starpu_data_handle_t handle) noexcept;

/// @brief For a call run on the calling thread: waits for tasks of other calls still using
///        a cached registration of [@p ptr, @p ptr + @p bytes) (@p write: the call writes).
void raw_cache_wait(const void* ptr, std::size_t bytes, bool write);

/// @brief Drops every cached registration (shutdown(), before StarPU stops).
void raw_cache_clear() noexcept;

}  // namespace peppher::detail
