// Parses one variant source with Clang (see source_parser.h): a thin visitor hands every
// function of the wanted name to map_function; function bodies are skipped (only
// declarations matter; check_bodies parses them), which keeps a parse to a few tens of ms.
#include "compose/facts/source_parser.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <stdlib.h>  // mkdtemp
#include <unistd.h>  // getpid

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "compose/facts/pch_cache.h"
#include "compose/facts/regular_files.h"
#include "compose/util/clang_compat.h"

namespace peppher::facts {
namespace {

// The name the expected prototype is declared under, and the virtual files holding it.
constexpr const char* kExpected = "peppher_verify_expected";
constexpr const char* kExpectedHeader = "/peppher-verify/expected.h";

ir::SourceLoc location(const clang::SourceManager& sm, clang::SourceLocation loc) {
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return {};
  return {p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
}

const char* address_space(clang::LangAS as) {
  switch (as) {
    case clang::LangAS::opencl_global:
      return "__global";
    case clang::LangAS::opencl_constant:
      return "__constant";
    case clang::LangAS::opencl_local:
      return "__local";
    case clang::LangAS::opencl_private:
      return "__private";
    default:
      return "";
  }
}

ParsedParam map_param(const clang::ASTContext& ctx, const clang::ParmVarDecl& p) {
  clang::PrintingPolicy pp(ctx.getLangOpts());
  pp.SuppressUnwrittenScope = true;
  ParsedParam out;
  out.loc = location(ctx.getSourceManager(), p.getLocation());
  out.name = p.getNameAsString();
  const clang::QualType t = p.getType();
  // OpenCL gives every kernel parameter the private address space; users never write it
  // ("const __private unsigned int" would be printed for `const unsigned int n`).
  out.type =
      (t.getAddressSpace() == clang::LangAS::opencl_private ? ctx.removeAddrSpaceQualType(t) : t)
          .getAsString(pp);
  clang::QualType value = t.getNonReferenceType();
  out.reference = t->isReferenceType();
  if (t->isPointerType()) {
    out.pointer = true;
    value = t->getPointeeType();
    out.address_space = address_space(value.getAddressSpace());
    out.pointee_const = value.isConstQualified();
  }
  clang::QualType canonical = ctx.getCanonicalType(value);
  canonical = ctx.removeAddrSpaceQualType(canonical).getUnqualifiedType();
  if (const auto* e = canonical->getAs<clang::EnumType>()) {
    canonical = e->getDecl()->getIntegerType().getCanonicalType();
  }
  out.value_type = canonical.isNull() ? "" : canonical.getAsString(pp);
  if (!canonical.isNull() && !canonical->isDependentType() && canonical->isBuiltinType() &&
      !canonical->isVoidType()) {
    if (canonical->isBooleanType()) {
      out.kind = "bool";
    } else if (canonical->isSignedIntegerType()) {
      out.kind = "int";
    } else if (canonical->isUnsignedIntegerType()) {
      out.kind = "uint";
    } else if (canonical->isFloatingType()) {
      out.kind = "float";
    }
    if (!out.kind.empty()) out.bytes = static_cast<int>(ctx.getTypeSize(canonical) / 8);
  }
  if (!canonical.isNull() && !canonical->isDependentType() && !canonical->isIncompleteType()) {
    out.value_bytes = static_cast<int>(ctx.getTypeSizeInChars(canonical).getQuantity());
  }
  return out;
}

ParsedFunction map_function(const clang::ASTContext& ctx, const clang::FunctionDecl& d) {
  ParsedFunction f;
  f.loc = location(ctx.getSourceManager(), d.getLocation());
  f.name = d.getQualifiedNameAsString();
  const std::string plain = d.getNameAsString();
  if (f.name.size() > plain.size() + 2)
    f.scope = f.name.substr(0, f.name.size() - plain.size() - 2);
  f.internal = !d.isExternallyVisible();
  f.is_inline = d.isInlined();
  f.is_template = d.getDescribedFunctionTemplate() != nullptr;
  f.is_kernel = d.hasAttr<clang::OpenCLKernelAttr>();
  f.defined = d.doesThisDeclarationHaveABody() || d.hasSkippedBody();
  f.extern_c = d.isExternC();
  for (const clang::ParmVarDecl* p : d.parameters()) f.params.push_back(map_param(ctx, *p));
  return f;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
 public:
  Visitor(const std::vector<std::string>& names, std::vector<const clang::FunctionDecl*>& found,
          const clang::FunctionDecl*& expected, std::vector<std::string>& kernels)
      : names_(names), found_(found), expected_(expected), kernels_(kernels) {}
  bool VisitFunctionDecl(clang::FunctionDecl* d) {
    if (d->isImplicit() || llvm::isa<clang::CXXMethodDecl>(d) || !d->getDeclName().isIdentifier()) {
      return true;
    }
    if (d->getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate &&
        d->getTemplatedKind() != clang::FunctionDecl::TK_FunctionTemplate) {
      return true;  // specializations and instantiations
    }
    const std::string qualified = d->getQualifiedNameAsString();
    if (d->hasAttr<clang::OpenCLKernelAttr>()) kernels_.push_back(qualified);
    if (qualified == kExpected) {
      expected_ = d;
    } else if (std::find(names_.begin(), names_.end(), d->getName().str()) != names_.end() &&
               !d->getDeclContext()->getRedeclContext()->isRecord()) {
      found_.push_back(d);  // at global scope or in a namespace (verify.cpp tells them apart)
    }
    return true;
  }

 private:
  const std::vector<std::string>& names_;
  std::vector<const clang::FunctionDecl*>& found_;
  const clang::FunctionDecl*& expected_;
  std::vector<std::string>& kernels_;
};

// The first `get_global_id(1)` (or another work-item function) of dimension 1 and of
// dimension 2 in the body of kernel `d`, from its tokens (bodies are skipped; macros are
// not expanded).
void find_dimension_uses(const clang::ASTContext& ctx, const clang::FunctionDecl& d,
                         ParsedFunction& f) {
  static const char* const kCalls[] = {"get_global_id",    "get_local_id",   "get_group_id",
                                       "get_global_size",  "get_local_size", "get_num_groups",
                                       "get_global_offset"};
  const clang::SourceManager& sm = ctx.getSourceManager();
  const clang::SourceLocation begin = sm.getExpansionLoc(d.getBeginLoc());
  bool invalid = false;
  const llvm::StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
  if (invalid) return;
  const char* start = sm.getCharacterData(begin);
  clang::Lexer lexer(sm.getLocForStartOfFile(sm.getFileID(begin)), ctx.getLangOpts(),
                     buffer.begin(), start, buffer.end());
  std::vector<clang::Token> window;  // the last four tokens
  int depth = 0;
  for (clang::Token t; !lexer.LexFromRawLexer(t) || t.isNot(clang::tok::eof);) {
    if (t.is(clang::tok::eof)) break;
    if (t.is(clang::tok::l_brace)) ++depth;
    if (t.is(clang::tok::r_brace) && --depth == 0) break;
    window.push_back(t);
    if (window.size() > 4) window.erase(window.begin());
    if (window.size() < 4 || !window[3].is(clang::tok::r_paren)) continue;
    if (!window[0].is(clang::tok::raw_identifier) || !window[1].is(clang::tok::l_paren) ||
        !window[2].is(clang::tok::numeric_constant)) {
      continue;
    }
    const std::string name = window[0].getRawIdentifier().str();
    const std::string dim(window[2].getLiteralData(), window[2].getLength());
    if (dim != "1" && dim != "2" && dim != "1u" && dim != "2u") continue;
    const int dimension = dim[0] - '0';
    const bool seen = std::any_of(f.dimension_uses.begin(), f.dimension_uses.end(),
                                  [&](const DimensionUse& u) { return u.dimension == dimension; });
    if (seen || std::find(std::begin(kCalls), std::end(kCalls), name) == std::end(kCalls)) {
      continue;
    }
    f.dimension_uses.push_back(
        {dimension, location(sm, window[0].getLocation()), name + "(" + dim + ")"});
  }
}

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const std::vector<std::string>& names, ParsedSource& out) : names_(names), out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    std::vector<const clang::FunctionDecl*> found;
    const clang::FunctionDecl* expected = nullptr;
    Visitor(names_, found, expected, out_.kernel_names).TraverseDecl(ctx.getTranslationUnitDecl());
    if (expected != nullptr) out_.expected = map_function(ctx, *expected);
    const clang::SourceManager& sm = ctx.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      if (clang_compat::ends_with(clang_compat::file_name(it->first), "peppher/runtime.h")) {
        out_.includes_runtime = true;
      }
    }
    for (const clang::FunctionDecl* d : found) {
      ParsedFunction f = map_function(ctx, *d);
      if (f.is_kernel && f.defined) find_dimension_uses(ctx, *d, f);
      for (size_t i = 0; expected != nullptr && i < f.params.size(); ++i) {
        if (i >= expected->getNumParams()) break;
        f.params[i].same_as_expected =
            ctx.hasSameType(d->getParamDecl(i)->getType().getUnqualifiedType(),
                            expected->getParamDecl(i)->getType().getUnqualifiedType());
      }
      out_.functions.push_back(std::move(f));
    }
  }

 private:
  const std::vector<std::string>& names_;
  ParsedSource& out_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(const std::vector<std::string>& names, ParsedSource& out, bool bodies)
      : names_(names), out_(out), bodies_(bodies) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    // Signatures are all we compare, unless the caller checks that the bodies compile.
    ci.getFrontendOpts().SkipFunctionBodies = !bodies_;
    return std::make_unique<Consumer>(names_, out_);
  }

 private:
  const std::vector<std::string>& names_;
  ParsedSource& out_;
  bool bodies_;
};

