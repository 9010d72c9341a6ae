// Formatting of diagnostics (GCC style) and the edit-distance helper behind every
// "did you mean" suggestion.
#include "compose/diag/diagnostics.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace peppher::diag {

void Diagnostics::error(const ir::SourceLoc& loc, const std::string& message) {
  report(Severity::Error, loc, message);
}
void Diagnostics::warning(const ir::SourceLoc& loc, const std::string& message) {
  report(Severity::Warning, loc, message);
}
void Diagnostics::note(const ir::SourceLoc& loc, const std::string& message) {
  report(Severity::Note, loc, message);
}

void Diagnostics::report(Severity severity, const ir::SourceLoc& loc, const std::string& message) {
  if (loc.file.empty()) {
    out_ << "compose";
  } else {
    out_ << loc.file;
    if (loc.line > 0) {
      out_ << ':' << loc.line;
      if (loc.col > 0) out_ << ':' << loc.col;
    }
  }
  switch (severity) {
    case Severity::Error:
      out_ << ": error: ";
      ++errors_;
      break;
    case Severity::Warning:
      out_ << ": warning: ";
      ++warnings_;
      break;
    case Severity::Note:
      out_ << ": note: ";
      break;
  }
  out_ << message << '\n';
  out_.flush();
}

size_t edit_distance(const std::string& a, const std::string& b) {
  // Case-insensitive optimal-string-alignment distance (a swap of neighbours costs 1);
  // a case-only difference costs 1 in total.
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  const size_t n = a.size(), m = b.size();
  if (n > m + 8 || m > n + 8) return n > m ? n : m;  // far apart anyway; keeps fuzzing cheap
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      size_t sub = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + sub});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  if (d[n][m] == 0 && a != b) return 1;
  return d[n][m];
}

bool equal_ignoring_case(const std::string& a, const std::string& b) {
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string closest_match(const std::string& word,
                          const std::initializer_list<const char*>& candidates) {
  return closest_match_in(word, candidates);
}

std::string did_you_mean(const std::string& suggestion) {
  if (suggestion.empty()) return "";
  return "; did you mean '" + suggestion + "'?";
}

}  // namespace peppher::diag
