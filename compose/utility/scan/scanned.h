// What the header scanner hands to the skeleton generator: plain structs owning strings,
// one per function declared in the header itself. No Clang type crosses this boundary.
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::scan {

// A field of a struct passed to a function (so an OpenCL kernel can redeclare it).
struct ScannedField {
  std::string name;
  std::string canonical_type;  // e.g. "float", "unsigned int"; empty if not a builtin
};

// A Clang `annotate("peppher:...")` attribute (runtime/include/peppher/annotate.h) on a
// function or parameter: its text without the "peppher:" prefix, and where it is written.
struct ScannedAnnotation {
  ir::SourceLoc loc;
  std::string text;  // "size=n*m", "write"
};

enum class ParamShape {
  Value,            // T (scalar, enum or struct by value)
  Pointer,          // T* (one level)
  LValueReference,  // T&
  Unsupported,      // refused: see ScannedParam::refusal
};

struct ScannedParam {
  ir::SourceLoc loc;
  std::string name;  // as declared; empty when unnamed
  std::string type;  // as written (typedef names kept), e.g. "const float *"
  ParamShape shape = ParamShape::Value;
  bool pointee_const = false;  // const T* / const T&
  bool is_restrict = false;
  std::string pointee_type;  // T of T* / T& as written, without const
  // Canonical spelling of the value type (pointee for pointers, referee for references),
  // without cv-qualifiers: "float", "unsigned long", "struct Point", "T".
  std::string canonical_type;
  bool builtin = false;    // canonical_type is an arithmetic builtin
  bool integer = false;    // by-value integer (candidate numElements)
  bool dependent = false;  // depends on a template parameter
  bool is_void_pointee = false;
  std::vector<ScannedField> record_fields;  // struct value/pointee with builtin fields only
  bool record_plain = false;                // record_fields describe the whole struct
  std::string default_arg;                  // source text after '=', if any
  std::string array_size;  // `T x[16]` (decayed to T*): "16", the length it declares
  std::string refusal;     // non-empty: why this parameter cannot be a component operand
  std::vector<ScannedAnnotation> annotations;  // peppher:... attributes, in written order
};

struct ScannedTemplateParam {
  std::string name;
  bool is_type = true;     // typename T / class T
  std::string value_type;  // non-type parameter: its type ("int")
};

struct ScannedFunction {
  ir::SourceLoc loc;                    // the name in the declaration
  std::string name;                     // unqualified
  std::string qualified_name;           // with namespaces
  std::vector<std::string> namespaces;  // outermost first
  std::string return_type;              // as written; "void" when none
  bool returns_value = false;
  bool variadic = false;
  bool is_template = false;
  std::string member_of;   // a member function: its class, else ""
  bool is_static = false;  // static: internal to each file that includes the header
  bool has_body = false;   // defined in the header (inline, constexpr, a template's body)
  std::vector<ScannedTemplateParam> template_params;
  std::vector<ScannedParam> params;
  std::string doc_comment;                     // text of the attached comment, markers stripped
  std::string signature;                       // "void f(const float *x, int n)" for messages
  std::vector<ScannedAnnotation> annotations;  // peppher:... attributes of the function
};

struct ScannedHeader {
  std::string path;                        // as given
  std::vector<ScannedFunction> functions;  // in declaration order
  // The header spells C99's `restrict`, which the scanner (and the C++ and CUDA skeletons
  // that include the header) define as `__restrict`, C++'s spelling.
  bool uses_c_restrict = false;
};

}  // namespace peppher::scan
