// Resolution and checks of variants: -disableImpls, duplicate names, source files on
// disk, constraint / globalSize expressions, tunables; then "no variant left" per interface.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "compose/check/check.h"
#include "compose/check/expressions.h"
#include "compose/ir/backends.h"

namespace peppher::check {
namespace {

void check_sources(const std::vector<ir::SourceFile>& sources, diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : sources) {
    if (f.name.empty()) continue;  // reported by the reader
    check_source_file(f, diag);
  }
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The original tool's host-side OpenCL variant: a host function (C or C++) handed its
// operands' buffers, launching kernels of the variant's .cl file through the variables
// its host file's starpu_opencl_program, cl_kernel and cl_command_queue name (the
// generated wrapper defines and sets them). `globals` collects those names application-wide
// (each is one variable of the program).
void check_host_side(const ir::Interface& iface, const ir::Variant& v,
                     std::map<std::string, const ir::SourceFile*>& globals,
                     diag::Diagnostics& diag) {
  const ir::SourceFile* host = ir::host_side_source(v);
  if (host == nullptr) return;
  const ir::SourceFile* program = ir::program_source(v);
  const ir::SourceFile* kernel = ir::kernel_source(v);
  const std::string what = "host-side OpenCL variant '" + v.name + "'";
  if (host == program || !host->kernel.empty()) {
    diag.error(host->loc,
               "source file '" + host->name +
                   "': starpu_opencl_program, cl_kernel and cl_command_queue name the variables "
                   "a host-side OpenCL variant's host function uses (its C or C++ source file, "
                   "defining '" +
                   v.name + "'), but '" + host->name +
                   "' is the kernel file; put them on the host file's sourceFile, or remove "
                   "them (the generated wrapper then launches kernel '" +
                   (host->kernel.empty() ? v.name : host->kernel) +
                   "' itself, the interface's "
                   "parameters as its arguments)");
    return;
  }
  for (const ir::SourceFile& s : v.sources) {
    if (&s == host ||
        (s.opencl_program.empty() && s.cl_kernel.empty() && s.cl_command_queue.empty())) {
      continue;
    }
    diag.error(s.loc, what + ": '" + s.name +
                          "' names host-side variables too; only one source "
                          "file (the host function's, '" +
                          host->name + "') names them");
  }
  if (program == nullptr) {
    diag.error(host->loc, what +
                              " has no OpenCL program: list its .cl file as a source file "
                              "(with kernel=\"...\" when cl_kernel names a variable for "
                              "that kernel; one .cl file, or the one naming kernel=)");
  } else if (!host->cl_kernel.empty() && kernel == nullptr) {
    diag.error(host->loc, what + ": cl_kernel=\"" + host->cl_kernel +
                              "\" names the variable that holds the kernel kernel=\"...\" names "
                              "on the .cl source file, and '" +
                              program->name + "' names none: add kernel=\"...\" to it");
  }
  if (!iface.template_types.empty() || !v.tunables.empty()) {
    diag.error(v.loc, what +
                          (v.tunables.empty() ? " implements generic interface '" + iface.name + "'"
                                              : " has tunables") +
                          ": each copy of it would define the same variables " +
                          "(starpu_opencl_program, cl_kernel, cl_command_queue); not supported");
  }
  for (const auto& [attr, name] : {std::pair{"starpu_opencl_program", &host->opencl_program},
                                   std::pair{"cl_kernel", &host->cl_kernel},
                                   std::pair{"cl_command_queue", &host->cl_command_queue}}) {
    if (name->empty()) continue;
    if (!is_identifier(*name)) {
      diag.error(host->loc, what + ": " + attr + "=\"" + *name +
                                "\" must be a C identifier: it names a variable its host "
                                "function declares extern");
      continue;
    }
    auto [it, fresh] = globals.emplace(*name, host);
    if (fresh) continue;
    diag.error(host->loc, what + ": " + attr + "=\"" + *name +
                              "\" names a variable another host-side name already uses (" +
                              it->second->name +
                              "); the generated program defines each once, "
                              "so give each its own name");
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
                     std::map<std::string, const ir::SourceFile*>& globals,
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
  Scope constraint = scope;
  constraint.refuse_constant_faults = false;
  for (ir::Constraint& c : v.constraints) {
    std::string what = c.name.empty() ? "constraint" : "constraint '" + c.name + "'";
    resolve_expression(c.expr, what, constraint, diag);
  }
  for (ir::SourceFile& f : v.sources) {
    resolve_launch(f, launch, diag);
    if (!f.kernel.empty() && ir::info(v.backend).code != ir::VariantCode::Kernel) {
      diag.warning(f.loc, "kernel=\"" + f.kernel + "\" is ignored: implementation '" + v.name +
                              "' targets " + ir::to_string(v.backend) + ", not OPENCL");
    }
  }
  if (v.disabled) return;  // files of disabled variants need not exist
  if (v.sources.empty()) {
    diag.error(v.loc, "implementation '" + v.name + "' has no source files");
  }
  check_sources(v.sources, diag);
  check_host_side(iface, v, globals, diag);
}

void check_no_variant_left(const ir::Options& options, const ir::Interface& iface,
                           diag::Diagnostics& diag) {
  if (iface.name.empty() || !ir::enabled_variants(options, iface).empty()) return;
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

void resolve_variants(ir::Application& app, const ir::Options& options, diag::Diagnostics& diag) {
  std::vector<bool> used(options.disable_impls.size(), false);
  std::vector<std::string> all_names;
  std::map<std::string, const ir::Variant*> first;
  for (ir::Interface& iface : app.interfaces) {
    for (ir::Variant& v : iface.variants) {
      all_names.push_back(v.name);
      bool expands = false;
      for (const ir::Tunable& t : v.tunables) expands = expands || !t.values.empty();
      for (size_t k = 0; k < used.size(); ++k) {
        const std::string& name = options.disable_impls[k];
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
      diag.warning("-disableImpls: no implementation named '" + options.disable_impls[k] + "'" +
                   diag::did_you_mean(diag::closest_match_in(options.disable_impls[k], all_names)));
    }
  }
  std::map<std::string, const ir::SourceFile*> host_globals;
  for (ir::Interface& iface : app.interfaces) {
    for (ir::Variant& v : iface.variants) resolve_variant(app, iface, v, host_globals, diag);
    check_no_variant_left(options, iface, diag);
  }
}

}  // namespace peppher::check
