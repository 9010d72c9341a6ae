// Builds the ComponentPlans (see plan.h): selection, refusals, overload names, the
// guesses of infer.h, and the per-backend spellings of every parameter.
#include "compose/utility/skeleton/plan.h"

#include <filesystem>
#include <map>
#include <regex>

#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"
#include "compose/util/text.h"
#include "compose/utility/skeleton/infer.h"

namespace peppher::skeleton {
namespace {

namespace fs = std::filesystem;
using scan::ParamShape;
using scan::ScannedFunction;
using scan::ScannedParam;

// XML comments must not contain "--".
std::string comment_safe(std::string s) {
  for (size_t at = s.find("--"); at != std::string::npos; at = s.find("--", at))
    s.replace(at, 2, "- -");
  return s;
}

using text::trim;

std::string join_decl(const std::string& type, const std::string& name) {
  char last = type.empty() ? ' ' : type.back();
  return type + (last == '*' || last == '&' ? "" : " ") + name;
}

// "const T" -> "T" (a by-value type as written, for a kernel argument).
std::string without_const(const std::string& type) {
  std::string t = trim(type);
  if (t.rfind("const ", 0) == 0) t = trim(t.substr(6));
  if (t.size() > 6 && t.compare(t.size() - 6, 6, " const") == 0)
    t = trim(t.substr(0, t.size() - 6));
  return t;
}

std::string cl_struct_name(std::string canonical) {
  for (const char* kw : {"struct ", "class ", "union "}) {
    if (canonical.rfind(kw, 0) == 0) canonical = canonical.substr(std::string(kw).size());
  }
  for (size_t at = canonical.find("::"); at != std::string::npos; at = canonical.find("::", at)) {
    canonical.replace(at, 2, "_");
  }
  return canonical;
}

// The OpenCL spelling of a parameter's value type; "" when OpenCL cannot name it.
std::string cl_value_type(const ScannedParam& p, ComponentPlan& plan) {
  if (p.is_void_pointee) return "";
  if (p.builtin) return opencl_type(p.canonical_type);
  if (p.dependent) return p.shape == ParamShape::Value ? without_const(p.type) : p.pointee_type;
  if (!p.record_plain) return "";
  std::string name = cl_struct_name(p.canonical_type);
  for (const ClStruct& s : plan.cl_structs) {
    if (s.name == name) return name;
  }
  ClStruct s{name, {}};
  for (const scan::ScannedField& f : p.record_fields)
    s.fields.push_back({opencl_type(f.canonical_type), f.name});
  plan.cl_structs.push_back(s);
  return name;
}

std::string cl_decl(const ScannedParam& p, const std::string& name, bool read_only,
                    ComponentPlan& plan) {
  std::string t = cl_value_type(p, plan);
  const bool by_value =
      p.shape == ParamShape::Value || (p.shape == ParamShape::LValueReference && read_only);
  const std::string cst = read_only ? "const " : "";
  if (t.empty()) {
    return "__global " + cst + "uchar *" + name + " /* TODO: OpenCL has no type '" +
           (p.shape == ParamShape::Value ? p.type : p.pointee_type) + "' */";
  }
  if (by_value) return t + " " + name;
  return "__global " + cst + t + " *" + name;
}

// Words OpenCL C reserves that are fine C/C++ parameter names.
bool opencl_keyword(const std::string& name) {
  static const std::set<std::string> kWords = {
      "global",     "local",      "constant", "private",   "kernel",    "read_only",
      "write_only", "read_write", "uniform",  "pipe",      "half",      "uchar",
      "ushort",     "uint",       "ulong",    "image1d_t", "image2d_t", "image3d_t",
      "sampler_t",  "event_t",    "complex",  "imaginary", "quad",      "generic"};
  if (kWords.count(name) > 0) return true;
  static const std::regex kVector(
      "(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)");
  return std::regex_match(name, kVector);
}

// Why f cannot be a component (and where), or "".
std::string refusal(const ScannedFunction& f, const std::vector<std::string>& names,
                    ir::SourceLoc& where) {
  where = f.loc;
  if (!f.member_of.empty()) {
    return "it is a member function of '" + f.member_of +
           "'; a component is a free function: declare one taking the data the member "
           "works on, and call it from the member";
  }
  if (f.is_static) {
    return "it is static (each file that includes the header has its own copy); a "
           "component's entry wrapper is one function for the whole program";
  }
  if (f.has_body) {
    return "it is defined in the header (it has a body), and its entry wrapper would define "
           "it again; move the body into a variant and leave the declaration";
  }
  if (f.variadic) {
    return "it is variadic ('" + f.signature + "'); a component has a fixed parameter list";
  }
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (f.params[i].refusal.empty()) continue;
    where = f.params[i].loc;
    return "parameter '" + names[i] + "' " + f.params[i].refusal;
  }
  return "";
}

void warn_return(const ScannedFunction& f, const std::string& iface,
                 const std::vector<std::string>& names, diag::Diagnostics& diag) {
  std::string result = "result";
  while (std::find(names.begin(), names.end(), result) != names.end()) result += "_";
  std::string params;
  for (size_t i = 0; i < f.params.size(); ++i)
    params += join_decl(f.params[i].type, names[i]) + ", ";
  diag.warning(f.loc,
               "function '" + f.name + "' returns '" + f.return_type +
                   "', but a component "
                   "returns nothing: its skeleton variants return void; rewrite it as 'void " +
                   f.name + "(" + params + "peppher::Scalar<" + f.return_type + "> &" + result +
                   ")' (or return "
                   "through an output pointer) and add '" +
                   result + "' to " + iface + ".xml with accessMode=\"write\"");
}

// A peppher container parameter (Vector<T>&, Matrix<T>&, Scalar<T>&): its kind and T.
struct Container {
  std::string kind;  // "Vector", "Matrix", "Scalar" or "" when not a container
  std::string elem;
};

Container container_of(const ScannedParam& p) {
  if (p.shape != ParamShape::LValueReference) return {};
  static const std::regex kContainer(
      R"(^\s*(?:peppher::)?(Vector|Matrix|Scalar)\s*<\s*(.+?)\s*>\s*$)");
  std::smatch m;
  if (!std::regex_match(p.pointee_type, m, kContainer)) return {};
  return {m[1].str(), m[2].str()};
}

// Renames the parameters whose names the generated code reserves (FORMAT.md: the
// `peppher_` prefix, PeppherArgs, and `<p>_count` / `<p>_size` / `<p>_rows` ... declared
// beside a buffer `p`), which compose --check would refuse: `values_count` beside
// `values` becomes `values_count_`. Returns the reason per renamed index.
std::map<size_t, std::string> avoid_reserved_names(const std::vector<ScannedParam>& params,
                                                   std::vector<std::string>& names) {
  std::map<size_t, std::string> renamed;
  const std::string prefix = names::reserved_prefix();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].compare(0, prefix.size(), prefix) == 0 || names[i] == names::args_struct()) {
      renamed[i] = "the generated code reserves the prefix '" + prefix + "' and '" +
                   names::args_struct() + "'";
      names[i] = names[i] == names::args_struct() ? "args" : names[i].substr(prefix.size());
    }
  }
  std::map<std::string, std::string> derived;  // name -> what declares it
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string of = " of '" + names[i] + "'";
    if (params[i].shape == ParamShape::Pointer || params[i].shape == ParamShape::LValueReference) {
      derived[names::element_count(names[i])] = "the element count" + of;
    }
    const std::string kind = container_of(params[i]).kind;
    if (kind == "Vector") derived[names::vector_size(names[i])] = "the length" + of;
    if (kind == "Matrix") {
      derived[names::matrix_rows(names[i])] = "the row count" + of;
      derived[names::matrix_cols(names[i])] = "the column count" + of;
      derived[names::matrix_ld(names[i])] = "the leading dimension" + of;
    }
  }
  std::set<std::string> taken;  // every other name (a prefix-stripped one is free to keep)
  for (size_t i = 0; i < names.size(); ++i) {
    if (renamed.count(i) == 0) taken.insert(names[i]);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = derived.find(names[i]);
    if (it == derived.end() && renamed.count(i) == 0) continue;
    if (it != derived.end()) {
      renamed[i] = "the generated code declares '" + names[i] + "', " + it->second;
    }
    std::string name = names[i].empty() ? "arg" : names[i];
    while (derived.count(name) > 0 || taken.count(name) > 0) name += "_";
    taken.insert(name);
    names[i] = name;
  }
  return renamed;
}

