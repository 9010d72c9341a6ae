// See idle_workers.cpp.
#pragma once

namespace peppher::detail {

/// @brief From init(): pauses StarPU's workers (starpu_pause) whenever the runtime has been
///        idle for a few milliseconds, where StarPU's idle workers would spin (a StarPU built
///        with non-blocking drivers). Not under a distributed layer (StarPU-MPI moves data
///        without tasks), nor with PEPPHER_PAUSE_IDLE_WORKERS=0.
void start_idle_pausing(bool distributed);

/// @brief From shutdown(): stops pausing and resumes the workers (starpu_shutdown needs them).
void stop_idle_pausing() noexcept;

/// @brief Resumes paused workers at once; called before every task the runtime submits.
void wake_workers() noexcept;

}  // namespace peppher::detail