// Records every error (the first formatted with its place), and whether the expected
// prototype's virtual header had one.
class ErrorRecorder : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    ir::SourceLoc loc;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      loc = location(info.getSourceManager(), info.getLocation());
    }
    if (loc.file == kExpectedHeader) {
      expected_failed = true;
      return;
    }
    source_failed = true;
    llvm::SmallString<256> formatted;
    info.FormatDiagnostic(formatted);
    const std::string message(formatted);
    if (files != nullptr && files->refused(message) && info.hasSourceManager()) {
      // The #error line that stands for a FIFO or device: reported at its #include.
      const clang::SourceManager& sm = info.getSourceManager();
      const clang::SourceLocation include = sm.getIncludeLoc(sm.getFileID(info.getLocation()));
      if (include.isValid()) loc = location(sm, include);
      refused.emplace_back(loc, message);
    }
    all.emplace_back(loc, message);
    if (!first.empty()) return;
    first = loc.file.empty() ? std::string(message)
                             : loc.file + ":" + std::to_string(loc.line) + ":" +
                                   std::to_string(loc.col) + ": " + std::string(message);
  }
  std::string first;
  std::vector<std::pair<ir::SourceLoc, std::string>> all;
  std::vector<std::pair<ir::SourceLoc, std::string>> refused;  // files that are no files
  bool source_failed = false;
  bool expected_failed = false;
  const RegularFilesOnly* files = nullptr;  // the run's file system, set by run_tool
};

