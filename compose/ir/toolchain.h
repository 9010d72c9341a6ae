// Which compiler builds each of the application's sources (main's, a variant's, the link
// step's), whether C code calls the components, and the folder generated files go to: pure
// functions of the checked IR and the options, read by facts/, verify/ and plan/ alike.
#pragma once

#include <string>

#include "compose/ir/ir.h"

namespace peppher::ir {

/// True for a C (not C++) compiler command: gcc, cc, clang, gcc-12, /usr/bin/cc, ...
bool is_c_compiler(const std::string& command);

/// True when `compiler` compiles `source` as C: a C compiler driver (gcc, cc, clang) on a
/// file that is not C++ by its extension (gcc compiles main.cpp as C++, with C++ linkage).
bool compiles_as_c(const std::string& compiler, const std::string& source);

/// The link step's compiler: the one main.xml names, else g++ (wrappers compile with it too).
std::string link_compiler(const Application& app);

/// The compiler of one of main's sources: the one it names, else gcc for language="C",
/// else the link step's, else g++.
std::string main_source_compiler(const Application& app, const SourceFile& s);

/// The compiler of a variant's (non-OpenCL) source `s`: its `<peppher:name>`, else `nvcc`
/// for a CUDA variant, `gcc` for a C source (`language="C"`, or a `.c` file without a
/// language), `g++` for the rest.
std::string variant_compiler(const Variant& v, const SourceFile& s);

/// Whether the application calls components from C: one of main's sources is compiled by a
/// C compiler (language="C" with no compiler, or a C compiler named), or --c-linkage.
bool has_c_callers(const Application& app, const Options& options);

/// Whether a variant's source is OpenCL (a kernel, or a .cl file): built at run time, never
/// by the Makefile.
bool is_opencl_source(const SourceFile& s);

/// The folder generated files go to: -o DIR, else main.xml's folder; absolute, normalised.
std::string output_dir(const Application& app, const Options& options);

}  // namespace peppher::ir
