// Line-start table for turning the XML parser's byte offsets into GCC-style positions.
#include "compose/read/line_table.h"

#include <algorithm>

namespace peppher::read {

LineTable::LineTable(std::string file, const std::string& text) : file_(std::move(file)) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

ir::SourceLoc LineTable::loc(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  size_t line = static_cast<size_t>(it - starts_.begin());  // >= 1 since starts_[0] == 0
  return ir::SourceLoc{file_, static_cast<int>(line),
                       static_cast<int>(offset - starts_[line - 1] + 1)};
}

}  // namespace peppher::read
