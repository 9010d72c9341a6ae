// The facts stage's parser: parses one source (C, C++, OpenCL C, CUDA) with Clang LibTooling
// and returns the functions of a given name as plain structs. verify/verify.cpp compares what
// it returns for each variant with the interface; main_linkage.cpp reads the program with it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::facts {

enum class Language { C, Cxx, OpenCl, Cuda };

// What to parse: `path` in `language` with `flags` (-I, -D, -std=, ...; relative paths are
// relative to `directory`), looking for functions named `function`. For C, C++ and CUDA,
// `expected_params` is the parameter list the backend wrapper declares the variant with
// ("const float * x, int n"; `expected_template` "template <typename T> " for a generic
// one), declared after the source in the same translation unit so that its types resolve
// exactly as the variant's do.
struct ParseRequest {
  std::string path;
  Language language = Language::Cxx;
  std::vector<std::string> flags;
  std::string directory;
  std::string function;
  std::vector<std::string> more_functions;  // looked for too (one parse for several names)
  // Files Clang sees with this text instead of what is on disk (absolute paths).
  std::vector<std::pair<std::string, std::string>> virtual_files;
  std::optional<std::string> expected_params;  // none: nothing to compare with (OpenCL)
  std::string expected_template;
  std::string expected_prelude;  // before the expected prototype: "#include <CL/cl.h>\n"
  bool check_bodies = false;     // parse function bodies too (else skipped: signatures only)
};

// One parameter of a parsed function.
struct ParsedParam {
  ir::SourceLoc loc;
  std::string name;
  std::string type;           // as written, e.g. "__global const float *"
  bool pointer = false;       // T* (any address space)
  bool reference = false;     // T& (C++)
  std::string address_space;  // OpenCL pointee: "__global", "__constant", "__local", ""
  bool pointee_const = false;
  // The value type (the pointee for pointers), canonical and unqualified: "float",
  // "unsigned int", "struct point"; its arithmetic kind ("int", "uint", "float", "bool",
  // "" for anything else) and size in bytes (0 when not arithmetic).
  std::string value_type;
  std::string kind;
  int bytes = 0;
  int value_bytes = 0;            // the value type's size (float4: 16, a struct), 0 when incomplete
  bool same_as_expected = false;  // C/C++/CUDA: same type as the expected prototype's
};

// A call of an OpenCL work-item function with a constant dimension above 0.
struct DimensionUse {
  int dimension = 0;  // 1 or 2
  ir::SourceLoc loc;  // the call
  std::string call;   // "get_global_id(1)"
};

struct ParsedFunction {
  ir::SourceLoc loc;
  std::string name;        // qualified: "blas::saxpy"
  std::string scope;       // the enclosing namespaces ("blas", "a::b"), "" at global scope
  bool internal = false;   // static, or in an anonymous namespace: no other file can call it
  bool is_inline = false;  // declared inline: no out-of-line definition for another file
  bool is_template = false;
  bool is_kernel = false;  // OpenCL __kernel
  bool defined = false;    // has a body here
  bool extern_c = false;   // C linkage (C, or declared in extern "C" in C++)
  // OpenCL kernel: where its body first asks for a work-item's place in dimension 1 and in
  // dimension 2 (`get_global_id(1)`, `get_group_id(2)`, ...), read from its tokens.
  std::vector<DimensionUse> dimension_uses;
  std::vector<ParsedParam> params;
};

struct ParsedSource {
  // False when Clang could not parse the source; `error` then holds its first error
  // ("file:line:col: message").
  bool ok = false;
  std::string error;
  // Every error in the source (its own lines and its headers'), in order.
  std::vector<std::pair<ir::SourceLoc, std::string>> errors;
  // The errors among them for an #include of something that is not a regular file (a FIFO,
  // a device: never opened, see regular_files.h), "'PATH' is not a regular file (a FIFO)"
  // at the #include: errors of the program whatever else is made of the parse.
  std::vector<std::pair<ir::SourceLoc, std::string>> refused;
  // False when the expected prototype itself did not compile in the source's translation
  // unit (an interface type the source does not declare): the parameters' types are then
  // not compared.
  bool expected_ok = false;
  ParsedFunction expected;  // the expected prototype as Clang read it
  // Every declaration of a wanted name, in order, at global scope or in a namespace.
  std::vector<ParsedFunction> functions;
  std::vector<std::string> kernel_names;  // OpenCL: every __kernel in the file
  bool includes_runtime = false;          // <peppher/runtime.h> was read
};

// Parses variant sources, one at a time. Sources that include <peppher/runtime.h> (the
// costly part of a parse) share a precompiled header of it per set of flags, built on the
// first such source and kept across runs in a cache folder ($PEPPHER_CACHE_DIR, else
// $XDG_CACHE_HOME/peppher, else ~/.cache/peppher; a temporary folder when none is
// writable), named by a hash of the flags, the Clang version and the size and time of
// every header under peppher/ and of starpu.h in the include folders: an edited runtime
// header gives a new one. One that fails to load is rebuilt. The folder keeps the most
// recently used ones only (pch_cache.h).
/// The flags of a compile command that change what Clang sees: -I, -D, -U, -std=,
/// -include, -isystem, -iquote (two-word forms kept together); the rest (-O2, -g, -fopenmp,
/// ...) is dropped. A relative folder of -I, -isystem or -iquote (and an -include file found
/// there) is made absolute from `directory`, where the compiler runs: Clang cannot work in
/// a folder that does not exist yet (the output folder, on the first compose into it) and
/// would take them from compose's working folder instead.
std::vector<std::string> clang_flags(const std::string& flags, const std::string& directory);

class SourceParser {
 public:
  SourceParser();
  ~SourceParser();
  SourceParser(const SourceParser&) = delete;
  SourceParser& operator=(const SourceParser&) = delete;

  // Never throws; a source Clang cannot read gives ok == false.
  ParsedSource parse(const ParseRequest& request);

 private:
  std::string precompiled_runtime(const ParseRequest& request);
  std::string cached_runtime(const ParseRequest& request);
  std::string cache_stem(const ParseRequest& request) const;

  std::string temp_dir_;
  std::string cache_dir_;  // "" when no cache folder is writable: temp_dir_ only
  std::vector<std::pair<std::string, std::string>> pch_;  // flags key -> PCH file ("": failed)
};

}  // namespace peppher::facts
