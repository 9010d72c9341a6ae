// The emit stage (see generate.h): plans and renders every wrapper, then the
// application-level files (peppher.h, Makefile, peppher.cmake).
#include "compose/emit/generate.h"

#include <filesystem>

#include "compose/emit/names.h"
#include "compose/emit/render.h"
#include "compose/emit/wrapper_emitter.h"
#include "compose/emit/wrapper_plan.h"

namespace peppher::emit {
namespace {

namespace fs = std::filesystem;
using Data = TemplateData;

// One compile step of the Makefile (and of peppher.cmake for variants).
struct CompileStep {
  std::string source;  // relative to the output folder
  std::string object;
  std::string compiler;
  std::string flags;
  bool cuda = false;
  bool c_language = false;
};

std::string relative_to(const std::string& path, const std::string& dir) {
  return fs::absolute(path).lexically_normal().lexically_relative(dir).string();
}

bool is_opencl_source(const ir::SourceFile& s) {
  return !s.kernel.empty() || fs::path(s.path).extension() == ".cl";
}

std::string default_compiler(ir::Backend b) { return b == ir::Backend::Cuda ? "nvcc" : "g++"; }

// The variant's own flags; an OPENMP variant always gets -fopenmp. A variant made by
// tunable expansion gets its values and renames its function to its expanded name
// (-DBLOCK=32 -Dscale=scale__BLOCK_32), so each copy of the source defines its own symbol.
std::string variant_flags(const ir::Variant& v, const ir::SourceFile& s) {
  std::string flags = s.compiler.flags;
  if (!v.base_name.empty()) {
    std::string defines = tunable_defines(v) + " -D" + v.base_name + "=" + v.name;
    flags += flags.empty() ? defines : " " + defines;
  }
  if (v.backend == ir::Backend::OpenMp && flags.find("-fopenmp") == std::string::npos) {
    flags += flags.empty() ? "-fopenmp" : " -fopenmp";
  }
  return flags;
}

std::vector<CompileStep> variant_steps(const ir::Application& app, const std::string& out_dir) {
  std::vector<CompileStep> steps;
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant* v : ir::enabled_variants(app, iface)) {
      if (v->backend == ir::Backend::OpenCl) continue;  // kernels are built at run time
      for (const ir::SourceFile& s : v->sources) {
        if (is_opencl_source(s)) continue;
        CompileStep step;
        step.source = relative_to(s.path, out_dir);
        step.object = names::object_file(v->name, s.path);
        step.compiler = s.compiler.name.empty() ? default_compiler(v->backend) : s.compiler.name;
        step.flags = variant_flags(*v, s);
        step.cuda = v->backend == ir::Backend::Cuda;
        step.c_language = is_c_compiler(step.compiler);
        steps.push_back(step);
      }
    }
  }
  return steps;
}

std::vector<CompileStep> main_steps(const ir::Application& app, const std::string& out_dir) {
  std::vector<CompileStep> steps;
  for (const ir::SourceFile& s : app.sources) {
    CompileStep step;
    step.source = relative_to(s.path, out_dir);
    step.object = names::object_file(app.name, s.path);
    step.compiler = !s.compiler.name.empty() ? s.compiler.name
                    : !app.link.name.empty() ? app.link.name
                                             : "g++";
    step.flags = s.compiler.flags;
    steps.push_back(step);
  }
  return steps;
}

Data step_data(const CompileStep& s) {
  Data d;
  d.set("source", s.source);
  d.set("object", s.object);
  d.set("compiler", s.compiler);
  d.set("flags", s.flags);
  // CMake wants a ;-list of options.
  std::string cmake_flags = s.flags;
  for (char& c : cmake_flags) c = c == ' ' ? ';' : c;
  d.set("cmake_flags", cmake_flags);
  d.set("cmake_language", s.c_language ? "C" : "CXX");
  return d;
}