ParamPlan plan_param(const ScannedFunction& f, const std::vector<std::string>& names, size_t i,
                     const std::map<std::string, std::string>& directions, ComponentPlan& plan) {
  const ScannedParam& p = f.params[i];
  ParamPlan out;
  out.name = names[i];
  out.type_xml = xml_escape(p.type);
  Guess access = infer_access(p, out.name, directions);
  out.access = access.value;
  out.note = out.name + ": accessMode " + access.value + " (" + access.why + ")";
  out.user_note = out.name + ": " + access.value;
  if (p.shape == ParamShape::Pointer) {
    Guess n = infer_num_elements(f.params, names, i);
    out.has_num_elements = true;
    out.num_elements = xml_escape(n.value);
    out.note += "; numElements " + n.value + " (" + n.why + ")";
    out.user_note += ", " + (n.value == kNumElementsPlaceholder ? std::string("length unknown")
                                                                : n.value + " elements");
  }
  if (!p.default_arg.empty()) out.note += "; default argument " + p.default_arg + " in the header";
  out.note = comment_safe(out.note);
  out.cpp_decl = join_decl(p.type, out.name);
  out.cl_name = opencl_keyword(out.name) ? out.name + "_" : out.name;
  const std::string cst = p.pointee_const ? "const " : "";
  if (Container c = container_of(p); !c.kind.empty()) {
    // FORMAT.md: a container reaches an OpenCL kernel as its buffer followed by its extents,
    // and CUDA code as a view over device memory whose data() the kernel gets.
    std::string cl_elem = opencl_type(c.elem);
    if (cl_elem.empty()) cl_elem = c.elem;
    out.cl_decl = "__global " + cst + cl_elem + " *" + out.cl_name;
    if (c.kind == "Vector") out.cl_decl += ", int " + names::vector_size(out.cl_name);
    if (c.kind == "Matrix") {
      out.cl_decl += ", int " + names::matrix_rows(out.cl_name) + ", int " +
                     names::matrix_cols(out.cl_name) + ", int " + names::matrix_ld(out.cl_name);
    }
    out.cuda_kernel_decl = cst + c.elem + " *" + out.name;
    out.cuda_arg = out.name + ".data()";
    return out;
  }
  out.cl_decl = cl_decl(p, out.cl_name, access.value == "read", plan);
  out.cl_value_unnamed = cl_value_type(p, plan).empty() && !p.is_void_pointee &&
                         (p.shape == ParamShape::Value ||
                          (p.shape == ParamShape::LValueReference && access.value == "read"));
  if (p.shape == ParamShape::LValueReference && !p.pointee_const) {
    // T&: one element in device memory; the kernel gets its address.
    out.cuda_kernel_decl = p.pointee_type + " *" + out.name;
    out.cuda_arg = "&" + out.name;
  } else {
    out.cuda_kernel_decl =
        p.shape == ParamShape::LValueReference ? p.pointee_type + " " + out.name : out.cpp_decl;
    out.cuda_arg = out.name;
  }
  return out;
}

