// Resolution and checks of variants: -disableImpls, duplicate names, source files on
// disk, constraint / globalSize expressions, tunables; then "no variant left" per interface.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "compose/check/check.h"
#include "compose/check/expressions.h"

namespace peppher::check {
namespace {

void check_sources(const std::vector<ir::SourceFile>& sources, diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : sources) {
    if (f.name.empty()) continue;  // reported by the reader
    std::error_code ec;
    if (!std::filesystem::is_regular_file(f.path, ec)) {
      diag.error(f.loc, "source file '" + f.name + "' does not exist" +
                            (f.path == f.name ? "" : " (looked for '" + f.path + "')"));
    }
    // The original tool's host-side OpenCL variants (a host function handed the program,
    // kernel and queue) are not generated: the wrapper launches the kernel itself.
    if (!f.opencl_program.empty() || !f.cl_kernel.empty() || !f.cl_command_queue.empty()) {
      const auto kernel = std::find_if(sources.begin(), sources.end(),
                                       [](const ir::SourceFile& k) { return !k.kernel.empty(); });
      std::string fix =
          "name the __kernel with kernel=\"...\" on the .cl source file and the generated "
          "wrapper sets its arguments and launches it";
      if (kernel != sources.end()) {
        fix = std::string(&*kernel == &f ? "remove those attributes" : "remove this source file") +
              " (the generated wrapper launches kernel '" + kernel->kernel + "' of '" +
              kernel->name + "' itself, the interface's parameters as its arguments)";
      }
      diag.error(f.loc, "source file '" + f.name +
                            "': host-side OpenCL variants (starpu_opencl_program, cl_kernel, "
                            "cl_command_queue) are not supported; " +
                            fix + ", or disable the variant with disable=\"1\"");
    }
  }
}

// "globalSize of 'k.cl'", and " (dimension 1)" after it in a multi-dimensional launch.
std::string launch_what(const char* attr, const ir::SourceFile& f, size_t k, size_t count) {
  return std::string(attr) + " of '" + f.name + "'" +
         (count > 1 ? " (dimension " + std::to_string(k) + ")" : "");
}

// The OpenCL launch of a source file: each dimension of globalSize and localSize, and the
// element counts of its __local arguments, over the call's parameters and tunables.
void resolve_launch(ir::SourceFile& f, const Scope& launch, diag::Diagnostics& diag) {
  for (size_t k = 0; k < f.global_size.size(); ++k) {
    resolve_expression(f.global_size[k], launch_what("globalSize", f, k, f.global_size.size()),
                       launch, diag);
  }
  for (size_t k = 0; k < f.local_size.size(); ++k) {
    resolve_expression(f.local_size[k], launch_what("localSize", f, k, f.local_size.size()), launch,
                       diag);
  }
  // One group size per dimension of the range; without globalSize the range is 1-D.
  const size_t dims = f.global_size.empty() ? 1 : f.global_size.size();
  if (!f.local_size.empty() && f.local_size.size() != dims) {
    diag.error(f.local_size.front().loc,
               "localSize of '" + f.name + "' has " + std::to_string(f.local_size.size()) +
                   (f.local_size.size() == 1 ? " dimension" : " dimensions") + ", but the " +
                   (f.global_size.empty() ? "default launch (no globalSize) is 1-D"
                                          : "globalSize has " + std::to_string(dims)) +
                   ": give both one expression per dimension, dimension 0 first");
  }
  std::set<std::string> names;
  for (ir::LocalArg& a : f.local_args) {
    if (!names.insert(a.name).second) {
      diag.error(a.loc, "localArg '" + a.name + "' of '" + f.name + "' is given twice");
    }
    if (f.kernel.empty()) {
      diag.error(a.loc, "localArg '" + a.name + "' on '" + f.name +
                            "', which names no kernel: put it on the source file whose "
                            "kernel=\"...\" takes that __local parameter");
    }
    resolve_expression(a.size, "size of localArg '" + a.name + "'", launch, diag);
  }
}

std::vector<std::string> platform_properties(const ir::Application& app) {
  std::vector<std::string> props = {"num_cpus", "num_cuda", "num_opencl"};
  if (app.platform) {
    for (const auto& [name, value] : app.platform->properties) {
      if (std::find(props.begin(), props.end(), name) == props.end()) props.push_back(name);
    }
  }
  return props;
}

void resolve_variant(const ir::Application& app, const ir::Interface& iface, ir::Variant& v,
                     diag::Diagnostics& diag) {
  Scope scope;
  for (const ir::Parameter& p : iface.parameters) scope.parameters.push_back(p.name);
  std::set<std::string> tunable_names;
  for (const ir::Tunable& t : v.tunables) {
    if (!tunable_names.insert(t.name).second) {
      diag.error(t.loc, "implementation '" + v.name + "' has two tunables named '" + t.name + "'");
    }
    if (std::find(scope.parameters.begin(), scope.parameters.end(), t.name) !=
        scope.parameters.end()) {
      diag.error(t.loc, "tunable '" + t.name + "' has the name of a parameter of interface '" +
                            iface.name + "'");
    }
    scope.tunables.push_back(t.name);
  }
  scope.platform = platform_properties(app);
  for (const ir::Parameter& p : iface.parameters)
    if (p.kind == ir::ParamKind::Matrix) scope.matrices.push_back(p.name);
  Scope launch = scope;  // launch sizes are C++ in the OpenCL wrapper: M.rows is M's extent
  launch.allow_platform = false;
  for (ir::Constraint& c : v.constraints) {
    std::string what = c.name.empty() ? "constraint" : "constraint '" + c.name + "'";
    resolve_expression(c.expr, what, scope, diag);
  }
  for (ir::SourceFile& f : v.sources) {
    resolve_launch(f, launch, diag);
    if (!f.kernel.empty() && v.backend != ir::Backend::OpenCl) {
      diag.warning(f.loc, "kernel=\"" + f.kernel + "\" is ignored: implementation '" + v.name +
                              "' targets " + ir::to_string(v.backend) + ", not OPENCL");
    }
  }
  if (v.disabled) return;  // files of disabled variants need not exist
  if (v.sources.empty()) {
    diag.error(v.loc, "implementation '" + v.name + "' has no source files");
  }
  check_sources(v.sources, diag);
}

void check_no_variant_left(const ir::Application& app, const ir::Interface& iface,
                           diag::Diagnostics& diag) {
  if (iface.name.empty() || !ir::enabled_variants(app, iface).empty()) return;
  std::error_code ec;
  if (iface.variants.empty() && !std::filesystem::is_directory(iface.imp_path, ec)) return;
  if (iface.variants.empty()) {
    diag.error(iface.loc, "interface '" + iface.name +
                              "' has no implementation variant (none "
                              "found in '" +
                              iface.imp_path + "')");
    return;
  }
  diag.error(iface.loc, "interface '" + iface.name +
                            "' has no variant left for any enabled "
                            "backend");
  for (const ir::Variant& v : iface.variants) {
    std::string why;
    if (v.disabled_by_option)
      why = "is disabled by -disableImpls";
    else if (v.disabled)
      why = "is disabled in its descriptor (disable=\"1\")";
    else
      why = std::string("targets ") + ir::to_string(v.backend) + ", which is disabled";
    diag.note(v.loc, "implementation '" + v.name + "' " + why);
  }
}

}  // namespace

