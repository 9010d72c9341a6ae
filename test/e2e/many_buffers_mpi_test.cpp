// Calls of more buffers than STARPU_NMAXBUFS distributed over StarPU-MPI (issue 40): the
// many_buffers case composed with --mpi, run on 2 ranks (StarPU-MPI builds each task from
// the codelet's dyn_modes and the task's dyn_handles); every rank checks the numbers.
#include <cstddef>
#include <filesystem>
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

TEST_CASE("twelve buffers per task on 2 MPI ranks", "[mpi]") {
  const std::filesystem::path exe =
      e2e::compose_and_build("many_buffers_mpi", e2e::cases() / "many_buffers/main.xml", "--mpi") /
      "many_buffers";
  // As mpi_test.cpp runs ranks: as root (CI), 2 ranks on a 2-core machine, no device.
  const std::string env =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "OMPI_MCA_rmaps_base_oversubscribe=1 STARPU_NCPU=1 STARPU_NOPENCL=0 STARPU_SILENT=1";
  e2e::Run r = e2e::run("mpirun --oversubscribe -np 2 " + exe.string() + " 2", env);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::size_t clean = 0;
  for (std::size_t at = r.output.find("many_buffers: 0 wrong"); at != std::string::npos;
       at = r.output.find("many_buffers: 0 wrong", at + 1))
    ++clean;
  CHECK(clean == 2);
  CHECK(r.output.find("WRONG") == std::string::npos);
}
