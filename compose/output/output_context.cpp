// The atomic writer behind OutputContext: temp files beside their targets, then renames.
#include "compose/output/output_context.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace peppher::output {

namespace fs = std::filesystem;

namespace {

bool same_content(const fs::path& p, const std::string& text) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str() == text;
}

}  // namespace

bool write_atomically(const OutputContext& out, const std::string& dir, diag::Diagnostics& diag) {
  std::vector<std::pair<fs::path, fs::path>> staged;  // temp -> final
  auto cleanup = [&] {
    std::error_code ec;
    for (auto& [tmp, final_path] : staged) fs::remove(tmp, ec);
  };
  const std::string suffix = ".compose-tmp." + std::to_string(::getpid());
  for (const auto& [rel, text] : out.files()) {
    fs::path target = fs::path(dir.empty() ? "." : dir) / rel;
    if (same_content(target, text)) continue;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      diag.error("cannot create folder '" + target.parent_path().generic_string() + "': " + ec.message());
      cleanup();
      return false;
    }
    fs::path tmp = target;
    tmp += suffix;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) {
      diag.error("cannot write '" + tmp.generic_string() + "'");
      fs::remove(tmp, ec);
      cleanup();
      return false;
    }
    staged.emplace_back(tmp, target);
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    std::error_code ec;
    fs::rename(staged[i].first, staged[i].second, ec);
    if (ec) {
      diag.error("cannot write '" + staged[i].second.generic_string() + "': " + ec.message());
      for (size_t j = i; j < staged.size(); ++j) fs::remove(staged[j].first, ec);
      return false;
    }
  }
  return true;
}

}  // namespace peppher::output
