// Clang's diagnostics, forwarded to the composer's sink: parse errors of a scanned header
// come out as `file:line:col: error: message` like every other composer error.
#pragma once

#include <clang/Basic/Diagnostic.h>

#include "compose/diag/diagnostics.h"

namespace peppher::scan {

// Errors (and fatal errors) go to `diag` with their presumed location; warnings and notes
// are dropped (the header is the user's, not ours to lint).
class ForwardingDiagnosticConsumer : public clang::DiagnosticConsumer {
 public:
  explicit ForwardingDiagnosticConsumer(diag::Diagnostics& diag) : diag_(diag) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;

 private:
  diag::Diagnostics& diag_;
};

}  // namespace peppher::scan
