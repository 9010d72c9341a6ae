// Reads the template arguments of the program's calls to generic interfaces (see
// generic_calls.h): a thin visitor hands every call to map_call.
#include "compose/facts/generic_calls.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <filesystem>

#include "compose/facts/regular_files.h"

namespace peppher::facts {
namespace {

using Calls = std::map<std::string, std::vector<std::vector<std::string>>>;

// The folder the stand-in peppher.h is also found in (after the source's own folder).
constexpr const char* kStandInDir = "/peppher-generic-calls";

// The template arguments of `call` when it calls one of `names`, a function template at
// namespace scope, with every argument a type.
void map_call(const clang::ASTContext& ctx, const clang::CallExpr& call,
              const std::vector<std::string>& names, Calls& out) {
  const clang::FunctionDecl* callee = call.getDirectCallee();
  if (callee == nullptr || callee->getPrimaryTemplate() == nullptr) return;
  if (!callee->getDeclContext()->getRedeclContext()->isTranslationUnit()) return;
  const std::string name = callee->getNameAsString();
  if (std::find(names.begin(), names.end(), name) == names.end()) return;
  const clang::TemplateArgumentList* args = callee->getTemplateSpecializationArgs();
  if (args == nullptr) return;
  clang::PrintingPolicy pp(ctx.getLangOpts());
  pp.SuppressTagKeyword = true;
  std::vector<std::string> types;
  for (const clang::TemplateArgument& a : args->asArray()) {
    if (a.getKind() != clang::TemplateArgument::Type) return;
    types.push_back(a.getAsType().getCanonicalType().getAsString(pp));
  }
  std::vector<std::vector<std::string>>& list = out[name];
  if (std::find(list.begin(), list.end(), types) == list.end()) list.push_back(types);
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
 public:
  Visitor(const clang::ASTContext& ctx, const std::vector<std::string>& names, Calls& out)
      : ctx_(ctx), names_(names), out_(out) {}
  // A call in a function template is read in each of its instantiations (the dependent
  // call in the template itself has no deduced arguments).
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(clang::CallExpr* c) {
    map_call(ctx_, *c, names_, out_);
    return true;
  }

 private:
  const clang::ASTContext& ctx_;
  const std::vector<std::string>& names_;
  Calls& out_;
};

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const std::vector<std::string>& names, Calls& out) : names_(names), out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    Visitor(ctx, names_, out_).TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  const std::vector<std::string>& names_;
  Calls& out_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(const std::vector<std::string>& names, Calls& out) : names_(names), out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<Consumer>(names_, out_);
  }

 private:
  const std::vector<std::string>& names_;
  Calls& out_;
};

// Errors in the program's parse (its calls of the other interfaces, which the stand-in
// does not declare) are expected and not shown.
class Silent : public clang::DiagnosticConsumer {
  void HandleDiagnostic(clang::DiagnosticsEngine::Level, const clang::Diagnostic&) override {}
};

}  // namespace

Calls called_instantiations(const std::vector<ProgramSource>& sources, const std::string& stand_in,
                            const std::vector<std::string>& names) {
  namespace fs = std::filesystem;
  Calls out;
  for (const ProgramSource& s : sources) {
    const fs::path source = fs::absolute(s.path).lexically_normal();
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const fs::path& dir : {source.parent_path(), fs::path(kStandInDir)}) {
      memory->addFile((dir / "peppher.h").string(), 0,
                      llvm::MemoryBuffer::getMemBufferCopy(stand_in));
    }
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        llvm::vfs::createPhysicalFileSystem());
    overlay->pushOverlay(memory);
    overlay->setCurrentWorkingDirectory(s.directory);
    llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(
        clang::FileSystemOptions(), regular_files_only(overlay, s.directory)));
    std::vector<std::string> cmd = {"clang-tool",
                                    "-resource-dir=" PEPPHER_CLANG_RESOURCE_DIR,
                                    "-fsyntax-only",
                                    "-w",
                                    "-ferror-limit=0",
                                    "-x",
                                    "c++",
                                    "-std=c++17"};
    cmd.insert(cmd.end(), s.flags.begin(), s.flags.end());
    cmd.insert(cmd.end(), {std::string("-I") + kStandInDir, source.string()});
    Silent silent;
    clang::tooling::ToolInvocation invocation(cmd, std::make_unique<Action>(names, out),
                                              files.get());
    invocation.setDiagnosticConsumer(&silent);
    invocation.run();  // a failed parse still gives the calls it reached
  }
  return out;
}

facts::CalledInstantiations read_called_instantiations(
    const ir::Application& app, const ir::Options& options,
    const std::vector<std::string>& main_source_flags,
    const std::vector<std::string>& system_include_dirs) {
  auto listed = [&](const ir::Interface& iface) {
    for (const ir::GenericParameter& g : iface.generic_parameters)
      if (!g.types.empty()) return true;
    auto asks = [&](const ir::RequiredInterface& r) {
      return r.name == iface.name && !r.instantiate.empty();
    };
    if (std::any_of(app.required.begin(), app.required.end(), asks)) return true;
    for (const ir::Interface& i : app.interfaces)
      for (const ir::Variant& v : i.variants)
        if (std::any_of(v.required.begin(), v.required.end(), asks)) return true;
    return false;
  };
  std::vector<std::string> names;
  std::string stand_in =
      "// compose's stand-in for peppher.h: the generic interfaces the program calls\n"
      "#define PEPPHER_INITIALIZE()\n#define PEPPHER_SHUTDOWN()\n";
  for (const ir::Interface& iface : app.interfaces) {
    if (!iface.generic || iface.template_types.empty() || listed(iface)) continue;
    names.push_back(iface.name);
    std::string types, params;
    for (const std::string& t : iface.template_types) types += (types.empty() ? "" : ", ") + t;
    for (const ir::Parameter& p : iface.parameters) {
      params += (params.empty() ? "" : ", ") + p.type + " " + p.name;
      if (p.type.find("peppher::") != std::string::npos &&
          stand_in.find("<peppher/runtime.h>") == std::string::npos) {
        stand_in += "#include <peppher/runtime.h>\n";
      }
    }
    stand_in += "template <typename " + types + "> void " + iface.name + "(" + params + ");\n";
  }
  if (names.empty()) return {};
  const std::vector<ProgramSource> sources =
      program_sources(app, options, main_source_flags, system_include_dirs, /*with_c=*/false);
  return called_instantiations(sources, stand_in, names);
}

}  // namespace peppher::facts
