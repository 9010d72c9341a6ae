// The extension point through which a distributed layer (StarPU-MPI, in the separate
// peppher_mpi library) takes over starting and stopping StarPU; the core runtime never
// includes MPI. Without a layer installed the runtime is one process (rank 0 of 1).
#pragma once

#include <starpu.h>

#include <string>

namespace peppher::detail {

/// @brief What a distributed layer provides to init()/shutdown() and to rank()/nranks().
/// @attention Installed before init() (by peppher::mpi::init) and removed by shutdown().
class Distributed {
 public:
  virtual ~Distributed() = default;
  /// @brief Starts StarPU with @p conf (and the layer underneath); StarPU's error code.
  virtual int start(starpu_conf& conf) = 0;
  /// @brief Stops StarPU and the layer underneath; all tasks have finished.
  virtual void stop() = 0;
  /// @brief This process's rank and the number of ranks, once started.
  virtual int rank() const noexcept = 0;
  virtual int nranks() const noexcept = 0;
  /// @brief Lines added to the PEPPHER_REPORT table (e.g. bytes sent and received).
  virtual std::string report() const = 0;
};

/// @brief Installs (or, with nullptr, removes) the distributed layer.
void set_distributed(Distributed* layer) noexcept;
/// @brief The installed layer, or nullptr.
Distributed* distributed() noexcept;

}  // namespace peppher::detail
