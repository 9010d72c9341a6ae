// What StarPU prints by itself into a captured output, taken out before a test compares it
// exactly: StarPU 1.4 warns at every start, STARPU_SILENT or not, when its installation's
// sampling folder is missing (Debian 13 ships /usr/share/starpu/perfmodels/sampling only in
// starpu-examples): "[starpu][_perf_model_add_dir] Warning: directory <...> as set by
// installation directory does not exist".
#pragma once

#include <sstream>
#include <string>

namespace peppher_test {

/// `output` without the lines of StarPU's missing-sampling-folder warning.
inline std::string without_starpu_sampling_warning(const std::string& output) {
  std::istringstream in(output);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    const bool warning =
        line.rfind("[starpu]", 0) == 0 && line.find("Warning: directory <") != std::string::npos &&
        line.find("> as set by installation directory does not exist") != std::string::npos;
    if (!warning) kept += line + (in.eof() ? "" : "\n");
  }
  return kept;
}

}  // namespace peppher_test