void resolve_variants(ir::Application& app, diag::Diagnostics& diag) {
  std::vector<bool> used(app.options.disable_impls.size(), false);
  std::vector<std::string> all_names;
  std::map<std::string, const ir::Variant*> first;
  for (ir::Interface& iface : app.interfaces) {
    for (ir::Variant& v : iface.variants) {
      all_names.push_back(v.name);
      bool expands = false;
      for (const ir::Tunable& t : v.tunables) expands = expands || !t.values.empty();
      for (size_t k = 0; k < used.size(); ++k) {
        const std::string& name = app.options.disable_impls[k];
        // A tunable copy (`<variant>__BLOCK_32`) is disabled by expand/, which names it.
        if (expands && name.rfind(v.name + "__", 0) == 0) used[k] = true;
        if (name == v.name) {
          used[k] = true;
          if (!v.disabled) v.disabled_by_option = true;
          v.disabled = true;
        }
      }
      auto [it, fresh] = first.emplace(v.name, &v);
      if (!fresh && !v.name.empty()) {
        diag.error(v.loc, "implementation name '" + v.name +
                              "' is used twice; each variant "
                              "needs its own function name");
        diag.note(it->second->loc, "first used here");
      }
    }
  }
  for (size_t k = 0; k < used.size(); ++k) {
    if (!used[k]) {
      diag.warning(
          "-disableImpls: no implementation named '" + app.options.disable_impls[k] + "'" +
          diag::did_you_mean(diag::closest_match_in(app.options.disable_impls[k], all_names)));
    }
  }
  for (ir::Interface& iface : app.interfaces) {
    for (ir::Variant& v : iface.variants) resolve_variant(app, iface, v, diag);
    check_no_variant_left(app, iface, diag);
  }
}

}  // namespace peppher::check
