// Lists the headers a program's sources include: Clang preprocesses each source with a
// callback that records every file an #include enters.
#include "compose/light/includes.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compose/facts/regular_files.h"
#include "compose/output/output_context.h"

namespace peppher::light {
namespace {

namespace fs = std::filesystem;

// Every file the preprocessor enters (FileChanged: the same callback in every Clang
// release compose builds with), but the source itself and system headers.
class Includes : public clang::PPCallbacks {
 public:
  Includes(const clang::SourceManager& sm, std::vector<std::string>& out) : sm_(sm), out_(out) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason,
                   clang::SrcMgr::CharacteristicKind kind, clang::FileID) override {
    if (reason != EnterFile || clang::SrcMgr::isSystem(kind) || sm_.isInMainFile(loc)) return;
    const llvm::StringRef name = sm_.getFilename(sm_.getFileLoc(loc));
    if (name.empty()) return;  // <built-in>, <command line>
    const std::string path = fs::absolute(name.str()).lexically_normal().string();
    if (std::find(out_.begin(), out_.end(), path) == out_.end()) out_.push_back(path);
  }

 private:
  const clang::SourceManager& sm_;
  std::vector<std::string>& out_;
};

class ListAction : public clang::PreprocessOnlyAction {
 public:
  explicit ListAction(std::vector<std::string>& out) : out_(out) {}
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<Includes>(ci.getSourceManager(), out_));
    return true;
  }

 private:
  std::vector<std::string>& out_;
};

class Silent : public clang::DiagnosticConsumer {
  void HandleDiagnostic(clang::DiagnosticsEngine::Level, const clang::Diagnostic&) override {}
};

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool under(const std::string& path, const std::string& tree) {
  const std::string root = fs::absolute(tree).lexically_normal().string();
  const std::string prefix = root.empty() || root.back() == '/' ? root : root + "/";
  return path.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::vector<std::string> included_headers(const std::vector<std::string>& sources,
                                          const std::vector<std::string>& flags,
                                          const std::vector<std::string>& system_dirs,
                                          const std::string& tree) {
  std::vector<std::string> all;
  for (const std::string& s : sources) {
    const fs::path source = fs::absolute(s).lexically_normal();
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    memory->addFile((source.parent_path() / "peppher.h").string(), 0,
                    llvm::MemoryBuffer::getMemBufferCopy(""));
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        llvm::vfs::createPhysicalFileSystem());
    overlay->pushOverlay(memory);
    const std::string cwd = fs::current_path().string();
    overlay->setCurrentWorkingDirectory(cwd);
    llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(
        clang::FileSystemOptions(), facts::regular_files_only(overlay, cwd)));
    const bool c = source.extension() == ".c";
    std::vector<std::string> cmd = {"clang-tool",
                                    "-resource-dir=" PEPPHER_CLANG_RESOURCE_DIR,
                                    "-fsyntax-only",
                                    "-w",
                                    "-x",
                                    c ? "c" : "c++",
                                    c ? "-std=c11" : "-std=c++17"};
    for (const std::string& d : system_dirs) cmd.push_back("-isystem" + d);
    cmd.insert(cmd.end(), flags.begin(), flags.end());
    cmd.push_back(source.string());
    Silent silent;
    clang::tooling::ToolInvocation invocation(cmd, std::make_unique<ListAction>(all), files.get());
    invocation.setDiagnosticConsumer(&silent);
    invocation.run();  // a failed preprocessing still lists what it reached
  }
  std::vector<std::string> out;
  for (const std::string& h : all) {
    if (fs::path(h).extension() == ".c" || fs::path(h).extension() == ".cpp") continue;
    std::error_code ec;
    if (!fs::is_regular_file(h, ec)) continue;  // the stand-in peppher.h
    const std::string text = text_of(h);
    if (text.find(output::kGeneratedMark) != std::string::npos) continue;  // compose's own
    if (under(h, tree) || text.find("PEPPHER_") != std::string::npos) out.push_back(h);
  }
  return out;
}

}  // namespace peppher::light
