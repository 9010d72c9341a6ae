// Byte offset -> 1-based line:col for one descriptor file, from a table of line starts
// built once per file (binary search per lookup).
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::read {

class LineTable {
 public:
  LineTable(std::string file, const std::string& text);
  ir::SourceLoc loc(size_t offset) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<size_t> starts_;
};

}  // namespace peppher::read
