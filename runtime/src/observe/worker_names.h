// Internal: StarPU worker names cached at init() so the execution report can name workers
// even after shutdown().
#pragma once

#include <string>

namespace peppher::detail {

/// @brief Records starpu_worker_get_name() of every worker (call right after starpu_init).
void cache_worker_names();
/// @brief Cached name of worker @p id, "CPU inline (calling thread)" for calls outside any worker
std::string worker_name(int id);

}  // namespace peppher::detail
