// End-to-end test support (see e2e_support.h).
#include "e2e_support.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "peppher_catch.h"
#include "starpu_output.h"

namespace e2e {

Run run(const std::string& command, const std::string& env) {
  Run r;
  std::string full = env + (env.empty() ? "" : " ") + command + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.output = peppher_test::without_starpu_sampling_warning(r.output);
  return r;
}

std::filesystem::path fresh_work_dir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(PEPPHER_E2E_WORK_DIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::filesystem::path source_dir() {
  return PEPPHER_SOURCE_DIR;
}

std::string starpu_include_flags() {
  return "$(pkg-config --cflags-only-I " PEPPHER_STARPU_MODULE ")";
}

Run compose(const std::filesystem::path& main_xml, const std::filesystem::path& out,
            const std::string& options, const std::string& env) {
  return run(std::string(PEPPHER_COMPOSE_EXE) + " " + main_xml.string() + " -o " + out.string() +
                 " " + options,
             env);
}

namespace {

// The value of `name ?= value` in the generated Makefile @p makefile ("" when absent).
std::string makefile_default(const std::filesystem::path& makefile, const std::string& name) {
  std::ifstream in(makefile);
  const std::string prefix = name + " ?= ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return "";
}

// Where ccache is installed (CMake found it): the environment and make variables that run
// the compilers of the program in @p out through it (see CMakeLists.txt); "" and "" otherwise.
struct CompilerCache {
  std::string env;
  std::string make_variables;
};

CompilerCache compiler_cache(const std::filesystem::path& out) {
  CompilerCache cache;
  const std::string ccache = PEPPHER_E2E_CCACHE;
  if (ccache.empty()) return cache;
  // CCACHE_NODIRECT: ccache's direct mode knows the headers a cached compile read, not the
  // ones that appear later in front of them on the include path; the tests put such shadowing
  // headers there on purpose (a stale peppher.h next to main.cpp must stop the build), and
  // direct mode then returned the earlier clean build's object. Preprocessed mode sees them.
  cache.env = std::string("CCACHE_NODIRECT=1 PATH=\"") + PEPPHER_E2E_CCACHE_BIN + ":$PATH\"";
  // nvcc is named by its path: through ccache where it exists (where it does not, the
  // Makefile leaves the CUDA variants out, as without ccache). CUDA_HOME as the Makefile
  // finds it from nvcc's own path.
  const std::filesystem::path nvcc = makefile_default(out / "Makefile", "NVCC");
  std::error_code error;
  if (!nvcc.empty() && nvcc.is_absolute() && std::filesystem::is_regular_file(nvcc, error)) {
    const std::filesystem::path real = std::filesystem::canonical(nvcc, error);
    if (!error) {
      cache.make_variables = " NVCC='" + ccache + " " + nvcc.string() + "' CUDA_HOME='" +
                             real.parent_path().parent_path().string() + "'";
    }
  }
  return cache;
}

}  // namespace

Run make(const std::filesystem::path& out, const std::string& target) {
  const CompilerCache cache = compiler_cache(out);
  return run("make -s -j2 -C " + out.string() + " " + target +
                 " PEPPHER_WARNINGS='-Wall -Wextra -Wshadow -Werror' PEPPHER_CUDA_CHECK=strict" +
                 cache.make_variables,
             cache.env);
}

std::filesystem::path compose_and_build(const std::string& name,
                                        const std::filesystem::path& main_xml,
                                        const std::string& options) {
  // Catch runs a test case once per SECTION, from its start: the same test case asking for
  // the same build again gets the folder it built on its first pass, not a rebuild.
  static std::map<std::string, std::filesystem::path> built_by_test_case;
  const std::string key = Catch::getResultCapture().getCurrentTestName() + '\n' + name + '\n' +
                          main_xml.string() + '\n' + options;
  const auto earlier = built_by_test_case.find(key);
  if (earlier != built_by_test_case.end()) return earlier->second;
  std::filesystem::path out = fresh_work_dir(name);
  Run composed = compose(main_xml, out, options);
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  Run built = make(out);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  built_by_test_case.emplace(key, out);
  return out;
}

Run run_program(const std::filesystem::path& exe, const std::string& args, const std::string& env) {
  return run(exe.string() + " " + args, "PEPPHER_REPORT=1 " + env);
}

std::filesystem::path cases() {
  return source_dir() / "test" / "e2e" / "cases";
}

long report_count(const std::string& report, const std::string& variant,
                  const std::string& worker_kind) {
  // Rows look like: "<interface> <variant> <worker name> <count>", whitespace-separated.
  long total = 0;
  std::istringstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.size() < 4) continue;
    bool names_variant = false, names_kind = false;
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      names_variant |= w[i] == variant;
      names_kind |= w[i].find(worker_kind) != std::string::npos;
    }
    if (!names_variant || !names_kind) continue;
    try {
      total += std::stol(w.back());
    } catch (...) {
    }
  }
  return total;
}

}  // namespace e2e