std::vector<std::string> language_flags(Language language) {
  switch (language) {
    case Language::C:
      return {"-x", "c", "-std=gnu11"};
    case Language::Cxx:
      return {"-x", "c++", "-std=c++17"};
    case Language::OpenCl:
      return {"-x", "cl", "-cl-std=CL1.2"};
    case Language::Cuda:
      return {"-x", "cuda", "--cuda-host-only", "-std=c++17"};
  }
  return {};
}

// Builds the precompiled header with declarations only (the parses skip bodies too).
class PchAction : public clang::GeneratePCHAction {
 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef file) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return clang::GeneratePCHAction::CreateASTConsumer(ci, file);
  }
};

std::vector<std::string> base_command() {
  return {"clang-tool", "-resource-dir=" PEPPHER_CLANG_RESOURCE_DIR, "-w",
          "-fno-caret-diagnostics"};
}

// The flags a precompiled header must agree on: all but macro definitions, which a parse
// may add (tunable values, a renamed function).
std::string pch_key(const ParseRequest& r) {
  std::string key = std::to_string(static_cast<int>(r.language));
  for (size_t i = 0; i < r.flags.size(); ++i) {
    const std::string& f = r.flags[i];
    if (f == "-D" || f == "-U") {
      ++i;
    } else if (f.rfind("-D", 0) != 0 && f.rfind("-U", 0) != 0) {
      key += "\n" + f;
    }
  }
  return key + "\n" + r.directory;
}