// Goes into peppher.h: the scheduler PEPPHER_INITIALIZE() starts, and why.
std::pair<std::string, std::string> choose_scheduler(const ir::Application& app) {
  if (!app.composition.scheduler.empty()) {
    return {app.composition.scheduler, "set in the main descriptor"};
  }
  for (const ir::Interface& i : app.interfaces) {
    if (ir::effective_perf_model(app, i) != ir::PerfModel::None) {
      return {"dmda", "performance models are on, so the model-driven dmda"};
    }
  }
  return {"lws", "no performance models, so locality-aware work stealing"};
}

std::string emit_umbrella(const ir::Application& app, const std::vector<std::string>& wrappers) {
  Data d;
  d.set("main_descriptor", fs::path(app.descriptor_file).filename().string());
  auto [scheduler, why] = choose_scheduler(app);
  d.set("scheduler", scheduler);
  d.set("scheduler_why", why);
  d.set("wrappers", make_list(wrappers, [](const std::string& f) {
          Data w;
          w.set("file", f);
          return w;
        }));
  return render_template("peppher.h", d);
}

// The generated wrapper sources, compiled like the application's C++.
std::vector<CompileStep> wrapper_steps(const ir::Application& app) {
  std::vector<CompileStep> steps;
  for (const ir::Interface& iface : app.interfaces) {
    CompileStep step;
    step.source = names::wrapper_source(iface);
    step.object = names::object_file("peppher", step.source);
    step.compiler = app.link.name.empty() ? "g++" : app.link.name;
    step.flags = "-O2 -std=c++17";
    steps.push_back(step);
  }
  return steps;
}

Data app_data(const ir::Application& app, const EmitSettings& settings,
              const std::vector<std::string>& generated, const std::string& out_dir) {
  std::vector<CompileStep> variants = variant_steps(app, out_dir);
  const std::vector<CompileStep> wrappers = wrapper_steps(app);
  variants.insert(variants.begin(), wrappers.begin(), wrappers.end());
  std::vector<CompileStep> host = main_steps(app, out_dir);
  std::vector<CompileStep> cuda;
  for (const CompileStep& s : variants) (s.cuda ? cuda : host).push_back(s);

  Data d;
  d.set("main_descriptor", fs::path(app.descriptor_file).filename().string());
  d.set("output", app.link.output.empty() ? std::string("main") : app.link.output);
  d.set("link_compiler", app.link.name.empty() ? std::string("g++") : app.link.name);
  d.set("link_flags", app.link.flags);
  d.set("peppher_cflags", settings.peppher_cflags);
  d.set("peppher_libs", settings.peppher_libs);
  d.set("nvcc", settings.nvcc);
  d.set("generated", make_list(generated, [](const std::string& f) {
          Data g;
          g.set("file", f);
          return g;
        }));
  d.set("objects", make_list(host, step_data));
  d.set("compile_steps", make_list(host, step_data));
  d.set("cuda_objects", make_list(cuda, step_data));
  d.set("cuda_steps", make_list(cuda, step_data));
  std::vector<CompileStep> cpu_variants;
  for (const CompileStep& s : variants) {
    if (!s.cuda) cpu_variants.push_back(s);
  }
  d.set("variant_steps", make_list(cpu_variants, step_data));
  return d;
}

}  // namespace

void plan_only(const ir::Application& app, diag::Diagnostics& diags) {
  for (const ir::Interface& iface : app.interfaces) plan_wrapper(app, iface, diags);
}

void generate(const ir::Application& app, const EmitSettings& settings,
              output::OutputContext& out, diag::Diagnostics& diags) {
  std::vector<std::string> wrappers;
  for (const ir::Interface& iface : app.interfaces) {
    WrapperPlan plan = plan_wrapper(app, iface, diags);
    std::string header = names::wrapper_file(iface, app.options.wrapper_files_ext);
    emit_wrapper(plan, header, names::wrapper_source(iface), out);
    wrappers.push_back(header);
  }
  out.write(names::umbrella_header(), emit_umbrella(app, wrappers));

  std::vector<std::string> generated = wrappers;
  generated.push_back(names::umbrella_header());
  Data d = app_data(app, settings, generated, output_dir(app));
  out.write("Makefile", render_template("Makefile", d));
  out.write("peppher.cmake", render_template("peppher.cmake", d));
}

}  // namespace peppher::emit
