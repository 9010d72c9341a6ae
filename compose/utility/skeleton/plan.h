// Decisions for each component skeleton, taken before anything is printed: which functions
// become components, their interface names, every parameter's accessMode / numElements
// guess and its spelling per backend. The templates (skeleton.cpp) only print this.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/markup.h"
#include "compose/diag/diagnostics.h"
#include "compose/utility/scan/scanned.h"

namespace peppher::skeleton {

struct ParamPlan {
  std::string name;      // final name (unnamed parameters are named)
  std::string type_xml;  // type as written, XML-escaped
  std::string access;    // "read" | "write" | "readwrite"
  bool has_num_elements = false;
  std::string num_elements;       // XML-escaped; kNumElementsPlaceholder when unknown
  std::string note;               // XML comment text: the reasons of the guesses
  std::string cpp_decl;           // "const float *x": CPU, OpenMP and CUDA host signatures
  std::string cl_name;            // the name in the OpenCL kernel (OpenCL C keywords renamed)
  std::string cl_decl;            // "__global const float *x": OpenCL kernel argument
  bool cl_value_unnamed = false;  // a value (or const T&) whose type OpenCL C cannot declare
  std::string cuda_kernel_decl;   // CUDA kernel argument (const T& a value, T& a pointer,
                                  // a container its element pointer)
  std::string cuda_arg;           // what the CUDA host function passes the kernel
  std::string user_note;          // "x: read, n elements" (C++ comment in the skeleton body)
};

struct ClField {
  std::string type;
  std::string name;
};
struct ClStruct {  // a plain struct redeclared for the OpenCL kernel
  std::string name;
  std::vector<ClField> fields;
};
struct ClMacro {  // a template parameter given a default for the OpenCL kernel
  std::string name;
  std::string value;
};

struct ComponentPlan {
  std::string name;            // interface name (unique in the header)
  std::string function;        // the original function, qualified
  std::string origin;          // "spm.h:12" for comments
  std::string header_include;  // "\"../spm.h\"" or "<CL/cl.h>"
  std::string header_file;     // the interface's headerFile: "spm.h", "/usr/include/zlib.h"
  bool c_restrict = false;     // the header spells C99's restrict: define it before including
  bool generic = false;
  std::string template_types;                // "T,N"
  std::string template_decl;                 // "template <typename T, int N>" or ""
  std::string template_args;                 // "<T, N>" or ""
  std::string description_xml;               // doc comment, XML-escaped, or ""
  std::vector<std::string> interface_notes;  // XML comments before the parameters
  std::vector<ParamPlan> params;
  std::string launch_elements;  // CUDA launch size: C++ expression over the parameters
  std::vector<ClStruct> cl_structs;
  std::vector<ClMacro> cl_macros;
  std::string cpu_flags;  // compiler flags of the C++ variants (and CUDA's)
  bool opencl = true;     // false: no OpenCL skeleton (a value OpenCL C cannot declare)
};

struct PlanSettings {
  std::set<std::string> functions;  // --functions: pick these (empty: all)
  std::string output_dir;           // where <name>.xml goes (for the #include path)
  std::string extra_flags;          // -I / -D flags the skeletons need, space-separated
};

// One plan per function of `header` that can be a component; warnings for renamed
// overloads, dropped return values, references; refused functions (variadic, function
// pointers, pointers to pointers) get a warning, or an error when --functions names them.
std::vector<ComponentPlan> plan_components(const scan::ScannedHeader& header,
                                           const PlanSettings& settings, diag::Diagnostics& diag);

// Helpers shared with the tests.
using common::xml_escape;
std::string xml_comment_safe(std::string s);  // text an XML comment can hold ("-- " -> "- -")
std::string opencl_type(const std::string& canonical_builtin);  // "unsigned int" -> "uint"

}  // namespace peppher::skeleton