// Runs `action` over `cmd` in `directory`, with `virtual_files` (path, text) visible; a
// file that is not a regular file is never opened (regular_files.h).
bool run_tool(const std::vector<std::string>& cmd, std::unique_ptr<clang::FrontendAction> action,
              const std::string& directory,
              const std::vector<std::pair<std::string, std::string>>& virtual_files,
              ErrorRecorder& diagnostics) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  overlay->pushOverlay(memory);
  for (const auto& [path, text] : virtual_files) {
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  }
  overlay->setCurrentWorkingDirectory(directory);
  llvm::IntrusiveRefCntPtr<RegularFilesOnly> regular = regular_files_only(overlay, directory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), regular));
  clang::tooling::ToolInvocation invocation(cmd, std::move(action), files.get());
  diagnostics.files = regular.get();
  invocation.setDiagnosticConsumer(&diagnostics);
  const bool ran = invocation.run();
  diagnostics.files = nullptr;
  return ran;
}

}  // namespace

// The folder precompiled headers are kept in across runs, created if needed; "" if none.
std::string cache_folder() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* d = std::getenv("PEPPHER_CACHE_DIR"); d != nullptr && *d != '\0') {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/') {
    dir = fs::path(x) / "peppher";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h == '/') {
    dir = fs::path(h) / ".cache" / "peppher";
  } else {
    return "";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || access(dir.c_str(), W_OK) != 0) return "";
  return dir.string();
}

SourceParser::SourceParser() {
  std::string pattern = (std::filesystem::temp_directory_path() / "peppher-verify-XXXXXX").string();
  if (mkdtemp(pattern.data()) != nullptr) temp_dir_ = pattern;
  cache_dir_ = cache_folder();
}

// "<cache>/runtime-<hash>": what the precompiled header depends on, hashed: the Clang
// version, the language, the flags but macros, with include folders made absolute, and
// the size and time of the headers under peppher/ and of starpu.h in each include folder
// (an edited or shadowing runtime header gives another hash). The composition's own
// folder (-I<output folder>, generated files only) is left out, so that composing into
// another folder reuses it.
std::string SourceParser::cache_stem(const ParseRequest& request) const {
  namespace fs = std::filesystem;
  std::ostringstream what;
  what << CLANG_VERSION_STRING << "\n" << static_cast<int>(request.language);
  const fs::path base =
      request.directory.empty() ? fs::current_path() : fs::path(request.directory);
  std::vector<fs::path> include_dirs;
  const std::vector<std::string>& flags = request.flags;
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string& f = flags[i];
    if (f == "-D" || f == "-U") {
      ++i;
      continue;
    }
    if (f.rfind("-D", 0) == 0 || f.rfind("-U", 0) == 0) continue;
    std::string option, dir;
    for (const char* o : {"-isystem", "-iquote", "-I"}) {
      if (f == o && i + 1 < flags.size()) {
        option = o;
        dir = flags[++i];
      } else if (f.rfind(o, 0) == 0 && f.size() > std::strlen(o)) {
        option = o;
        dir = f.substr(std::strlen(o));
      }
      if (!option.empty()) break;
    }
    if (option.empty()) {
      what << "\n" << f;
      continue;
    }
    const fs::path abs = (base / dir).lexically_normal();
    if (option == "-I" && abs == base.lexically_normal()) continue;
    what << "\n" << option << " " << abs.string();
    include_dirs.push_back(abs);
  }
  for (const fs::path& dir : include_dirs) {
    std::error_code ec;
    std::vector<fs::path> headers;
    for (fs::recursive_directory_iterator it(dir / "peppher", ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->is_regular_file(ec)) headers.push_back(it->path());
    }
    if (fs::exists(dir / "starpu.h", ec)) headers.push_back(dir / "starpu.h");
    std::sort(headers.begin(), headers.end());
    for (const fs::path& h : headers) {
      const auto size = fs::file_size(h, ec);
      const auto time = fs::last_write_time(h, ec).time_since_epoch().count();
      what << "\n" << h.string() << " " << size << " " << time;
    }
  }
  std::ostringstream stem;
  stem << cache_dir_ << "/runtime-" << std::hex << std::hash<std::string>()(what.str());
  return stem.str();
}

