// End-to-end test support (see e2e_support.h).
#include "e2e_support.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

#include "peppher_catch.h"
#include "starpu_output.h"

namespace e2e {

namespace {

// The CPU seconds (user and system) of the children waited for so far.
double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// PEPPHER_E2E_TIMES=<file>: one line per command the tests run (wall and CPU seconds, the
// test case, the command), appended: where a test's time goes.
void log_time(double wall, double cpu, const std::string& command) {
  const char* file = std::getenv("PEPPHER_E2E_TIMES");
  if (file == nullptr || *file == '\0') return;
  std::ofstream out(file, std::ios::app);
  out << wall << ' ' << cpu << " [" << Catch::getResultCapture().getCurrentTestName() << "] "
      << command.substr(0, 300) << '\n';
}

}  // namespace

Run run(const std::string& command, const std::string& env) {
  Run r;
  std::string full = env + (env.empty() ? "" : " ") + command + " 2>&1";
  const auto start = std::chrono::steady_clock::now();
  const double cpu_before = children_cpu_seconds();
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = pclose(pipe);
  log_time(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
           children_cpu_seconds() - cpu_before, command);
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

std::string compiler_cache_env() {
  if (std::string(PEPPHER_E2E_CCACHE).empty()) return "";
  // CCACHE_NODIRECT: ccache's direct mode knows the headers a cached compile read, not the
  // ones that appear later in front of them on the include path; the tests put such shadowing
  // headers there on purpose (a stale peppher.h next to main.cpp must stop the build), and
  // direct mode then returned the earlier clean build's object. Preprocessed mode sees them.
  // CCACHE_BASEDIR and CCACHE_NOHASHDIR as tools/build and tools/gpu-bundle set them:
  // absolute paths inside the checkout (the runtime's -I, the headers' line markers in the
  // preprocessed text, which that mode hashes) made relative, and the working folder left out
  // of -g compiles' hashes, so a clone in another folder (a CI run's) finds the compiles of
  // the last one; without them each new folder compiled everything again.
  return std::string("CCACHE_NODIRECT=1 CCACHE_BASEDIR=\"${CCACHE_BASEDIR:-") + PEPPHER_SOURCE_DIR +
         "}\" CCACHE_NOHASHDIR=\"${CCACHE_NOHASHDIR:-1}\" PATH=\"" + PEPPHER_E2E_CCACHE_BIN +
         ":$PATH\"";
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
  cache.env = compiler_cache_env();
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

// Whether this suite's gpu_bundle_cpu test runs: it does where StarPU with CUDA is built
// (the same question its script asks), and then compiles every app's and component's CUDA
// variant with nvcc against that StarPU and links it.
bool gpu_bundle_runs() {
  static const bool kRuns =
      run(std::string(PEPPHER_SOURCE_DIR) + "/tools/starpu-cuda --prefix >/dev/null").exit_code ==
      0;
  return kRuns;
}

// The CUDA sources the Makefile in @p out compiles (its `-c <path>.cu` commands, resolved
// from @p out).
std::vector<std::filesystem::path> cuda_sources(const std::filesystem::path& out) {
  std::vector<std::filesystem::path> sources;
  std::ifstream in(out / "Makefile");
  const std::regex compile(R"(-c (\S+\.cu) )");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, compile))
      sources.push_back(std::filesystem::weakly_canonical(out / m[1].str()));
  return sources;
}

// Whether @p file lies inside folder @p dir.
bool inside(const std::filesystem::path& file, const std::filesystem::path& dir) {
  const std::filesystem::path rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

// nvcc costs about 5 s a variant, most of a composed program's build: a program whose CUDA
// variants are all apps' or components' (every one of which gpu_bundle_cpu compiles in
// the same suite) leaves them out here. The tests' own CUDA variants are still compiled
// (checked, not linked: this StarPU has no CUDA).
bool cuda_compiled_elsewhere(const std::filesystem::path& out) {
  const std::vector<std::filesystem::path> sources = cuda_sources(out);
  if (sources.empty() || !gpu_bundle_runs()) return false;
  const std::filesystem::path src = std::filesystem::weakly_canonical(PEPPHER_SOURCE_DIR);
  for (const std::filesystem::path& s : sources)
    if (!inside(s, src / "apps") && !inside(s, src / "components")) return false;
  return true;
}

}  // namespace

Run make(const std::filesystem::path& out, const std::string& target) {
  const CompilerCache cache = compiler_cache(out);
  const std::string nvcc = cuda_compiled_elsewhere(out)
                               ? " NVCC=/nonexistent/nvcc-left-to-gpu_bundle_cpu"
                               : cache.make_variables;
  return run("make -s -j2 -C " + out.string() + " " + target +
                 " PEPPHER_WARNINGS='-Wall -Wextra -Wshadow -Werror' PEPPHER_CUDA_CHECK=strict" +
                 nvcc,
             cache.env);
}

std::filesystem::path compose_and_build(const std::string& name,
                                        const std::filesystem::path& main_xml,
                                        const std::string& options) {
  // Catch runs a test case once per SECTION, from its start, and test cases of one
  // executable may share a program: the same folder name, descriptor and options get the
  // folder built before (no test case changes a program another one runs), not a rebuild.
  // A folder rebuilt for other arguments forgets the program it held.
  static std::map<std::string, std::string> built_in_folder;  // name -> arguments built
  const std::string arguments = main_xml.string() + '\n' + options;
  const auto earlier = built_in_folder.find(name);
  if (earlier != built_in_folder.end() && earlier->second == arguments)
    return std::filesystem::path(PEPPHER_E2E_WORK_DIR) / name;
  built_in_folder.erase(name);
  std::filesystem::path out = fresh_work_dir(name);
  Run composed = compose(main_xml, out, options);
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  Run built = make(out);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  built_in_folder.emplace(name, arguments);
  return out;
}

Run run_program(const std::filesystem::path& exe, const std::string& args, const std::string& env) {
  // Bounded: a program that stalls (a StarPU wait that never ends) fails its test case with
  // exit code 124 and what it printed, instead of holding the whole executable until
  // ctest's timeout kills it. Every program here runs in seconds.
  constexpr int kSeconds = 300;
  return run("timeout -k 10 " + std::to_string(kSeconds) + " " + exe.string() + " " + args,
             "PEPPHER_REPORT=1 " + env);
}

std::filesystem::path cases() {
  return source_dir() / "test" / "e2e" / "cases";
}

std::vector<HistoryEntry> history_entries(const std::filesystem::path& home,
                                          const std::string& symbol) {
  std::vector<HistoryEntry> out;
  if (!std::filesystem::exists(home)) return out;
  for (const auto& f : std::filesystem::recursive_directory_iterator(home)) {
    if (!f.is_regular_file() || f.path().filename().string().rfind(symbol + ".", 0) != 0) continue;
    std::ifstream in(f.path());
    // "# hash size flops mean dev sum sum2 n", then one line per entry up to the next comment.
    bool entries = false;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') {
        entries = line.rfind("# hash", 0) == 0;
        continue;
      }
      if (!entries) continue;
      std::istringstream fields(line);
      std::vector<std::string> w;
      for (std::string x; fields >> x;) w.push_back(x);
      if (w.size() >= 8) out.push_back({std::stod(w[3]), std::stol(w[7])});
    }
  }
  return out;
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
