// Where a composed program finds its OpenCL kernel files at run time (opencl.h): the
// environment, then folders relative to the executable, then where compose saw them, so a
// build tree can move and a program can be installed.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher/error.h"
#include "peppher/opencl.h"

namespace peppher {
namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The running executable's folder and file name, from /proc/self/exe ("" when unknown).
std::pair<std::string, std::string> executable() {
  std::vector<char> buf(PATH_MAX + 1);
  ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {"", ""};
  std::string self(buf.data(), static_cast<size_t>(n));
  size_t slash = self.rfind('/');
  if (slash == std::string::npos) return {".", self};
  return {self.substr(0, slash == 0 ? 1 : slash), self.substr(slash + 1)};
}

}  // namespace

std::string locate_kernel_file(const KernelFile& file) {
  std::vector<std::string> tried;
  if (const char* env = std::getenv("PEPPHER_KERNEL_PATH")) {
    std::string dirs = env;
    for (size_t start = 0, end; start <= dirs.size(); start = end + 1) {
      end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      if (end > start) tried.push_back(dirs.substr(start, end - start) + "/" + file.name);
    }
  }
  auto [dir, exe] = executable();
  if (!exe.empty()) {
    tried.push_back(dir + "/" + exe + "-kernels/" + file.name);
    tried.push_back(dir + "/../share/" + exe + "/kernels/" + file.name);
  }
  if (file.build_path != nullptr && *file.build_path != '\0') tried.push_back(file.build_path);
  for (const std::string& path : tried) {
    if (is_file(path)) return path;
  }
  std::string message = std::string("OpenCL kernel file ") + file.name + " not found; tried:";
  for (const std::string& path : tried) message += " " + path;
  throw Error(message + " (set PEPPHER_KERNEL_PATH to the folder holding it)");
}

}  // namespace peppher
