// The one diagnostics sink of the composer: every stage reports user mistakes here in GCC
// format (`file:line:col: error: message`, 1-based) and keeps going; the driver exits
// non-zero at the end if any error was reported.
#pragma once

#include <ostream>
#include <string>

#include "compose/ir/ir.h"

namespace peppher::diag {

enum class Severity { Error, Warning, Note };

class Diagnostics {
 public:
  explicit Diagnostics(std::ostream& out) : out_(out) {}

  void error(const ir::SourceLoc& loc, const std::string& message);
  void warning(const ir::SourceLoc& loc, const std::string& message);
  void note(const ir::SourceLoc& loc, const std::string& message);
  // Without a location (command line, environment): `compose: error: message`.
  void error(const std::string& message) { error(ir::SourceLoc{}, message); }
  void warning(const std::string& message) { warning(ir::SourceLoc{}, message); }
  void note(const std::string& message) { note(ir::SourceLoc{}, message); }

  void report(Severity severity, const ir::SourceLoc& loc, const std::string& message);

  int error_count() const { return errors_; }
  int warning_count() const { return warnings_; }
  bool has_errors() const { return errors_ > 0; }

 private:
  std::ostream& out_;
  int errors_ = 0;
  int warnings_ = 0;
};

// "did you mean" support: the candidate closest to `word` by edit distance, or "" when
// none is close enough to be a plausible typo.
std::string closest_match(const std::string& word,
                          const std::initializer_list<const char*>& candidates);
template <class Range>
std::string closest_match_in(const std::string& word, const Range& candidates);
size_t edit_distance(const std::string& a, const std::string& b);
// Whether a and b differ in case only.
bool equal_ignoring_case(const std::string& a, const std::string& b);
// "; did you mean 'x'?" or "".
std::string did_you_mean(const std::string& suggestion);

template <class Range>
std::string closest_match_in(const std::string& word, const Range& candidates) {
  std::string best;
  size_t best_score = 0;
  size_t allowed = word.size() / 3 + 1;  // allowed distance grows with the word
  if (allowed > 3) allowed = 3;
  for (const auto& c : candidates) {
    std::string s(c);
    const size_t d = edit_distance(word, s);
    if (d > allowed) continue;
    // Twice the distance, less one for a case-only difference: 'n' before 'A' for 'N'.
    const size_t score = 2 * d - (d > 0 && equal_ignoring_case(word, s) ? 1 : 0);
    if (best.empty() || score < best_score) {
      best = s;
      best_score = score;
    }
  }
  return best;
}

}  // namespace peppher::diag
