// Helpers shared by the composer's tests: temporary folders populated from inline files,
// and running the driver in-process with captured output.
#pragma once

#include <unistd.h>

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

// Wraps a descriptor body in <peppher:component> with the namespace declared.
inline std::string component(const std::string& body) {
  return "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n" +
         body + "</peppher:component>\n";
}

}  // namespace peppher::test