ComponentPlan plan_one(const ScannedFunction& f, const std::string& iface,
                       const std::string& header, const PlanSettings& settings,
                       diag::Diagnostics& diag) {
  ComponentPlan plan;
  plan.name = iface;
  plan.function = f.qualified_name;
  plan.origin = fs::path(header).filename().string() + ":" + std::to_string(f.loc.line);
  fs::path out_dir =
      settings.output_dir.empty() ? fs::path(header).parent_path() : fs::path(settings.output_dir);
  plan.header_include = plan::include_spelling(header, (out_dir / iface).string());
  {
    const fs::path abs = fs::absolute(header).lexically_normal();
    const fs::path dir = out_dir.empty() ? fs::path(".") : out_dir;
    const fs::path rel = abs.lexically_relative(fs::absolute(dir).lexically_normal());
    plan.header_file = (rel.empty() || rel.begin()->string() == ".." ? abs : rel).generic_string();
  }
  plan.cpu_flags = "-O2" + (settings.extra_flags.empty() ? "" : " " + settings.extra_flags);
  std::vector<std::string> names = parameter_names(f.params);
  const std::vector<std::string> declared = names;
  const std::map<size_t, std::string> renamed = avoid_reserved_names(f.params, names);
  for (const auto& [i, why] : renamed) {
    diag.warning(f.params[i].loc, "parameter '" + declared[i] + "' of '" + f.name + "' is named '" +
                                      names[i] + "' in its component: " + why);
  }
  if (f.returns_value) warn_return(f, iface, names, diag);
  if (!f.namespaces.empty()) {
    plan.interface_notes.push_back("declared as " + f.qualified_name + " in the header");
    // The entry wrapper is ::name: a call spelled ns::name still reaches the library's
    // function (or nothing, once the program stops linking the library).
    diag.warning(f.loc, "'" + f.qualified_name + "' is in a namespace, but component '" + iface +
                            "' is the global function '" + iface +
                            "(...)': the program's calls must name '::" + iface + "' (or '" +
                            iface + "' outside the namespace), not '" + f.qualified_name + "'");
  }
  if (f.is_template) {
    plan.generic = true;
    std::string decl, args;
    for (const scan::ScannedTemplateParam& t : f.template_params) {
      plan.template_types += (plan.template_types.empty() ? "" : ",") + t.name;
      decl += (decl.empty() ? "" : ", ") +
              (t.is_type ? "typename " + t.name : t.value_type + " " + t.name);
      args += (args.empty() ? "" : ", ") + t.name;
      plan.cl_macros.push_back({t.name, t.is_type ? "float" : "1"});
      if (!t.is_type) {
        plan.interface_notes.push_back(t.name + " is a non-type template parameter (" +
                                       t.value_type + "): instantiate it with a value");
      }
    }
    plan.template_decl = "template <" + decl + ">";
    plan.template_args = "<" + args + ">";
  }
  const std::string doc = trim(f.doc_comment);
  if (!doc.empty()) plan.description_xml = xml_escape(doc);
  const auto directions = documented_directions(f.doc_comment);
  for (size_t i = 0; i < f.params.size(); ++i) {
    plan.params.push_back(plan_param(f, names, i, directions, plan));
    if (renamed.count(i) > 0) {
      plan.params.back().note +=
          comment_safe("; named '" + declared[i] + "' in the header: " + renamed.at(i));
    }
  }
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (!plan.params[i].cl_value_unnamed) continue;
    // A kernel argument passed by value needs its type declared in OpenCL C: the wrapper
    // passes the struct's bytes, which a `__global uchar *` placeholder cannot receive.
    plan.opencl = false;
    const std::string why =
        "parameter '" + names[i] + "' is passed by value as '" +
        (f.params[i].shape == ParamShape::Value ? without_const(f.params[i].type)
                                                : f.params[i].pointee_type) +
        "', which OpenCL C cannot declare (only structs of arithmetic "
        "fields are redeclared)";
    plan.interface_notes.push_back("no OpenCL variant generated: " + why);
    diag.warning(f.params[i].loc, "function '" + f.name + "' gets no OpenCL skeleton: " + why +
                                      "; write the kernel and its struct by hand");
    break;
  }
  for (std::string& note : plan.interface_notes) note = comment_safe(note);
  // CUDA launch: the first written operand's length, else any known length, else 1.
  plan.launch_elements = "1";
  for (int pass = 0; pass < 2 && plan.launch_elements == "1"; ++pass) {
    for (size_t i = 0; i < f.params.size(); ++i) {
      const ParamPlan& p = plan.params[i];
      if (!p.has_num_elements || p.num_elements == kNumElementsPlaceholder) continue;
      if (pass == 0 && p.access == "read") continue;
      plan.launch_elements = infer_num_elements(f.params, names, i).value;
      break;
    }
  }
  // Else the first written Vector or Matrix (else any): its element count.
  for (int pass = 0; pass < 2 && plan.launch_elements == "1"; ++pass) {
    for (size_t i = 0; i < f.params.size(); ++i) {
      const std::string kind = container_of(f.params[i]).kind;
      if (kind != "Vector" && kind != "Matrix") continue;
      if (pass == 0 && plan.params[i].access == "read") continue;
      plan.launch_elements = plan.params[i].name + ".size()";
      break;
    }
  }
  return plan;
}

}  // namespace

