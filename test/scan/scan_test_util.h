// Helpers for the utility-mode tests: skeletons rendered in memory from a header, temporary
// folders, file reading and running shell commands with their output captured.
#pragma once

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../starpu_output.h"
#include "compose/output/output_context.h"
#include "compose/utility/scan/scanner.h"
#include "compose/utility/skeleton/plan.h"
#include "compose/utility/skeleton/skeleton.h"

namespace peppher::scan_test {

namespace fs = std::filesystem;

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "scan-test-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    path_ = ::mkdtemp(buf.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Generated {
  output::OutputContext files;  // relative to the interface folder
  std::string messages;         // diagnostics, with the header's folder removed
  int errors = 0;
};

// Scans `header` and renders its skeletons in memory, as utility mode would with the
// output next to the header.
inline Generated generate(const fs::path& header, const std::vector<std::string>& clang_args = {}) {
  Generated g;
  std::ostringstream messages;
  diag::Diagnostics diag(messages);
  auto scanned = scan::scan_header(header.string(), {clang_args, ""}, diag);
  if (scanned) {
    skeleton::PlanSettings settings;
    settings.output_dir = header.parent_path().string();
    skeleton::generate_skeletons(skeleton::plan_components(*scanned, settings, diag), g.files);
  }
  g.errors = diag.error_count();
  g.messages = replace_all(messages.str(), header.parent_path().string() + "/", "");
  return g;
}

struct CommandResult {
  int code = 0;
  std::string output;  // stdout and stderr
};

inline CommandResult run(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.output = peppher_test::without_starpu_sampling_warning(r.output);
  return r;
}

// Every regular file under dir, relative, sorted.
inline std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.insert(fs::relative(e.path(), dir).generic_string());
  }
  return out;
}

}  // namespace peppher::scan_test
