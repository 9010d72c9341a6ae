// Compares each variant's parsed source with its interface (see verify.h). The rules, no
// Clang: source_parser.cpp reads the files, this file decides what is a mismatch and says
// so at the variant descriptor, naming the function, the parameter and both types.
#include "compose/verify/verify.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "common/files.h"
#include "compose/facts/source_parser.h"
#include "compose/ir/backends.h"
#include "compose/ir/toolchain.h"
#include "compose/plan/kernel_args.h"
#include "compose/plan/wrapper_plan.h"
#include "compose/verify/kernel_build.h"
#include "compose/verify/required_headers.h"
#include "compose/verify/skeleton_left.h"

namespace peppher::verify {

// What the facts stage's parser (facts/source_parser.h) returns, compared here.
using facts::DimensionUse;
using facts::Language;
using facts::ParsedFunction;
using facts::ParsedParam;
using facts::ParsedSource;
using facts::ParseRequest;
using facts::SourceParser;

namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

// "file:line:col" of a parsed declaration, with the file as the descriptor names it.
std::string where(const ir::SourceLoc& loc, const std::vector<ir::SourceFile>& sources) {
  std::string file = loc.file;
  bool named = false;
  for (const ir::SourceFile& s : sources) {
    if (absolute(s.path) == loc.file) {
      file = s.path;
      named = true;
    }
  }
  if (!named && fs::path(file).is_absolute()) {  // a header: from the current folder
    std::error_code ec;
    const fs::path relative = fs::path(file).lexically_relative(fs::current_path(ec));
    if (!ec && !relative.empty() && *relative.begin() != "..") file = relative.string();
  }
  return file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

bool is_header(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  for (const char* h : {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl"}) {
    if (ext == h) return true;
  }
  return false;
}

// A host arithmetic type's kind ("int", "uint", "float", "bool") and size, by its
// spelling; false for anything else (structs, typedefs we do not know).
bool host_arithmetic(std::string type, std::string& kind, int& bytes) {
  for (const char* drop : {"const ", "volatile ", "std::"}) {
    for (size_t at; (at = type.find(drop)) != std::string::npos;) type.erase(at, strlen(drop));
  }
  while (!type.empty() && type.back() == ' ') type.pop_back();
  static const std::map<std::string, std::pair<const char*, int>> kTable = {
      {"bool", {"bool", 1}},
      {"char", {"int", 1}},
      {"signed char", {"int", 1}},
      {"int8_t", {"int", 1}},
      {"cl_char", {"int", 1}},
      {"unsigned char", {"uint", 1}},
      {"uchar", {"uint", 1}},
      {"uint8_t", {"uint", 1}},
      {"cl_uchar", {"uint", 1}},
      {"short", {"int", 2}},
      {"short int", {"int", 2}},
      {"int16_t", {"int", 2}},
      {"cl_short", {"int", 2}},
      {"unsigned short", {"uint", 2}},
      {"ushort", {"uint", 2}},
      {"uint16_t", {"uint", 2}},
      {"cl_ushort", {"uint", 2}},
      {"int", {"int", 4}},
      {"signed", {"int", 4}},
      {"signed int", {"int", 4}},
      {"int32_t", {"int", 4}},
      {"cl_int", {"int", 4}},
      {"unsigned", {"uint", 4}},
      {"unsigned int", {"uint", 4}},
      {"uint", {"uint", 4}},
      {"uint32_t", {"uint", 4}},
      {"cl_uint", {"uint", 4}},
      {"long", {"int", 8}},
      {"long int", {"int", 8}},
      {"long long", {"int", 8}},
      {"long long int", {"int", 8}},
      {"int64_t", {"int", 8}},
      {"ptrdiff_t", {"int", 8}},
      {"ssize_t", {"int", 8}},
      {"intptr_t", {"int", 8}},
      {"cl_long", {"int", 8}},
      {"unsigned long", {"uint", 8}},
      {"unsigned long int", {"uint", 8}},
      {"unsigned long long", {"uint", 8}},
      {"ulong", {"uint", 8}},
      {"size_t", {"uint", 8}},
      {"uint64_t", {"uint", 8}},
      {"uintptr_t", {"uint", 8}},
      {"cl_ulong", {"uint", 8}},
      {"float", {"float", 4}},
      {"cl_float", {"float", 4}},
      {"double", {"float", 8}},
      {"cl_double", {"float", 8}},
  };
  auto it = kTable.find(type);
  if (it == kTable.end()) return false;
  kind = it->second.first;
  bytes = it->second.second;
  return true;
}

const char* backend_label(ir::Backend b) {
  return ir::info(b).label;
}

std::string plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class Verifier {
 public:
  Verifier(const ir::Application& app, const ir::Options& options, const VerifySettings& settings,
           diag::Diagnostics& diags)
      : app_(app), options_(options), settings_(settings), diags_(diags) {}

  VerifyResult run() {
    std::set<std::string> done;  // one tunable copy per base, one instantiation per generic
    for (const ir::Interface& iface : app_.interfaces) {
      for (const ir::Variant* v : ir::enabled_variants(options_, iface)) {
        std::string key = iface.name + "/" + (v->base_name.empty() ? v->name : v->base_name);
        // Every copy of a kernel with __local arguments: their element types may differ.
        const ir::SourceFile* kernel_file = ir::kernel_source(*v);
        if (kernel_file != nullptr && !kernel_file->local_args.empty()) {
          key += "/" + std::to_string(reinterpret_cast<std::uintptr_t>(v));
        }
        if (!done.insert(key).second) continue;
        if (skeleton_left(*v)) continue;
        const auto start = std::chrono::steady_clock::now();
        if (ir::host_side_source(*v) != nullptr) {
          verify_host_side(iface, *v);
        } else if (ir::info(v->backend).code == ir::VariantCode::Kernel) {
          verify_kernel(iface, *v);
        } else {
          verify_function(iface, *v, interface_expected(iface));
        }
        if (settings_.verbosity >= 2) {
          const std::chrono::duration<double, std::milli> ms =
              std::chrono::steady_clock::now() - start;
          diags_.note(v->loc, "verified " + v->name + " in " +
                                  std::to_string(static_cast<int>(ms.count())) + " ms");
        }
      }
    }
    const auto start = std::chrono::steady_clock::now();
    builder_.finish(settings_.verbosity, parser_, diags_);
    if (builder_.size() > 0 && settings_.verbosity >= 2) {
      const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
      diags_.note("built " + plural(builder_.size(), "OpenCL kernel file") + " (waited " +
                  std::to_string(static_cast<int>(ms.count())) + " ms for the last)");
    }
    if (cuda_skipped_ && settings_.verbosity >= 1) {
      diags_.note(
          "CUDA variants that Clang 14 cannot parse with only the toolkit's host-side headers "
          "are not verified: it parses CUDA fully with the headers of a CUDA toolkit up to "
          "11.5, and " +
          settings_.cuda_path + "/include/cuda.h " +
          (cuda_version_ > 0 ? "is CUDA " + std::to_string(cuda_version_ / 1000) + "." +
                                   std::to_string(cuda_version_ % 1000 / 10)
                             : std::string("does not exist")));
    }
    return std::move(result_);
  }

 private:
  // An error at each source of @p v that is still a generated skeleton; whether one was.
  bool skeleton_left(const ir::Variant& v) {
    bool left = false;
    for (const ir::SourceFile& f : v.sources) {
      std::string text;
      if (f.path.empty() || !files::read_file(f.path, files::kMaxDescriptorBytes, text).empty())
        continue;
      const int line = untouched_skeleton_line(text);
      if (line == 0) continue;
      left = true;
      diags_.error(ir::SourceLoc{f.path, line, 3},
                   "variant '" + v.name +
                       "' is still the skeleton compose -generateCompFiles "
                       "wrote: it computes nothing (its outputs would keep their old values); "
                       "write its code between the PEPPHER markers, or leave it out with "
                       "-disableImpls=" +
                       v.name);
    }
    return left;
  }

  std::vector<std::string> common_flags() const {
    std::vector<std::string> flags = {"-I" + output_dir()};
    for (const std::string& dir : settings_.system_include_dirs) {
      flags.push_back("-isystem");
      flags.push_back(dir);
    }
    return flags;
  }

  // The folder generated files (and the Makefile's compile commands) run in.
  std::string output_dir() const { return ir::output_dir(app_, options_); }

  // Whether Clang 14 can parse CUDA sources with the toolkit at settings_.cuda_path: its
  // cuda.h says CUDA_VERSION <= 11050 (Clang 14's newest).
  bool cuda_parsable() {
    if (cuda_version_ < 0) {
      cuda_version_ = 0;
      std::ifstream in(settings_.cuda_path + "/include/cuda.h");
      for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string hash, name;
        if (words >> hash >> name && hash == "#define" && name == "CUDA_VERSION") {
          words >> cuda_version_;
          break;
        }
      }
    }
    return cuda_version_ > 0 && cuda_version_ <= 11050 &&
           fs::exists(settings_.cuda_path + "/include/cuda_runtime.h");
  }

  // The parameter list the backend wrapper declares a CPU/OpenMP/CUDA variant with.
  static std::string expected_params(const ir::Interface& iface) {
    std::string out;
    for (const ir::Parameter& p : iface.parameters) {
      out += (out.empty() ? "" : ", ") + (p.generic_type.empty() ? p.type : p.generic_type) + " " +
             p.name;
    }
    return out;
  }

  // What the backend wrapper declares a variant's function with: the parameter list, each
  // parameter's name, and whether the wrapper passes the buffers of a host-side OpenCL
  // variant (else the interface's parameters).
  struct Expected {
    std::string params;
    std::vector<std::string> names;
    bool host_side = false;
  };

  static Expected interface_expected(const ir::Interface& iface) {
    Expected e{expected_params(iface), {}, false};
    for (const ir::Parameter& p : iface.parameters) e.names.push_back(p.name);
    return e;
  }

  // A host-side OpenCL variant's function: what a kernel would get, a buffer as its cl_mem.
  static Expected host_side_expected(const ir::Interface& iface, const ir::Variant& v) {
    Expected e;
    e.host_side = true;
    for (const plan::KernelArg& a : plan::kernel_args(iface, *ir::host_side_source(v))) {
      e.params += (e.params.empty() ? "" : ", ") + plan::host_arg_type(a) + " " + a.local;
      e.names.push_back(a.local);
    }
    return e;
  }

  // The original tool's host-side OpenCL variant: its host function like a CPU variant's,
  // with buffers as cl_mem; the kernel its cl_kernel variable gets must be in the program.
  void verify_host_side(const ir::Interface& iface, const ir::Variant& v) {
    verify_function(iface, v, host_side_expected(iface, v));
    const ir::SourceFile* file = ir::kernel_source(v);
    if (file == nullptr) return;
    ParseRequest r = kernel_request(iface, v, *file);
    ParsedSource parsed = parser_.parse(r);
    if (refused_files(parsed)) return;
    queue_build(v, *file, r);
    if (!parsed.ok) {
      diags_.warning(file->loc, "OpenCL variant '" + v.name +
                                    "' not verified: Clang cannot parse '" + file->path +
                                    "': " + parsed.error);
      return;
    }
    const bool found = std::any_of(parsed.functions.begin(), parsed.functions.end(),
                                   [](const ParsedFunction& f) { return f.is_kernel; });
    if (found) return;
    diags_.error(file->loc,
                 "host-side OpenCL variant '" + v.name + "': no kernel '" + file->kernel +
                     "' in '" + file->path + "' (its cl_kernel variable holds that kernel)" +
                     diag::did_you_mean(diag::closest_match_in(file->kernel, parsed.kernel_names)));
  }

  void verify_function(const ir::Interface& iface, const ir::Variant& v, const Expected& expected) {
    const bool cuda = ir::info(v.backend).code == ir::VariantCode::CudaFunction;
    // A toolkit newer than Clang 14 knows: its host-side headers still parse without Clang's
    // own CUDA wrapper headers (-nocudainc), given the execution-space keywords as nvcc's
    // headers define them and cuda_runtime.h included first as nvcc does; bodies (threadIdx,
    // <<<...>>>) are skipped anyway. A source that does not parse so stays unverified.
    const bool host_headers = cuda && !cuda_parsable();
    if (host_headers && !fs::exists(settings_.cuda_path + "/include/cuda_runtime.h")) {
      cuda_skipped_ = true;
      return;
    }
    const bool generic = !iface.template_args.empty();
    std::vector<ParsedFunction> found;
    ParsedSource last;
    bool c_source = false;
    for (const ir::SourceFile& s : v.sources) {
      if (ir::is_opencl_source(s)) continue;
      if (is_header(s.path)) {
        diags_.error(
            s.loc, std::string(backend_label(v.backend)) + " variant '" + v.name + "': '" + s.path +
                       "' is a header, but the generated Makefile compiles each source "
                       "file of a variant into an object file: list the .c/.cpp/.cu "
                       "file defining '" +
                       v.name + "' (a variant defined in a header alone is not supported)");
        return;
      }
      ParseRequest r;
      r.path = s.path;
      r.language = cuda                                                    ? Language::Cuda
                   : ir::compiles_as_c(ir::variant_compiler(v, s), s.path) ? Language::C
                                                                           : Language::Cxx;
      c_source = c_source || r.language == Language::C;
      r.flags = facts::clang_flags(s.compiler.flags, output_dir());
      if (cuda) r.flags.push_back("--cuda-path=" + settings_.cuda_path);
      if (host_headers) {
        for (const char* keyword : {"global", "device", "host", "shared", "constant"}) {
          r.flags.push_back(std::string("-D__") + keyword + "__=__attribute__((" + keyword + "))");
        }
        for (const std::string& f : {std::string("-nocudainc"), std::string("-nocudalib"),
                                     std::string("-isystem"), settings_.cuda_path + "/include",
                                     std::string("-include"), std::string("cuda_runtime.h")}) {
          r.flags.push_back(f);
        }
      }
      if (!v.base_name.empty()) {  // a tunable copy: its values, its function renamed
        for (const ir::Tunable& t : v.tunables) {
          if (t.values.size() == 1) r.flags.push_back("-D" + t.name + "=" + t.values.front());
        }
        r.flags.push_back("-D" + v.base_name + "=" + v.name);
      }
      for (const std::string& f : common_flags()) r.flags.push_back(f);
      r.directory = output_dir();
      r.virtual_files = required_headers(app_, options_, v);  // not generated yet
      r.function = v.name;
      r.expected_params = expected.params;
      if (ir::info(v.backend).code == ir::VariantCode::Kernel) {  // cl_mem, as <CL/cl.h> has it
        r.expected_prelude =
            "#ifndef CL_TARGET_OPENCL_VERSION\n#define CL_TARGET_OPENCL_VERSION 120\n#endif\n"
            "#include <CL/cl.h>\n";
      }
      if (generic) {
        std::string params;
        for (const std::string& t : iface.template_types) {
          params += (params.empty() ? "typename " : ", typename ") + t;
        }
        r.expected_template = "template <" + params + "> ";
      }
      ParsedSource parsed = parser_.parse(r);
      if (refused_files(parsed)) return;
      if (!parsed.ok && host_headers) {
        cuda_skipped_ = true;
        return;
      }
      if (!parsed.ok) {
        diags_.warning(v.loc, std::string(backend_label(v.backend)) + " variant '" + v.name +
                                  "' not verified: Clang cannot parse '" + s.path +
                                  "': " + parsed.error);
        return;
      }
      for (ParsedFunction& f : parsed.functions) found.push_back(std::move(f));
      last = std::move(parsed);
    }
    const std::string what = std::string(backend_label(v.backend)) + " variant '" + v.name + "'";
    // The wrapper declares the function at global scope; one in a namespace is called there
    // when there is none at global scope.
    std::vector<ParsedFunction> global;
    for (const ParsedFunction& f : found) {
      if (f.scope.empty()) global.push_back(f);
    }
    if (!global.empty()) found = std::move(global);
    if (found.empty()) {
      std::string files;
      for (const ir::SourceFile& s : v.sources) {
        if (!ir::is_opencl_source(s)) files += (files.empty() ? "'" : ", '") + s.path + "'";
      }
      diags_.error(v.loc, what + ": no function '" + v.name + "' in " + files +
                              " (the backend wrapper calls " + v.name + "(" + expected.params +
                              "))");
      return;
    }
    // The definition counts (else the first declaration); one that matches settles it.
    const ParsedFunction* chosen = nullptr;
    for (const ParsedFunction& f : found) {
      if (matches(f, last, iface, expected)) return accept(iface, v, f, found, c_source);
      if (chosen == nullptr || (f.defined && !chosen->defined)) chosen = &f;
    }
    report_function(iface, v, *chosen, last, expected);
  }

  // `f` has the interface's parameters: can the wrapper, compiled apart, call it, and how
  // must it declare it (C linkage, namespace)?
  void accept(const ir::Interface& iface, const ir::Variant& v, const ParsedFunction& f,
              const std::vector<ParsedFunction>& found, bool c_source) {
    const std::string what = std::string(backend_label(v.backend)) + " variant '" + v.name + "' (" +
                             where(f.loc, v.sources) + ")";
    for (const ParsedFunction& other : found) {
      if (other.scope == f.scope) continue;
      diags_.error(v.loc, std::string(backend_label(v.backend)) + " variant '" + v.name + "': '" +
                              f.name + "' (" + where(f.loc, v.sources) + ") and '" + other.name +
                              "' (" + where(other.loc, v.sources) +
                              ") are in different namespaces, and none is at global scope: "
                              "declare the one the backend wrapper should call at global scope");
      return;
    }
    const bool inline_only = f.is_inline && !c_source;
    if (f.internal || inline_only) {
      const bool anonymous = f.scope.find("(anonymous") != std::string::npos;
      const std::string how =
          std::string(f.internal ? (anonymous ? "in an anonymous namespace" : "static") : "") +
          (f.internal && inline_only ? " " : "") + (inline_only ? "inline" : "");
      diags_.error(v.loc, what + " is " + how +
                              ": it has no definition the separately compiled backend wrapper "
                              "can call; define it in a .c/.cpp/.cu source of the variant, "
                              "without static or inline (a variant defined in a header alone is "
                              "not supported)");
      return;
    }
    if (!f.scope.empty() && !iface.template_args.empty()) {
      diags_.error(v.loc, what + " is '" + f.name + "', in a namespace: a generic variant is " +
                              "called at global scope; declare the function template there");
      return;
    }
    if (f.extern_c || !f.scope.empty()) {
      result_.functions[v.base_name.empty() ? v.name : v.base_name] = {f.extern_c, f.scope};
    }
  }

  static bool matches(const ParsedFunction& f, const ParsedSource& parsed,
                      const ir::Interface& iface, const Expected& expected) {
    if (f.params.size() != expected.names.size()) return false;
    if (f.is_template != !iface.template_args.empty()) return false;
    if (!parsed.expected_ok) return true;  // only the count can be compared
    for (const ParsedParam& p : f.params) {
      if (!p.same_as_expected) return false;
    }
    return true;
  }

  void report_function(const ir::Interface& iface, const ir::Variant& v, const ParsedFunction& f,
                       const ParsedSource& parsed, const Expected& expected) {
    const std::string what = std::string(backend_label(v.backend)) + " variant '" + v.name + "' (" +
                             where(f.loc, v.sources) + ")";
    const bool generic = !iface.template_args.empty();
    if (f.is_template != generic) {
      diags_.error(v.loc, what + (generic ? " is not a function template, but interface '" +
                                                iface.name + "' is generic"
                                          : " is a function template, but interface '" +
                                                iface.name + "' is not generic"));
      return;
    }
    if (f.params.size() != expected.names.size()) {
      diags_.error(v.loc, what + " takes " + plural(f.params.size(), "parameter") + ", but " +
                              (expected.host_side ? "its backend wrapper passes "
                                                  : "interface '" + iface.name + "' has ") +
                              std::to_string(expected.names.size()) +
                              ": the backend wrapper calls " + v.name + "(" + expected.params +
                              ")");
      return;
    }
    for (size_t i = 0; i < f.params.size(); ++i) {
      if (f.params[i].same_as_expected || !parsed.expected_ok) continue;
      const std::string expected_type =
          i < parsed.expected.params.size() ? parsed.expected.params[i].type : "";
      diags_.error(v.loc, what + ": parameter " + std::to_string(i + 1) + " '" + f.params[i].name +
                              "' has type '" + f.params[i].type + "', but " +
                              (expected.host_side ? "the backend wrapper passes '"
                                                  : "interface '" + iface.name + "' declares '") +
                              expected.names[i] + "' as '" + expected_type + "'" +
                              (expected.host_side ? " (a host-side OpenCL variant gets each "
                                                    "operand's buffer as a cl_mem, then its "
                                                    "int extents, by-value parameters as "
                                                    "declared)"
                                                  : ""));
    }
  }

  // How Clang reads the kernel file `file` of `v`: OpenCL C with the program's build options.
  ParseRequest kernel_request(const ir::Interface& iface, const ir::Variant& v,
                              const ir::SourceFile& file) const {
    ParseRequest r;
    r.path = file.path;
    r.language = Language::OpenCl;
    // Relative -I folders are relative to the output folder (explore rebases the flags for
    // the generated files; the wrapper builds them from PEPPHER_OUTPUT_DIR).
    std::istringstream options(plan::opencl_build_options(iface, v));
    const auto from_output = [this](const std::string& folder) {
      return (fs::path(output_dir()) / folder).lexically_normal().string();
    };
    bool folder_next = false;
    for (std::string w; options >> w;) {
      if (folder_next && !fs::path(w).is_absolute()) w = from_output(w);
      if (w.rfind("-I", 0) == 0 && w.size() > 2 && !fs::path(w.substr(2)).is_absolute()) {
        w = "-I" + from_output(w.substr(2));
      }
      folder_next = w == "-I";
      r.flags.push_back(w);
    }
    r.directory = fs::path(absolute(file.path)).parent_path().string();
    r.function = file.kernel;
    return r;
  }

  // Queues `file` of `v` for the build check with the options the runtime builds it with:
  // "-I <its folder>" (StarPU's; none for a folder with a blank), then the program's own
  // (`r`'s flags); once per file and options (tunable copies with one set of values share a
  // build).
  void queue_build(const ir::Variant& v, const ir::SourceFile& file, const ParseRequest& r) {
    // A folder with a blank is left out, as the runtime leaves it out (build options are
    // split at blanks); the kernel's copy next to the program is found by its own folder.
    std::string options =
        r.directory.find_first_of(" \t") == std::string::npos ? "-I " + r.directory : "";
    for (const std::string& f : r.flags) options += (options.empty() ? "" : " ") + f;
    builder_.add({file.path, options, v.name, file.loc, r});
  }

  void verify_kernel(const ir::Interface& iface, const ir::Variant& v) {
    const ir::SourceFile* file = nullptr;
    for (const ir::SourceFile& s : v.sources) {
      if (!s.kernel.empty()) file = &s;
    }
    if (file == nullptr) return;  // the checker reports an OpenCL variant without kernel=
    ParseRequest r = kernel_request(iface, v, *file);
    ParsedSource parsed = parser_.parse(r);
    // The platform's compiler would block on it too: such a kernel is not built.
    if (refused_files(parsed)) return;
    queue_build(v, *file, r);
    if (!parsed.ok && !file->local_args.empty()) {
      diags_.error(file->local_args.front().loc,
                   "OpenCL variant '" + v.name + "': localArg '" + file->local_args.front().name +
                       "' goes where kernel '" + file->kernel +
                       "' takes it, but Clang cannot parse '" + file->path + "': " + parsed.error);
      return;
    }
    if (!parsed.ok) {
      diags_.warning(file->loc, "OpenCL variant '" + v.name +
                                    "' not verified: Clang cannot parse '" + file->path +
                                    "': " + parsed.error);
      return;
    }
    const ParsedFunction* kernel = nullptr;
    for (const ParsedFunction& f : parsed.functions) {
      if (kernel == nullptr || (f.is_kernel && !kernel->is_kernel) ||
          (f.is_kernel == kernel->is_kernel && f.defined && !kernel->defined)) {
        kernel = &f;
      }
    }
    const std::string what = "OpenCL variant '" + v.name + "'";
    if (kernel == nullptr) {
      diags_.error(file->loc, what + ": no kernel '" + file->kernel + "' in '" + file->path + "'" +
                                  diag::did_you_mean(
                                      diag::closest_match_in(file->kernel, parsed.kernel_names)));
      return;
    }
    const std::string kernel_what =
        "OpenCL kernel '" + file->kernel + "' (" + where(kernel->loc, v.sources) + ")";
    if (!kernel->is_kernel) {
      diags_.error(file->loc,
                   kernel_what + " of variant '" + v.name + "' is not declared __kernel");
      return;
    }
    if (!check_dimensions(*file, *kernel, kernel_what, v)) return;
    // The __local parameters the descriptor sizes; the others take the wrapper's arguments.
    std::vector<LocalPlacement> locals;
    std::vector<ParsedParam> host;
    std::vector<size_t> host_index;  // each one's index among the kernel's parameters
    if (!split_local_params(*file, *kernel, kernel_what, locals, host, host_index)) return;
    const std::vector<plan::KernelArg> args = plan::kernel_args(iface, *file);
    if (report_unsized_locals(*file, host, host_index, args.size(), kernel_what)) return;
    if (host.size() != args.size()) {
      report_kernel_count(iface, *file, host.size(), args, kernel_what);
      return;
    }
    bool matched = true;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string problem = kernel_arg_problem(args[i], host[i]);
      if (problem.empty()) continue;
      matched = false;
      diags_.error(file->loc, kernel_what + ": parameter " + std::to_string(host_index[i] + 1) +
                                  " '" + host[i].name + "' has type '" + host[i].type +
                                  "', but the wrapper passes " + describe(args[i]) + " as '" +
                                  plan::kernel_arg_type(args[i]) + "'" + problem);
    }
    if (matched && !locals.empty()) result_.local_args[&v] = std::move(locals);
  }

  // The launch's dimensions: globalSize's (or localSize's) count, 1 by default.
  static size_t launch_dimensions(const ir::SourceFile& file) {
    if (!file.global_size.empty()) return file.global_size.size();
    return file.local_size.empty() ? 1 : file.local_size.size();
  }

  // A kernel asking for its place in a dimension the launch does not have (get_global_id(1)
  // in a 1-D range is always 0): an error at the call.
  bool check_dimensions(const ir::SourceFile& file, const ParsedFunction& kernel,
                        const std::string& kernel_what, const ir::Variant& v) {
    const size_t dims = launch_dimensions(file);
    for (const DimensionUse& use : kernel.dimension_uses) {
      if (static_cast<size_t>(use.dimension) < dims) continue;
      std::string launch = file.global_size.empty() ? "" : "globalSize=\"";
      for (size_t k = 0; k < file.global_size.size(); ++k) {
        launch += (k ? "," : "") + file.global_size[k].text;
      }
      launch = launch.empty() ? "the default launch (no globalSize)" : launch + "\"";
      diags_.error(file.loc,
                   kernel_what + " calls " + use.call + " (" + where(use.loc, v.sources) +
                       "), but " + launch + " is a " + std::to_string(dims) +
                       "-D range: give globalSize (and localSize) one expression per "
                       "dimension the kernel uses, dimension 0 first (globalSize=\"nj,ni\" "
                       "for get_global_id(0) < nj and get_global_id(1) < ni)");
      return false;
    }
    return true;
  }

  // Splits the kernel's parameters into the __local ones the descriptor's localArgs size
  // (`locals`, with their index) and the rest (`host`, which the wrapper's arguments fill in
  // order). Reports a __local parameter without a localArg and a localArg naming no
  // __local parameter; false then.
  bool split_local_params(const ir::SourceFile& file, const ParsedFunction& kernel,
                          const std::string& kernel_what, std::vector<LocalPlacement>& locals,
                          std::vector<ParsedParam>& host, std::vector<size_t>& host_index) {
    const auto named = [&](const std::string& name) {
      return std::find_if(file.local_args.begin(), file.local_args.end(),
                          [&](const ir::LocalArg& a) { return a.name == name; });
    };
    std::vector<std::string> unsized;  // __local parameters no localArg names
    for (const ParsedParam& p : kernel.params) {
      if (p.pointer && p.address_space == "__local" && named(p.name) == file.local_args.end()) {
        unsized.push_back(p.name);
      }
    }
    bool ok = true;
    bool misnamed = false;  // a localArg naming no parameter: reported with the unsized ones
    for (const ir::LocalArg& a : file.local_args) {
      const bool found = std::any_of(kernel.params.begin(), kernel.params.end(),
                                     [&](const ParsedParam& p) { return p.name == a.name; });
      if (found) continue;
      std::string listed;
      for (const std::string& n : unsized) listed += (listed.empty() ? "'" : ", '") + n + "'";
      diags_.error(
          a.loc, "localArg '" + a.name + "': " + kernel_what + " has no parameter '" + a.name +
                     "'" +
                     (unsized.empty() ? std::string()
                                      : "; its __local parameters without a localArg: " + listed));
      ok = false;
      misnamed = true;
    }
    for (size_t i = 0; i < kernel.params.size(); ++i) {
      const ParsedParam& p = kernel.params[i];
      const bool local = p.pointer && p.address_space == "__local";
      const auto arg = named(p.name);
      if (arg != file.local_args.end() && !local) {
        diags_.error(arg->loc, "localArg '" + arg->name + "' names parameter " +
                                   std::to_string(i + 1) + " of " + kernel_what + ", '" + p.type +
                                   " " + p.name +
                                   "', which is not a __local pointer: only __local memory is "
                                   "sized by the descriptor");
        ok = false;
      } else if (arg != file.local_args.end()) {
        if (p.value_bytes <= 0) {
          diags_.error(arg->loc, "localArg '" + arg->name + "': the element type of " +
                                     kernel_what + "'s parameter '" + p.type + " " + p.name +
                                     "' has no size (void or incomplete); declare it with the "
                                     "type of its elements");
          ok = false;
        }
        locals.push_back({&*arg, i, p.value_bytes});
      } else if (local && misnamed) {
        ok = false;  // reported with the localArg naming no parameter
      } else {
        host.push_back(p);  // an unsized __local one too: see report_unsized_locals
        host_index.push_back(i);
      }
    }
    return ok;
  }

  // The kernel's `host` parameters are one more than the wrapper's `args` for each __local
  // one no localArg sizes: those need one (reported, true). Otherwise (a __local pointer
  // where the wrapper passes a buffer) they are compared like the others (false).
  bool report_unsized_locals(const ir::SourceFile& file, const std::vector<ParsedParam>& host,
                             const std::vector<size_t>& host_index, size_t args,
                             const std::string& kernel_what) {
    size_t unsized = 0;
    for (const ParsedParam& p : host) unsized += p.pointer && p.address_space == "__local";
    if (unsized == 0 || host.size() - unsized != args) return false;
    for (size_t i = 0; i < host.size(); ++i) {
      const ParsedParam& p = host[i];
      if (!p.pointer || p.address_space != "__local") continue;
      diags_.error(file.loc, kernel_what + ": parameter " + std::to_string(host_index[i] + 1) +
                                 " '" + p.type + " " + p.name +
                                 "' is __local memory, which the wrapper allocates when the "
                                 "descriptor sizes it: add <peppher:localArg name=\"" +
                                 p.name +
                                 "\" size=\"...\"/> (its elements per work-group, an "
                                 "expression over the call's parameters) to the sourceFile");
    }
    return true;
  }

  static std::string describe(const plan::KernelArg& a) {
    const bool halo = a.extent == plan::Extent::HaloBefore || a.extent == plan::Extent::HaloAfter;
    if (halo) {
      return std::string(a.role == plan::KernelArgRole::Extent ? "the size of the " : "the ") +
             plan::extent_word(a.extent) + " of '" + a.param->name + "'";
    }
    if (a.role == plan::KernelArgRole::Extent) {
      return std::string("the ") + plan::extent_word(a.extent) + " of '" + a.param->name + "'";
    }
    return "'" + a.param->name + "'";
  }

  // Whether host values of `kind` and `bytes` reach a kernel's `p` unchanged: the same kind
  // and size, or signed and unsigned integers of one size (an `int n` read as `uint n`:
  // the same bits, the same value for every non-negative one).
  static bool same_bits(const std::string& kind, int bytes, const ParsedParam& p) {
    if (bytes != p.bytes) return false;
    if (kind == p.kind) return true;
    // OpenCL C allows no bool kernel argument (nor bool buffers): a host bool arrives as
    // a char or uchar.
    if (kind == "bool") return p.kind == "int" || p.kind == "uint";
    return (kind == "int" || kind == "uint") && (p.kind == "int" || p.kind == "uint");
  }

  // Why `p` cannot receive `a` ("" when it can): appended to the mismatch message.
  static std::string kernel_arg_problem(const plan::KernelArg& a, const ParsedParam& p) {
    std::string kind;
    int bytes = 0;
    switch (a.role) {
      case plan::KernelArgRole::Local:  // placed by split_local_params, never compared
        return "";
      case plan::KernelArgRole::Extent:
        return p.pointer || !same_bits("int", 4, p) ? " (an int extent)" : "";
      case plan::KernelArgRole::Value:
        if (p.pointer) return " (a value, not a buffer)";
        if (!host_arithmetic(a.param->elem_type, kind, bytes) || p.kind.empty()) return "";
        return !same_bits(kind, bytes, p)
                   ? "" + std::string(" (") + std::to_string(bytes) + "-byte " + kind + " vs " +
                         std::to_string(p.bytes) + "-byte " + p.kind + ")"
                   : "";
      case plan::KernelArgRole::Buffer:
        if (!p.pointer) return " (a buffer: declare a __global pointer)";
        if (p.address_space != "__global" && p.address_space != "__constant") {
          return " (a buffer in global memory: declare it __global)";
        }
        if (!host_arithmetic(a.param->elem_type, kind, bytes) || p.kind.empty()) return "";
        return !same_bits(kind, bytes, p)
                   ? " (elements of " + std::to_string(bytes) + "-byte " + kind + " vs " +
                         std::to_string(p.bytes) + "-byte " + p.kind + ")"
                   : "";
    }
    return "";
  }

  // `host`: the kernel's parameters other than the __local ones its localArgs size.
  void report_kernel_count(const ir::Interface& iface, const ir::SourceFile& file, size_t host,
                           const std::vector<plan::KernelArg>& args,
                           const std::string& kernel_what) {
    std::string detail;
    for (const plan::KernelArg& a : args) {
      detail += (detail.empty() ? ": " : ", ") + plan::kernel_arg_type(a) + " " + a.local;
    }
    size_t extents = 0;
    for (const plan::KernelArg& a : args)  // a halo's sizes come with any extentArguments
      extents += a.role == plan::KernelArgRole::Extent && a.extent != plan::Extent::HaloBefore &&
                 a.extent != plan::Extent::HaloAfter;
    if (extents > 0 && host == iface.parameters.size()) {
      detail +=
          "; for a kernel with the interface's own parameter list, add "
          "extentArguments=\"false\" to its sourceFile (containers then pass no extents)";
    }
    diags_.error(file.loc, kernel_what + " takes " + plural(host, "parameter") +
                               (file.local_args.empty() ? "" : " besides its __local ones") +
                               ", but the wrapper of interface '" + iface.name + "' passes " +
                               plural(args.size(), "argument") + detail);
  }

  // Reports the files `parsed` includes that are no regular files (a FIFO: the compilers
  // would block on it), once each; whether there were any.
  bool refused_files(const ParsedSource& parsed) {
    for (const auto& [loc, message] : parsed.refused) {
      if (refused_.insert({loc.file, loc.line, loc.col, message}).second)
        diags_.error(loc, message);
    }
    return !parsed.refused.empty();
  }

  const ir::Application& app_;
  const ir::Options& options_;
  const VerifySettings& settings_;
  diag::Diagnostics& diags_;
  VerifyResult result_;
  bool cuda_skipped_ = false;
  int cuda_version_ = -1;  // CUDA_VERSION of the toolkit's cuda.h, 0 none; -1 not read yet
  SourceParser parser_;
  std::set<std::tuple<std::string, int, int, std::string>> refused_;  // reported already
  KernelBuilder builder_{settings_.opencl_checker, settings_.opencl_check_timeout_s};
};

}  // namespace

VerifyResult verify_variants(const ir::Application& app, const ir::Options& options,
                             const VerifySettings& settings, diag::Diagnostics& diags) {
  return Verifier(app, options, settings, diags).run();
}

}  // namespace peppher::verify
