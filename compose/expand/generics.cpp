// Generic component expansion (see generics.h).
#include "compose/expand/generics.h"

#include <algorithm>
#include <cctype>

#include "compose/check/types.h"
#include "compose/expand/combinations.h"

namespace peppher::expand {
namespace {

using Instantiation = std::vector<std::string>;

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void add_unique(std::vector<Instantiation>& list, const Instantiation& inst) {
  if (std::find(list.begin(), list.end(), inst) == list.end()) list.push_back(inst);
}

std::string join(const Instantiation& types) {
  std::string out;
  for (const std::string& t : types) out += (out.empty() ? "" : ",") + t;
  return out;
}

// Every requiredInterface of the application and of its variants, with where it is.
std::vector<const ir::RequiredInterface*> all_requirements(const ir::Application& app) {
  std::vector<const ir::RequiredInterface*> out;
  for (const ir::RequiredInterface& r : app.required) out.push_back(&r);
  for (const ir::Interface& i : app.interfaces) {
    for (const ir::Variant& v : i.variants) {
      for (const ir::RequiredInterface& r : v.required) out.push_back(&r);
    }
  }
  return out;
}

// The instantiations asked for `iface`: from instantiate="..." lists, else from its
// genericParameter types (every combination, first template type varying slowest).
std::vector<Instantiation> instantiations(const ir::Application& app, const ir::Interface& iface,
                                          diag::Diagnostics& diag) {
  std::vector<Instantiation> out;
  for (const ir::RequiredInterface* r : all_requirements(app)) {
    if (r->name != iface.name) continue;
    for (const Instantiation& inst : r->instantiate) {
      if (inst.size() != iface.template_types.size()) {
        diag.error(r->loc,
                   "instantiate=\"" + join(inst) + "\" gives " + std::to_string(inst.size()) +
                       " type(s) for generic interface '" + iface.name + "', which has " +
                       std::to_string(iface.template_types.size()) + " (templateTypes=\"" +
                       join(iface.template_types) + "\"); separate instantiations with ';'");
        continue;
      }
      add_unique(out, inst);
    }
  }
  if (!out.empty()) return out;
  std::vector<std::vector<std::string>> types;  // per template parameter: its given types
  for (const std::string& name : iface.template_types) {
    types.emplace_back();
    for (const ir::GenericParameter& g : iface.generic_parameters) {
      if (g.name == name && !g.types.empty()) types.back() = g.types;
    }
    if (types.back().empty()) return {};
  }
  return all_combinations(types);
}

// The instantiation of `generic` for `args`. Each parameter's type is classified again
// after substitution: `T *` with T=float* is a pointer to a pointer, `T` with T=float* a
// pointer without numElements; such an instantiation is an error at the parameter.
ir::Interface instantiate(const ir::Interface& generic, const Instantiation& args,
                          diag::Diagnostics& diag) {
  ir::Interface out = generic;
  out.template_args = args;
  for (ir::Parameter& p : out.parameters) {
    p.generic_type = p.type;
    p.type = substitute_types(p.type, generic.template_types, args);
    p.elem_type = substitute_types(p.elem_type, generic.template_types, args);
    const check::TypeInfo t = check::classify_type(p.type, {});
    const std::string who = "parameter '" + p.name + "' of " + generic.name + "<" + join(args) +
                            ">, '" + p.generic_type + "' with " + join(args) + " = '" + p.type +
                            "',";
    auto scalar = [](ir::ParamKind k) {
      return k == ir::ParamKind::ScalarValue || k == ir::ParamKind::StructValue;
    };
    if (!t.problem.empty()) {
      diag.error(p.loc, who + " " + t.problem);
    } else if (t.kind != p.kind && !(scalar(t.kind) && scalar(p.kind))) {
      diag.error(p.loc, who + " is a " + ir::to_string(t.kind) + ", not a " +
                            ir::to_string(p.kind) +
                            " as declared; instantiate with element "
                            "types only (int, float, a struct)");
    } else {
      p.kind = t.kind;
    }
  }
  return out;
}

}  // namespace

std::string substitute_types(const std::string& type, const std::vector<std::string>& names,
                             const std::vector<std::string>& args) {
  std::string out;
  for (size_t i = 0; i < type.size();) {
    if (!is_word_char(type[i])) {
      out += type[i++];
      continue;
    }
    size_t end = i;
    while (end < type.size() && is_word_char(type[end])) ++end;
    std::string word = type.substr(i, end - i);
    auto it = std::find(names.begin(), names.end(), word);
    const bool qualified = i > 0 && type[i - 1] == ':';  // std::T is not the parameter T
    out += it != names.end() && !qualified ? args[it - names.begin()] : word;
    i = end;
  }
  return out;
}

void expand_generics(ir::Application& app, diag::Diagnostics& diag) {
  for (const ir::RequiredInterface* r : all_requirements(app)) {
    if (r->instantiate.empty()) continue;
    for (const ir::Interface& i : app.interfaces) {
      if (i.name == r->name && !i.generic) {
        diag.error(r->loc, "instantiate=\"...\" on requiredInterface '" + r->name +
                               "', which is not generic (no kind=\"generic\" in " +
                               i.descriptor_file + ")");
      }
    }
  }
  std::vector<ir::Interface> expanded;
  for (const ir::Interface& iface : app.interfaces) {
    if (!iface.generic) {
      expanded.push_back(iface);
      continue;
    }
    std::vector<Instantiation> list = instantiations(app, iface, diag);
    if (list.empty()) {  // like an unused C++ template: nothing to generate
      // A light-form interface is its header's declaration: no descriptor to list types in.
      const bool light = iface.descriptor_file == iface.header_file;
      const std::string how =
          light ? "call it from the program's sources (" + iface.name + "<float>(...))"
                : "list its types with instantiate=\"int,float\" on the requiredInterface "
                  "that names it, or with <peppher:genericParameter name=\"" +
                      (iface.template_types.empty() ? "T" : iface.template_types.front()) +
                      "\" types=\"...\"/>";
      diag.warning(iface.loc, "generic interface '" + iface.name +
                                  "' is never instantiated (no call of it in main's C++ "
                                  "sources), so nothing is generated for it: " +
                                  how);
      continue;
    }
    for (const Instantiation& args : list) expanded.push_back(instantiate(iface, args, diag));
  }
  app.interfaces = std::move(expanded);
}

}  // namespace peppher::expand
