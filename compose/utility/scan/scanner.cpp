// Runs Clang on one header (ToolInvocation: one compile command, our diagnostics consumer)
// with a thin visitor: every FunctionDecl goes to FunctionMapper::add, nothing else here.
#include "compose/utility/scan/scanner.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <filesystem>

#include "common/files.h"
#include "compose/facts/regular_files.h"
#include "compose/utility/scan/clang_diagnostics.h"
#include "compose/utility/scan/mapper.h"

namespace peppher::scan {
namespace {

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
 public:
  explicit Visitor(FunctionMapper& mapper) : mapper_(mapper) {}
  bool TraverseDecl(clang::Decl* d) {
    return d == nullptr || !mapper_.worth_visiting(*d) ||
           clang::RecursiveASTVisitor<Visitor>::TraverseDecl(d);
  }
  bool VisitFunctionDecl(clang::FunctionDecl* d) {
    mapper_.add(*d);
    return true;
  }

 private:
  FunctionMapper& mapper_;
};

class Consumer : public clang::ASTConsumer {
 public:
  explicit Consumer(std::vector<ScannedFunction>& out) : out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;  // nothing from a broken header
    FunctionMapper mapper(ctx, out_);
    Visitor(mapper).TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  std::vector<ScannedFunction>& out_;
};

// Notes whether the command line's `restrict` (C99's keyword, which C++ spells
// __restrict) was expanded: the skeletons that include the header then define it too.
class RestrictWatch : public clang::PPCallbacks {
 public:
  RestrictWatch(const clang::SourceManager& sm, bool& used) : sm_(sm), used_(used) {}
  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& md, clang::SourceRange,
                    const clang::MacroArgs*) override {
    const clang::MacroInfo* mi = md.getMacroInfo();
    if (mi != nullptr && name.getIdentifierInfo()->getName() == "restrict" &&
        sm_.isWrittenInCommandLineFile(mi->getDefinitionLoc())) {
      used_ = true;
    }
  }

 private:
  const clang::SourceManager& sm_;
  bool& used_;
};

class ScanAction : public clang::ASTFrontendAction {
 public:
  explicit ScanAction(ScannedHeader& out) : out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<RestrictWatch>(ci.getSourceManager(), out_.uses_c_restrict));
    return std::make_unique<Consumer>(out_.functions);
  }

 private:
  ScannedHeader& out_;
};

// Flags every scan gets first, so the user's flags override them.
std::vector<std::string> default_flags() {
  // -fno-caret-diagnostics also silences Clang's own "N errors generated." on stderr.
  // -Drestrict: a C header's `restrict` parses as C++ (the variants that include it are C++).
  return {"-fsyntax-only",          "-resource-dir=" PEPPHER_CLANG_RESOURCE_DIR,
          "-fparse-all-comments",   "-w",
          "-fno-caret-diagnostics", "-Drestrict=__restrict"};
}

// The command line for `header`: from compile_commands.json when given, else our defaults.
bool command_line(const std::string& header, const ScanSettings& settings,
                  std::vector<std::string>& cmd, std::string& dir, diag::Diagnostics& diag) {
  if (settings.compile_commands_dir.empty()) {
    cmd = {"clang-tool", "-x", "c++-header", "-std=c++17"};
    for (const std::string& f : default_flags()) cmd.push_back(f);
    for (const std::string& f : settings.clang_args) cmd.push_back(f);
    cmd.push_back(header);
    dir = std::filesystem::current_path().string();
    return true;
  }
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> db =
      clang::tooling::CompilationDatabase::loadFromDirectory(settings.compile_commands_dir, error);
  if (db == nullptr) {
    diag.error("-p: cannot load compile_commands.json from '" + settings.compile_commands_dir +
               "': " + error);
    return false;
  }
  db = clang::tooling::inferMissingCompileCommands(std::move(db));
  std::string absolute = std::filesystem::absolute(header).lexically_normal().string();
  std::vector<clang::tooling::CompileCommand> commands = db->getCompileCommands(absolute);
  if (commands.empty()) {
    diag.error("-p: '" + settings.compile_commands_dir +
               "/compile_commands.json' has no "
               "command usable for '" +
               header + "'");
    return false;
  }
  using namespace clang::tooling;
  ArgumentsAdjuster adjust = combineAdjusters(
      getClangStripOutputAdjuster(),
      combineAdjusters(getClangStripDependencyFileAdjuster(), getClangSyntaxOnlyAdjuster()));
  std::vector<std::string> extra = default_flags();
  extra.insert(extra.end(), settings.clang_args.begin(), settings.clang_args.end());
  adjust = combineAdjusters(adjust, getInsertArgumentAdjuster(extra, ArgumentInsertPosition::END));
  cmd = adjust(commands.front().CommandLine, commands.front().Filename);
  // The file stays last: the inserted flags must come before it.
  auto at = std::find(cmd.begin(), cmd.end(), commands.front().Filename);
  if (at != cmd.end()) {
    std::string file = *at;
    cmd.erase(at);
    cmd.push_back(file);
  }
  dir = commands.front().Directory;
  return true;
}

}  // namespace

std::optional<ScannedHeader> scan_header(const std::string& header, const ScanSettings& settings,
                                         diag::Diagnostics& diag) {
  const std::string problem = files::not_a_file(header);
  if (!problem.empty()) {  // a FIFO or a device must not reach Clang, which would read it
    diag.error("cannot read header '" + header + "'" +
               (problem == files::kDoesNotExist ? "" : ": it " + problem));
    return std::nullopt;
  }
  std::vector<std::string> cmd;
  std::string dir;
  if (!command_line(header, settings, cmd, dir, diag)) return std::nullopt;

  // What the header includes is never opened unless it is a regular file (a FIFO blocks).
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(
      clang::FileSystemOptions(),
      facts::regular_files_only(llvm::vfs::createPhysicalFileSystem(), dir)));
  ScannedHeader result;
  result.path = header;
  ForwardingDiagnosticConsumer consumer(diag);
  clang::tooling::ToolInvocation invocation(cmd, std::make_unique<ScanAction>(result), files.get());
  invocation.setDiagnosticConsumer(&consumer);
  const int errors_before = diag.error_count();
  bool ok = invocation.run();
  if (!ok || diag.error_count() > errors_before) {
    if (diag.error_count() == errors_before) diag.error("cannot parse header '" + header + "'");
    return std::nullopt;
  }
  return result;
}

}  // namespace peppher::scan
