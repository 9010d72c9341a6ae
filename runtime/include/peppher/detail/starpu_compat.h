// The StarPU API differences between 1.3 and 1.4, in one place: the runtime, peppher-report
// and the apps' hand-written direct/ versions build against either through these.
#pragma once

#include <starpu.h>

#include <cstddef>

/// Whether the StarPU built against is at least major.minor (starpu_config.h's version).
#define PEPPHER_STARPU_AT_LEAST(major, minor) \
  (STARPU_MAJOR_VERSION > (major) ||          \
   (STARPU_MAJOR_VERSION == (major) && STARPU_MINOR_VERSION >= (minor)))

namespace peppher::detail {

/// Frees what starpu_malloc(&p, size) allocated: StarPU 1.4 deprecates starpu_free(p) for
/// starpu_free_noflag(p, size), which 1.3 does not have.
inline int starpu_free_sized(void* p, [[maybe_unused]] std::size_t size) {
#if PEPPHER_STARPU_AT_LEAST(1, 4)
  return starpu_free_noflag(p, size);
#else
  return starpu_free(p);
#endif
}

/// Makes StarPU's per-driver tables (worker kind names) usable without starpu_init, as
/// StarPU's own performance-model tools do: 1.4 fills them when its drivers are pre-
/// initialized (starpu_perfmodel_get_archtype_name asserts before), 1.3 has them built in.
inline void starpu_drivers_without_init() {
#if PEPPHER_STARPU_AT_LEAST(1, 4)
  starpu_drivers_preinit();
#endif
}

}  // namespace peppher::detail
