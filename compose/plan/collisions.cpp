// Collisions of generated names (see collisions.h). The file and object names come from
// names/, exactly as emit/ will use them.
#include "compose/plan/collisions.h"

#include <cctype>
#include <map>
#include <string_view>
#include <vector>

#include "compose/ir/backends.h"
#include "compose/ir/toolchain.h"
#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {
namespace {

// A source the Makefile compiles, with where it comes from.
struct Compiled {
  std::string object;
  std::string source;   // as the Makefile in the output folder reaches it
  std::string written;  // as the descriptor writes it (messages)
  ir::SourceLoc loc;
};

// Characters a path may hold in peppher.cmake (a quoted CMake argument) and in a make rule
// (targets and prerequisites are not quoted), blanks aside: the descriptor's file names
// were checked; this catches the folders around them. A blank is fine in peppher.cmake;
// the generated Makefile then refuses to build (emit/generate.cpp), pointing to CMake.
bool build_safe_path(const std::string& path) {
  for (char c : path) {
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("_./+,@- ").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

// Every source the generated Makefile compiles (as emit/generate.cpp lists them).
std::vector<Compiled> compiled_sources(const ir::Application& app, const ir::Options& options,
                                       const std::string& out_dir) {
  std::vector<Compiled> out;
  for (const ir::Interface& iface : app.interfaces) {
    const std::string source = names::wrapper_source(iface);
    out.push_back({names::object_file("peppher", source), source, source, iface.loc});
  }
  out.push_back({names::object_file("peppher", names::trainer_source()), names::trainer_source(),
                 names::trainer_source(), app.loc});
  std::map<std::string, bool> generic_done;
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      if (ir::info(v->backend).code == ir::VariantCode::Kernel) continue;  // built at run time
      const bool generic = !iface.template_args.empty();
      if (generic && generic_done[v->name]) continue;
      generic_done[v->name] = true;
      for (const ir::SourceFile& s : v->sources) {
        if (ir::is_opencl_source(s)) continue;
        if (generic) {
          const std::string file = names::instances_file(*v);
          out.push_back({names::object_file(v->name, file), file, file, s.loc});
          break;
        }
        const std::string rel = relative_to(s.path, out_dir);
        out.push_back({names::object_file(v->name, rel), rel, s.name, s.loc});
      }
    }
  }
  for (const ir::SourceFile& s : app.sources) {
    out.push_back(
        {names::object_file(app.name, s.path), relative_to(s.path, out_dir), s.name, s.loc});
  }
  return out;
}

void check_objects(const ir::Application& app, const ir::Options& options,
                   const std::string& out_dir, diag::Diagnostics& diags) {
  std::map<std::string, const Compiled*> objects;
  const std::vector<Compiled> all = compiled_sources(app, options, out_dir);
  for (const Compiled& c : all) {
    if (!build_safe_path(c.source)) {
      diags.error(c.loc, "source '" + c.written + "' is reached from the output folder as '" +
                             c.source +
                             "', which has characters neither a Makefile nor CMake can hold "
                             "safely; use folders and files named with [A-Za-z0-9_./+,@-] "
                             "(and blanks, under CMake)");
    }
    auto [it, fresh] = objects.emplace(c.object, &c);
    // The same source twice comes from a name clash reported by check_names.
    if (!fresh && it->second->source != c.source) {
      diags.error(c.loc, "sources '" + it->second->written + "' and '" + c.written +
                             "' would both be compiled to '" + c.object +
                             "'; rename one (their file names must differ)");
    }
  }
  const std::string output = app.link.output.empty() ? app.name : app.link.output;
  for (const std::string& r : names::makefile_names()) {
    if (output == r) {
      diags.error(app.link.loc, "output '" + output +
                                    "' is a name the generated Makefile uses "
                                    "itself; name the program differently");
    }
  }
}

void check_names(const ir::Application& app, const ir::Options& options, diag::Diagnostics& diags) {
  std::map<std::string, const ir::Interface*> sources;
  std::map<std::string, const ir::Interface*> headers;
  for (const ir::Interface& iface : app.interfaces) {
    auto [it, fresh] = sources.emplace(names::wrapper_source(iface), &iface);
    if (!fresh) {
      diags.error(iface.loc, "interface '" + ir::display_name(iface) + "' and interface '" +
                                 ir::display_name(*it->second) + "' would both generate '" +
                                 it->first + "'; rename one of them");
    }
    auto [h, hfresh] =
        headers.emplace(names::wrapper_file(iface, options.wrapper_files_ext), &iface);
    if (!hfresh && (iface.template_args.empty() || h->second->name != iface.name)) {
      diags.error(iface.loc, "interface '" + ir::display_name(iface) + "' and interface '" +
                                 ir::display_name(*h->second) + "' would both generate '" +
                                 h->first + "'; rename one of them");
    }
    std::map<std::string, const ir::Variant*> variants;
    for (const ir::Variant& v : iface.variants) {
      if (!variants.emplace(v.name, &v).second) {
        diags.error(v.loc, "tunable values of implementation '" +
                               (v.base_name.empty() ? v.name : v.base_name) +
                               "' give two copies named '" + v.name +
                               "' (characters other than letters and digits are spelled "
                               "'_', '-' 'm', '.' 'p'); make the values differ in letters or "
                               "digits");
      }
    }
  }
}

}  // namespace

void check_collisions(const ir::Application& app, const ir::Options& options,
                      const std::string& out_dir, diag::Diagnostics& diags) {
  // The generated Makefile names its own folder in recipes ('"$(CURDIR)"').
  if (out_dir.find_first_of("'\"\\\n\r") != std::string::npos) {
    diags.error("output folder '" + out_dir +
                "' holds a quote, backslash or line break, which "
                "the generated Makefile cannot hold safely; write elsewhere with -o DIR");
    return;
  }
  check_names(app, options, diags);
  check_objects(app, options, out_dir, diags);
}

}  // namespace peppher::plan
