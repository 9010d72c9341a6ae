// The C interface of the StarPU-MPI layer (peppher/c_api.h): what a peppher.h composed with
// --mpi uses when the file including it is C or C++ older than C++17.
#include "peppher/c_api.h"

#include <exception>

#include "peppher/detail/c_caller.h"
#include "peppher/mpi.h"

extern "C" void peppher_mpi_initialize(const char* scheduler) {
  try {
    // The default Config's scheduler (Config::scheduler) unless the caller names one.
    peppher::mpi::init(scheduler != nullptr ? peppher::Config::with_scheduler(scheduler)
                                            : peppher::Config{});
  } catch (const std::exception& e) {
    peppher::detail::fail_in_c_caller("PEPPHER_INITIALIZE()", e);
  }
}
