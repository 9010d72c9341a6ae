// End-to-end test support: run the real compose binary, the generated Makefile and the
// composed program, capturing their output, in a work folder under the build tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace e2e {

struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// Runs `command` through the shell with extra environment assignments prepended.
Run run(const std::string& command, const std::string& env = "");

/// The folder a test composes into: <build>/test/e2e/work/<name>, emptied first.
std::filesystem::path fresh_work_dir(const std::string& name);

/// The repository's root folder.
std::filesystem::path source_dir();

/// The include flags of the StarPU the build uses, as a shell word to expand:
/// "$(pkg-config --cflags-only-I starpu-1.x)" (only -I: a define in pkg-config's Cflags
/// carries quotes that a shell's $(...) would not remove).
std::string starpu_include_flags();

/// `compose <main.xml> -o <out> <options>`, with extra environment assignments `env`.
Run compose(const std::filesystem::path& main_xml, const std::filesystem::path& out,
            const std::string& options = "", const std::string& env = "");

/// `make -C <out>` with warnings as errors for the generated code and the variants, and a
/// CUDA variant that does not compile an error where StarPU has no CUDA. The compilers run
/// through ccache where it is installed (test/e2e/CMakeLists.txt says why).
Run make(const std::filesystem::path& out, const std::string& target = "");

/// Composes and builds `main_xml` into a fresh work folder (Catch REQUIREs that both
/// succeed, showing their output otherwise); returns that folder. Within one test executable
/// the same arguments return the folder built before: a test case's SECTIONs and the test
/// cases that run the same program do not rebuild it (none may change its files).
std::filesystem::path compose_and_build(const std::string& name,
                                        const std::filesystem::path& main_xml,
                                        const std::string& options = "");

/// The environment that runs a build's gcc and g++ through ccache where it is installed
/// ("" where not): for builds the tests start other than through make().
std::string compiler_cache_env();

/// Runs a composed program with PEPPHER_REPORT=1 and the given environment, stopped after
/// 300 s (exit code 124: it stalled).
Run run_program(const std::filesystem::path& exe, const std::string& args, const std::string& env);

/// The StarPU worker sets the tests run under.
inline const char* const kCpuAndOpenCl = "STARPU_NCPU=1 STARPU_NOPENCL=1";
inline const char* const kCpuOnly = "STARPU_NCPU=1 STARPU_NOPENCL=0";
inline const char* const kOpenClOnly = "STARPU_NCPU=0 STARPU_NOPENCL=1";
inline const char* const kTwoCpus = "STARPU_NCPU=2 STARPU_NOPENCL=0";

/// test/e2e/cases/ in the source tree.
std::filesystem::path cases();

/// One entry of a StarPU history model file: its mean time (us) and kept measurements.
struct HistoryEntry {
  double mean_us = 0;
  long samples = 0;
};
/// The entries of the history model files of @p symbol ("peppher_<interface>") that StarPU
/// saved under @p home (its STARPU_HOME): every worker architecture, every implementation.
std::vector<HistoryEntry> history_entries(const std::filesystem::path& home,
                                          const std::string& symbol);

/// Counts of the PEPPHER_REPORT table: how many tasks of `variant` ran on workers whose
/// name contains `worker_kind` ("CPU" or "OpenCL").
long report_count(const std::string& report, const std::string& variant,
                  const std::string& worker_kind);

}  // namespace e2e
