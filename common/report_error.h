// The user-facing error of the reports (peppher-report, compose --explain --format=html):
// "file:line:col: error: ..." or "file: error: ...", thrown where reading or drawing fails.
#pragma once

#include <stdexcept>

namespace peppher::perfdata {

/// A user-facing error of a report ("file:line:col: error: ..." or "file: error: ...").
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace peppher::perfdata
