// The C interface of the StarPU-MPI layer (peppher/c_api.h): what a peppher.h composed with
// --mpi uses when the file including it is C or C++ older than C++17.
#include "peppher/c_api.h"

#include <exception>

#include "peppher/detail/c_caller.h"
#include "peppher/mpi.h"

extern "C" void peppher_mpi_initialize(const char* scheduler) {
  try {
    peppher::mpi::init(peppher::Config::with_scheduler(scheduler != nullptr ? scheduler : "dmda"));
  } catch (const std::exception& e) {
    peppher::detail::fail_in_c_caller("PEPPHER_INITIALIZE()", e);
  }
}
