// The compilers of the application's sources and the output folder (see toolchain.h).
#include "compose/ir/toolchain.h"

#include <filesystem>

#include "compose/ir/backends.h"

namespace peppher::ir {
namespace {

bool is_c_language(const std::string& language) {
  return language == "C" || language == "c";
}

}  // namespace

bool is_c_compiler(const std::string& command) {
  std::string base = std::filesystem::path(command).filename().string();
  for (const char* c : {"gcc", "cc", "clang", "icc", "icx"}) {
    std::string name(c);
    if (base == name || base.rfind(name + "-", 0) == 0) return true;
  }
  return false;
}

bool compiles_as_c(const std::string& compiler, const std::string& source) {
  const std::string ext = std::filesystem::path(source).extension().string();
  for (const char* cxx : {".cpp", ".cc", ".cxx", ".c++", ".cp", ".CPP", ".C", ".ii"}) {
    if (ext == cxx) return false;
  }
  return is_c_compiler(compiler);
}

std::string link_compiler(const Application& app) {
  return app.link.name.empty() ? "g++" : app.link.name;
}

std::string main_source_compiler(const Application& app, const SourceFile& s) {
  if (!s.compiler.name.empty()) return s.compiler.name;
  if (is_c_language(s.language)) return "gcc";
  return link_compiler(app);
}

std::string variant_compiler(const Variant& v, const SourceFile& s) {
  if (!s.compiler.name.empty()) return s.compiler.name;
  if (const char* compiler = info(v.backend).default_compiler) return compiler;
  if (is_c_language(s.language)) return "gcc";
  if (s.language.empty() && std::filesystem::path(s.path).extension() == ".c") return "gcc";
  return "g++";
}

bool has_c_callers(const Application& app, const Options& options) {
  if (options.c_linkage) return true;
  for (const SourceFile& s : app.sources) {
    if (is_c_compiler(main_source_compiler(app, s))) return true;
  }
  return false;
}

bool is_opencl_source(const SourceFile& s) {
  return !s.kernel.empty() || std::filesystem::path(s.path).extension() == ".cl";
}

std::string output_dir(const Application& app, const Options& options) {
  namespace fs = std::filesystem;
  fs::path dir = options.output_dir.empty() ? fs::path(app.descriptor_file).parent_path()
                                            : fs::path(options.output_dir);
  if (dir.empty()) dir = ".";  // "compose main.xml": the current folder
  return fs::absolute(dir).lexically_normal().string();
}

}  // namespace peppher::ir
