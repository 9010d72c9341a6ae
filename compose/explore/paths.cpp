// Descriptor-relative path resolution used by exploration.
#include "compose/explore/paths.h"

#include <filesystem>

namespace peppher::explore {

namespace fs = std::filesystem;

std::string normalize(const std::string& path) {
  std::string s = fs::path(path).lexically_normal().generic_string();
  if (s.empty()) return ".";
  return s;
}

std::string parent_dir(const std::string& file) {
  return fs::path(file).parent_path().generic_string();
}

std::string resolve_relative(const std::string& including_file, const std::string& rel) {
  fs::path r(rel);
  if (r.is_absolute()) return normalize(rel);
  return normalize((fs::path(parent_dir(including_file)) / r).generic_string());
}

}  // namespace peppher::explore