// A precompiled header an earlier run left for these flags, if any (recorded in pch_).
std::string SourceParser::cached_runtime(const ParseRequest& request) {
  const std::string key = pch_key(request);
  for (const auto& [k, file] : pch_) {
    if (k == key) return file;
  }
  if (cache_dir_.empty()) return "";
  const std::string file = cache_stem(request) + ".pch";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return "";
  note_pch_used(file);  // pruning keeps the recently used ones
  pch_.emplace_back(key, file);
  return file;
}

SourceParser::~SourceParser() {
  std::error_code ec;
  if (!temp_dir_.empty()) std::filesystem::remove_all(temp_dir_, ec);
}

std::string SourceParser::precompiled_runtime(const ParseRequest& request) {
  const std::string key = pch_key(request);
  for (const auto& [k, file] : pch_) {
    if (k == key) return file;
  }
  std::string file;
  // Cached: built under a name of this process, then renamed into place (concurrent runs
  // never read a half-written one). Else in the temporary folder, for this run only.
  const std::string stem = !cache_dir_.empty() ? cache_stem(request)
                           : temp_dir_.empty()
                               ? ""
                               : temp_dir_ + "/runtime" + std::to_string(pch_.size());
  const std::string building =
      cache_dir_.empty() ? stem + ".pch" : stem + "." + std::to_string(getpid()) + ".tmp";
  if (!stem.empty()) {
    file = building;
    std::vector<std::string> cmd = base_command();
    std::vector<std::string> lang = language_flags(request.language);
    if (lang.size() > 1 && lang[1] == "c++") lang[1] = "c++-header";
    cmd.insert(cmd.end(), lang.begin(), lang.end());
    for (size_t i = 0; i < request.flags.size(); ++i) {
      const std::string& f = request.flags[i];
      if (f == "-D" || f == "-U") {
        ++i;
      } else if (f.rfind("-D", 0) != 0 && f.rfind("-U", 0) != 0) {
        cmd.push_back(f);
      }
    }
    // A real file: the precompiled header refers to it (and its time) when used, so it is
    // written once and left alone.
    const std::string header = stem + ".h";
    std::error_code ec;
    if (!std::filesystem::exists(header, ec)) {
      const std::string tmp = header + "." + std::to_string(getpid()) + ".tmp";
      std::ofstream(tmp) << "#include <peppher/runtime.h>\n";
      std::filesystem::rename(tmp, header, ec);
    }
    cmd.insert(cmd.end(), {header, "-o", file});
    ErrorRecorder errors;
    if (!run_tool(cmd, std::make_unique<PchAction>(), request.directory, {}, errors) ||
        errors.source_failed) {
      file.clear();
    } else if (building != stem + ".pch") {
      file = stem + ".pch";
      std::filesystem::rename(building, file, ec);
      if (ec) file.clear();
      prune_pch_cache(cache_dir_);
    }
    if (file.empty()) std::filesystem::remove(building, ec);
  }
  pch_.emplace_back(key, file);
  return file;
}

