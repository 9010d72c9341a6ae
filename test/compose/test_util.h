// Helpers shared by the composer's tests: temporary folders populated from inline files,
// and running the driver in-process with captured output.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compose/driver.h"

namespace peppher::test {

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "compose-test-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    path_ = ::mkdtemp(buf.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

  void write(const std::string& rel, const std::string& text) const {
    std::filesystem::path p = std::filesystem::path(path_) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }

 private:
  std::string path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct RunResult {
  int code = 0;
  std::string out;
  std::string err;
};

// Runs the driver with the working directory set to `cwd` (restored afterwards).
inline RunResult run_in(const std::string& cwd, const std::vector<std::string>& args) {
  std::filesystem::path old = std::filesystem::current_path();
  std::filesystem::current_path(cwd);
  std::ostringstream out, err;
  RunResult r;
  r.code = run_compose(args, out, err);
  std::filesystem::current_path(old);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// `s` quoted for /bin/sh: in single quotes, each quote as '\''.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The lines of `text` (args.txt of a corpus case: one argument a line).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The names of the folders in `dir` (the cases of a corpus), sorted.
inline std::vector<std::string> case_folders(const std::string& dir) {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_directory()) out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every file and folder under `root` (except under `skip`) with its content ("<dir>" for a
// folder): two snapshots differ when anything was written, changed or removed.
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& root,
                                                   const std::filesystem::path& skip) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->path() == skip) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string rel = fs::relative(it->path(), root).generic_string();
    out[rel] = it->is_regular_file() ? read_file(it->path().string()) : "<dir>";
  }
  return out;
}

// Wraps a descriptor body in <peppher:component> with the namespace declared.
inline std::string component(const std::string& body) {
  return "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n" +
         body + "</peppher:component>\n";
}

}  // namespace peppher::test
