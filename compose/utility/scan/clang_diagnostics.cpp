// Forwards Clang's error diagnostics into diag::Diagnostics (see clang_diagnostics.h).
#include "compose/utility/scan/clang_diagnostics.h"

#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

namespace peppher::scan {

void ForwardingDiagnosticConsumer::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                                    const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // keeps the error count
  if (level < clang::DiagnosticsEngine::Error) return;
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  if (info.getID() == clang::diag::err_pp_file_not_found) {
    message += " (give its folder with -I DIR, or -p DIR for a compile_commands.json)";
  }
  ir::SourceLoc loc;
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const clang::SourceManager& sm = info.getSourceManager();
    clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
    if (p.isValid())
      loc = {p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
  }
  if (loc.file.empty()) {
    diag_.error(std::string(message));
  } else {
    diag_.error(loc, std::string(message));
  }
}

}  // namespace peppher::scan