// OpenMP pragmas do not change a signature, and without -fopenmp CPU and OpenMP variants
// share one precompiled runtime header.
std::vector<std::string> clang_flags(const std::string& flags, const std::string& directory) {
  namespace fs = std::filesystem;
  const fs::path base = fs::absolute(directory.empty() ? "." : directory);
  const auto from_base = [&](const std::string& option, const std::string& path) {
    if (path.empty() || fs::path(path).is_absolute()) return path;
    const fs::path absolute = (base / path).lexically_normal();
    std::error_code ec;
    // -include also searches the include folders: only a file that is there is meant.
    if (option == "-include" && !fs::exists(absolute, ec)) return path;
    return absolute.string();
  };
  std::istringstream in(flags);
  std::vector<std::string> words, out;
  for (std::string w; in >> w;) words.push_back(w);
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool path = w == "-I" || w == "-include" || w == "-isystem" || w == "-iquote";
    if ((path || w == "-D" || w == "-U") && i + 1 < words.size()) {
      out.push_back(w);
      ++i;
      out.push_back(path ? from_base(w, words[i]) : words[i]);
    } else if (w.rfind("-I", 0) == 0) {
      out.push_back("-I" + from_base("-I", w.substr(2)));
    } else if (w.rfind("-D", 0) == 0 || w.rfind("-U", 0) == 0 || w.rfind("-std=", 0) == 0 ||
               w.rfind("-cl-std=", 0) == 0) {
      out.push_back(w);
    }
  }
  return out;
}

ParsedSource SourceParser::parse(const ParseRequest& request) {
  namespace fs = std::filesystem;
  const std::string source = fs::absolute(request.path).lexically_normal().string();
  const bool with_expected = request.expected_params.has_value();
  // C, C++, CUDA: a virtual main file includes the source, then the expected prototype.
  const std::string main =
      with_expected ? "/peppher-verify/main" + fs::path(source).extension().string() : source;
  std::vector<std::pair<std::string, std::string>> virtual_files = request.virtual_files;
  if (with_expected) {
    virtual_files.emplace_back(
        main, "#include \"" + source + "\"\n#include \"" + kExpectedHeader + "\"\n");
    // The standard size and integer types the interface may name (size_t, int64_t), which
    // a source need not include: without them the types would not be compared.
    const std::string standard = request.language == Language::C
                                     ? "#include <stddef.h>\n#include <stdint.h>\n"
                                     : "#include <cstddef>\n#include <cstdint>\n";
    virtual_files.emplace_back(
        kExpectedHeader, standard + request.expected_prelude + request.expected_template + "void " +
                             kExpected + "(" + *request.expected_params + ");\n");
  }
  const std::string directory =
      request.directory.empty() ? fs::current_path().string() : request.directory;
  const bool cxx = request.language == Language::Cxx;
  std::string pch = cxx ? cached_runtime(request) : "";
  std::vector<std::string> names = request.more_functions;
  names.push_back(request.function);

  std::string stale;  // a precompiled header the source parsed without
  for (int attempt = 0; attempt < 2; ++attempt) {
    ParsedSource result;
    std::vector<std::string> cmd = base_command();
    cmd.push_back("-fsyntax-only");
    for (const std::string& f : language_flags(request.language)) cmd.push_back(f);
    for (const std::string& f : request.flags) cmd.push_back(f);
    if (!pch.empty()) cmd.insert(cmd.end(), {"-include-pch", pch});
    cmd.push_back(main);
    ErrorRecorder errors;
    const bool ran = run_tool(cmd, std::make_unique<Action>(names, result, request.check_bodies),
                              directory, virtual_files, errors);
    // An error in the expected prototype alone fails the run but not the source.
    result.ok = !errors.source_failed && (ran || errors.expected_failed);
    if (!result.ok && !pch.empty()) {  // not the source's fault, maybe: once more without
      stale = pch;
      pch.clear();
      continue;
    }
    if (result.ok && !stale.empty()) {
      // It parses without the precompiled header: that one is stale or broken; rebuild it.
      const std::string key = pch_key(request);
      pch_.erase(std::remove_if(pch_.begin(), pch_.end(),
                                [&](const auto& entry) { return entry.first == key; }),
                 pch_.end());
      std::error_code ec;
      std::filesystem::remove(stale, ec);
    }
    if (!result.ok) {
      result.error = errors.first.empty() ? "Clang could not parse " + source : errors.first;
      result.errors = std::move(errors.all);
      result.refused = std::move(errors.refused);
    }
    result.expected_ok = with_expected && !errors.expected_failed && !result.expected.name.empty();
    // The next sources with these flags get the runtime's declarations precompiled.
    if (cxx && result.ok && result.includes_runtime && pch.empty()) precompiled_runtime(request);
    return result;
  }
  return {};
}

}  // namespace peppher::facts
