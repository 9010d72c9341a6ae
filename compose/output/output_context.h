// The output context: generators write files into memory (path -> text) and never touch
// the filesystem; the driver writes everything at the end, only when there were no errors,
// atomically per file (temp file + rename) so a failed run leaves previous output intact.
#pragma once

#include <map>
#include <string>

#include "compose/diag/diagnostics.h"

namespace peppher::output {

class OutputContext {
 public:
  // Adds or replaces the file at `path` (relative to the output folder, '/'-separated).
  void write(const std::string& path, std::string text) { files_[path] = std::move(text); }
  // Appends to a file, creating it if needed.
  void append(const std::string& path, const std::string& text) { files_[path] += text; }
  bool contains(const std::string& path) const { return files_.count(path) > 0; }
  const std::string& at(const std::string& path) const { return files_.at(path); }
  const std::map<std::string, std::string>& files() const { return files_; }
  bool empty() const { return files_.empty(); }

 private:
  std::map<std::string, std::string> files_;  // sorted: deterministic write order
};

// Writes every file of `out` under `dir`: all contents go to temporary files first, then
// each is renamed over its target; files whose content is unchanged are not touched. On any
// failure the temporaries are removed, the error is reported and false returned.
bool write_atomically(const OutputContext& out, const std::string& dir, diag::Diagnostics& diag);

}  // namespace peppher::output