// Text inside an XML comment must not hold "--" (nor end with "-"): a header named
// `a--b.h` or a default argument `x--` would end the comment early.
std::string xml_comment_safe(std::string s) {
  for (size_t at = s.find("--"); at != std::string::npos; at = s.find("--", at))
    s.replace(at, 2, "- -");
  if (!s.empty() && s.back() == '-') s += ' ';
  return s;
}

std::string opencl_type(const std::string& t) {
  static const std::map<std::string, std::string> kTypes = {{"unsigned char", "uchar"},
                                                            {"signed char", "char"},
                                                            {"char", "char"},
                                                            {"unsigned short", "ushort"},
                                                            {"short", "short"},
                                                            {"unsigned int", "uint"},
                                                            {"int", "int"},
                                                            {"unsigned long", "ulong"},
                                                            {"long", "long"},
                                                            {"unsigned long long", "ulong"},
                                                            {"long long", "long"},
                                                            {"float", "float"},
                                                            {"double", "double"},
                                                            {"long double", "double"},
                                                            {"bool", "uchar"},
                                                            {"_Bool", "uchar"},
                                                            {"wchar_t", "int"},
                                                            {"char16_t", "ushort"},
                                                            {"char32_t", "uint"},
                                                            {"char8_t", "uchar"},
                                                            {"__fp16", "half"}};
  auto it = kTypes.find(t);
  return it == kTypes.end() ? "uchar" : it->second;
}

