// The backends the runtime knows, as one table: every choice the runtime makes by backend
// (the spelling generated code and selectors use, StarPU's where-mask and kind of worker, the
// codelet's array of implementations, the trace's spelling, how its variants use the machine)
// reads its record here. A new backend is one record here plus its driver's hooks
// (runtime/src/devices/devices.h); the composer's backend table names it the same way.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace peppher {

/// @brief The kind of a variant, as the inline choice needs it: the backends' records in
///        table order (detail::kBackends), then Training, a variant outside the codelet (only
///        run when forced, as a task). Generated entry wrappers list them
///        (peppher::InlineKind::Cpu).
enum class InlineKind : unsigned char { Cpu, OpenMp, Cuda, OpenCl, Training };

namespace detail {

/// @brief A codelet's implementations for one kind of worker (cpu_funcs, cuda_funcs, ...).
using CodeletFuncs = starpu_cpu_func_t (starpu_codelet::*)[STARPU_MAXIMPLEMENTATIONS];
/// @brief The names of a codelet's implementations (cpu_funcs_name; only CPU ones have them).
using CodeletFuncNames = const char* (starpu_codelet::*)[STARPU_MAXIMPLEMENTATIONS];

/// @brief How a backend's variants use the machine.
enum class BackendRuns : std::uint8_t {
  OneCore,  ///< sequential on one CPU worker; may run inline on the calling thread
  Team,     ///< a parallel team on the host's cores (a combined worker when the run has one)
  Device,   ///< on a device, with a memory node of its own
};

/// @brief One backend's record.
struct Backend {
  const char* name;               ///< as generated code, selectors and the report spell it ("CPU")
  InlineKind inline_kind;         ///< its kind for the inline choice (its index in kBackends)
  std::uint32_t where;            ///< StarPU's where-mask of its workers (STARPU_CPU, ...)
  starpu_worker_archtype worker;  ///< the kind of StarPU worker its variants run on
  CodeletFuncs funcs;             ///< the codelet's implementations that hold its variants
  CodeletFuncNames func_names;    ///< their names, or null where StarPU keeps none
  const char* arch;               ///< the trace's name of that array ("cpu", "cuda", "opencl")
  /// Its kind of worker in messages ("OpenCL"), or null when an earlier record's workers are
  /// its own (OPENMP runs on CPU workers).
  const char* workers_label;
  BackendRuns runs;   ///< how its variants use the machine
  bool driver_built;  ///< this StarPU was built with its driver
};

#ifdef STARPU_USE_CUDA
inline constexpr bool kStarpuHasCuda = true;
#else
inline constexpr bool kStarpuHasCuda = false;
#endif
#ifdef STARPU_USE_OPENCL
inline constexpr bool kStarpuHasOpenCl = true;
#else
inline constexpr bool kStarpuHasOpenCl = false;
#endif

/// @brief Every backend, in InlineKind order (the composer's order of a codelet's
///        implementations: CPU and OPENMP share cpu_funcs, then CUDA, then OPENCL).
inline constexpr Backend kBackends[] = {
    {"CPU", InlineKind::Cpu, STARPU_CPU, STARPU_CPU_WORKER, &starpu_codelet::cpu_funcs,
     &starpu_codelet::cpu_funcs_name, "cpu", "CPU", BackendRuns::OneCore, true},
    {"OPENMP", InlineKind::OpenMp, STARPU_CPU, STARPU_CPU_WORKER, &starpu_codelet::cpu_funcs,
     &starpu_codelet::cpu_funcs_name, "cpu", nullptr, BackendRuns::Team, true},
    {"CUDA", InlineKind::Cuda, STARPU_CUDA, STARPU_CUDA_WORKER, &starpu_codelet::cuda_funcs,
     nullptr, "cuda", "CUDA", BackendRuns::Device, kStarpuHasCuda},
    {"OPENCL", InlineKind::OpenCl, STARPU_OPENCL, STARPU_OPENCL_WORKER,
     &starpu_codelet::opencl_funcs, nullptr, "opencl", "OpenCL", BackendRuns::Device,
     kStarpuHasOpenCl},
};
inline constexpr std::size_t kBackendCount = sizeof kBackends / sizeof kBackends[0];

constexpr bool backends_in_inline_kind_order() {
  for (std::size_t i = 0; i < kBackendCount; ++i)
    if (static_cast<std::size_t>(kBackends[i].inline_kind) != i) return false;
  return static_cast<std::size_t>(InlineKind::Training) == kBackendCount;
}
static_assert(backends_in_inline_kind_order(), "kBackends[i] is the backend of InlineKind i");

/// @brief The backend of a variant of kind @p k, or null for InlineKind::Training.
inline const Backend* backend_of(InlineKind k) noexcept {
  const auto i = static_cast<std::size_t>(k);
  return i < kBackendCount ? &kBackends[i] : nullptr;
}

/// @brief The backend named @p name ("CPU", "OPENMP", "CUDA", "OPENCL"); CPU's for a name
///        no record has.
inline const Backend& backend_named(const char* name) noexcept {
  for (const Backend& b : kBackends)
    if (std::strcmp(b.name, name) == 0) return b;
  return kBackends[0];
}

/// @brief The first backend whose workers are of kind @p where (STARPU_CPU: CPU's), or null.
inline const Backend* backend_of_where(std::uint32_t where) noexcept {
  for (const Backend& b : kBackends)
    if (b.where == where) return &b;
  return nullptr;
}

/// @brief The first backend whose variants run on workers of kind @p worker, or null.
inline const Backend* backend_of_worker(starpu_worker_archtype worker) noexcept {
  for (const Backend& b : kBackends)
    if (b.worker == worker) return &b;
  return nullptr;
}

/// @brief Workers of this run that can run a variant of @p backend.
inline unsigned workers_of(const Backend& backend) noexcept {
  const int n = starpu_worker_get_count_by_type(backend.worker);
  return n > 0 ? static_cast<unsigned>(n) : 0;
}

}  // namespace detail
}  // namespace peppher
