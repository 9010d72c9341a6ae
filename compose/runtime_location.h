// Where the runtime library and headers are, for the generated Makefile and utility mode:
// the installation prefix compose was installed into, else (the build tree's compose, tests)
// the build tree.
#pragma once

#include <string>
#include <vector>

#include "compose/emit/generate.h"

namespace peppher {

/// The EmitSettings of this compose binary (build tree or installation).
emit::EmitSettings locate_runtime();

/// The folders holding the runtime's headers (<peppher/runtime.h>) and StarPU's, for
/// utility mode: a header declaring components on peppher::Vector scans with no -I.
std::vector<std::string> runtime_header_dirs();

/// The OpenCL build check's helper (verify/kernel_build.h): $PEPPHER_OPENCL_CHECK when set
/// ("" or "off": no check), else the installation's libexec/peppher/peppher-opencl-check,
/// else the build tree's; "" when none exists.
std::string opencl_checker();

/// The pkg-config module of the StarPU that generated builds use: $PEPPHER_STARPU when set
/// (starpu-1.3, starpu-1.4), else the one the runtime was built with.
std::string starpu_module();

/// Which StarPU generated builds use, for --version and --explain: "StarPU 1.4.7 (pkg-config
/// module starpu-1.4)", or that pkg-config does not find the module.
std::string starpu_in_use();

/// What a program composed with --mpi needs and this machine lacks, in one sentence (empty
/// when nothing is missing): StarPU-MPI (pkg-config starpumpi-1.x), the MPI C++ compiler
/// ($MPICXX, else mpicxx, on PATH) and the runtime's StarPU-MPI layer (libpeppher_mpi).
std::string mpi_problem();

/// The MPI C++ compiler the generated Makefile uses: $MPICXX, else mpicxx.
std::string mpi_compiler();

}  // namespace peppher