std::vector<ComponentPlan> plan_components(const scan::ScannedHeader& header,
                                           const PlanSettings& settings, diag::Diagnostics& diag) {
  std::vector<ComponentPlan> plans;
  std::map<std::string, std::string> first_signature;  // interface name -> signature
  std::set<std::string> used;
  for (const ScannedFunction& f : header.functions) {
    const bool requested =
        settings.functions.count(f.name) > 0 || settings.functions.count(f.qualified_name) > 0;
    if (!settings.functions.empty() && !requested) continue;
    ir::SourceLoc where;
    std::string why = refusal(f, parameter_names(f.params), where);
    if (!why.empty()) {
      std::string message = "function '" + f.name + "' is not turned into a component: " + why;
      if (requested)
        diag.error(where, message);
      else
        diag.warning(where, message);
      continue;
    }
    std::string iface = f.name;
    if (used.count(iface) > 0) {
      for (int k = 2; used.count(iface) > 0; ++k) iface = f.name + "_" + std::to_string(k);
      diag.warning(f.loc, "'" + f.signature + "' overloads '" + first_signature[f.name] +
                              "': its component is named '" + iface +
                              "' (interface names are unique); "
                              "call it by that name or rename the function");
    } else {
      first_signature[f.name] = f.signature;
    }
    used.insert(iface);
    plans.push_back(plan_one(f, iface, header.path, settings, diag));
    plans.back().c_restrict = header.uses_c_restrict;
    plans.back().origin = xml_comment_safe(plans.back().origin);
    for (std::string& note : plans.back().interface_notes) note = xml_comment_safe(note);
  }
  return plans;
}

}  // namespace peppher::skeleton
