// Stand-ins for the wrapper headers of a variant's required interfaces: the entry wrapper's
// declaration with the interface's parameter types (a generic interface's as a template),
// after <peppher/runtime.h> when a parameter is a container and the interface's headerFile.
#include "compose/verify/required_headers.h"

#include <set>

#include "compose/ir/toolchain.h"
#include "compose/names/names.h"

namespace peppher::verify {
namespace {

// The declaration the generated header gives: `void f(T* data, int n);` (templated for a
// generic interface; its instantiations share the header).
std::string declaration(const ir::Interface& i) {
  std::string text, params;
  bool containers = false;
  for (const ir::Parameter& p : i.parameters) {
    const std::string& type = i.generic && !p.generic_type.empty() ? p.generic_type : p.type;
    containers = containers || type.find("peppher::") != std::string::npos;
    params += (params.empty() ? "" : ", ") + type + " " + p.name;
  }
  if (containers) text += "#include <peppher/runtime.h>\n";
  if (!i.header_file.empty()) text += "#include \"" + i.header_file + "\"\n";
  if (i.generic) {
    std::string types;
    for (const std::string& t : i.template_types)
      types += (types.empty() ? "typename " : ", typename ") + t;
    text += "template <" + types + ">\n";
  }
  return text + "void " + i.name + "(" + params + ");\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> required_headers(const ir::Application& app,
                                                                  const ir::Options& options,
                                                                  const ir::Variant& v) {
  std::set<std::string> names;
  for (const ir::RequiredInterface& r : v.required) names.insert(r.name);
  std::vector<std::pair<std::string, std::string>> headers;
  std::set<std::string> done;
  const std::string out = ir::output_dir(app, options);
  for (const ir::Interface& i : app.interfaces) {
    if (names.count(i.name) == 0 || !done.insert(i.name).second) continue;
    headers.emplace_back(out + "/" + names::wrapper_file(i, options.wrapper_files_ext),
                         "#pragma once\n" + declaration(i));
  }
  return headers;
}

}  // namespace peppher::verify
