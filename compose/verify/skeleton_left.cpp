// See skeleton_left.h.
#include "compose/verify/skeleton_left.h"

#include <regex>
#include <sstream>

namespace peppher::verify {

int untouched_skeleton_line(const std::string& text) {
  static const std::regex kBegin(R"(\s*// ---- PEPPHER: your .* goes here .*)");
  static const std::regex kEnd(R"(\s*// ---- PEPPHER: end of your code ----\s*)");
  static const std::regex kFiller(R"(\s*(//.*|\(void\)\s*\w+\s*;)?\s*)");
  std::istringstream lines(text);
  int number = 0, begin = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (std::regex_match(line, kBegin)) {
      begin = number;
    } else if (begin != 0 && std::regex_match(line, kEnd)) {
      return begin;  // nothing but the generated filler in between
    } else if (begin != 0 && !std::regex_match(line, kFiller)) {
      begin = 0;  // the user's code
    }
  }
  return 0;
}

}  // namespace peppher::verify
