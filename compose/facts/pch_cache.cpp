// See pch_cache.h.
#include "compose/facts/pch_cache.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <utility>
#include <vector>

namespace peppher::facts {

namespace fs = std::filesystem;

void note_pch_used(const std::string& pch) noexcept {
  std::error_code ec;
  fs::last_write_time(pch, fs::file_time_type::clock::now(), ec);
}

void prune_pch_cache(const std::string& dir, std::size_t keep) noexcept {
  try {
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    std::vector<std::pair<fs::file_time_type, fs::path>> headers;  // (time, runtime-*.pch)
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      const std::string name = p.filename().string();
      if (name.rfind("runtime-", 0) != 0 || !it->is_regular_file(ec)) continue;
      const auto time = fs::last_write_time(p, ec);
      if (ec) continue;
      if (p.extension() == ".pch") {
        headers.emplace_back(time, p);
      } else if (p.extension() == ".tmp" && now - time > std::chrono::hours(1)) {
        fs::remove(p, ec);
      }
    }
    if (headers.size() <= keep) return;
    std::sort(headers.begin(), headers.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });  // newest first
    for (std::size_t i = keep; i < headers.size(); ++i) {
      fs::remove(headers[i].second, ec);
      fs::remove(fs::path(headers[i].second).replace_extension(".h"), ec);
    }
  } catch (...) {  // a cache that cannot be pruned costs disk space only
  }
}

}  // namespace peppher::facts
