// The plan stage's build decisions (see build_plan.h): compile steps, kernel files,
// instances files, the watched inputs and the link step, from the expanded IR.
#include "compose/plan/build_plan.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "compose/ir/backends.h"
#include "compose/ir/toolchain.h"
#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {
namespace {

namespace fs = std::filesystem;

// The variant's own flags, with its backend's required flag (an OPENMP variant's -fopenmp). A
// variant made by tunable expansion gets its values and renames its function to its expanded name
// (-DBLOCK=32 -Dscale=scale__BLOCK_32), so each copy of the source defines its own symbol.
std::string variant_flags(const ir::Variant& v, const ir::SourceFile& s) {
  std::string flags = s.compiler.flags;
  if (!v.base_name.empty()) {
    std::string defines = tunable_defines(v) + " -D" + v.base_name + "=" + v.name;
    flags += flags.empty() ? defines : " " + defines;
  }
  const char* required = ir::info(v.backend).required_flag;
  if (required != nullptr && flags.find(required) == std::string::npos) {
    flags += (flags.empty() ? "" : " ") + std::string(required);
  }
  return flags;
}

// The compile step of variant `v`'s source `s`; a generic interface's variant compiles its
// <variant>_instances file instead, which includes every (non-OpenCL) source of the variant.
CompileStep variant_step(const ir::Variant& v, const ir::SourceFile& s, bool generic,
                         const std::string& out_dir) {
  CompileStep step;
  step.source = generic ? names::instances_file(v) : relative_to(s.path, out_dir);
  for (const ir::SourceFile& included : v.sources) {
    if (generic && !ir::is_opencl_source(included)) {
      step.depends += relative_to(included.path, out_dir) + " ";
    }
  }
  step.object = names::object_file(v.name, step.source);
  step.compiler = ir::variant_compiler(v, s);
  step.flags = variant_flags(v, s);
  step.cuda = ir::info(v.backend).code == ir::VariantCode::CudaFunction;
  step.c_language = ir::is_c_compiler(step.compiler);
  return step;
}

// One compile step per variant source. A generic interface's CPU and CUDA variants are
// compiled once, from their generated <variant>_instances file, however many instantiations
// share them.
std::vector<CompileStep> variant_steps(const ir::Application& app, const ir::Options& options,
                                       const std::string& out_dir) {
  std::vector<CompileStep> steps;
  std::set<std::string> generic_done;
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      // Kernels are built at run time; a host-side OpenCL variant's host file is compiled.
      const ir::VariantCode code = ir::info(v->backend).code;
      if (code == ir::VariantCode::Kernel && ir::host_side_source(*v) == nullptr) continue;
      const bool generic = !iface.template_args.empty();
      if (generic && !generic_done.insert(v->name).second) continue;
      for (const ir::SourceFile& s : v->sources) {
        if (ir::is_opencl_source(s)) continue;
        steps.push_back(variant_step(*v, s, generic, out_dir));
        if (generic) break;  // the instances file includes every source of the variant
      }
    }
  }
  return steps;
}

// The generated wrapper sources, compiled like the application's C++.
std::vector<CompileStep> wrapper_steps(const ir::Application& app) {
  std::vector<CompileStep> steps;
  for (const ir::Interface& iface : app.interfaces) {
    CompileStep step;
    step.source = names::wrapper_source(iface);
    step.object = names::object_file("peppher", step.source);
    step.compiler = ir::link_compiler(app);
    step.flags = "-O2 -std=c++17";
    steps.push_back(step);
  }
  return steps;
}

// The application's own sources; composed with --mpi they compile with the MPI compiler of
// their language (a C source with mpicc: mpicxx would compile it as C++).
std::vector<CompileStep> program_steps(const ir::Application& app, bool mpi,
                                       const std::vector<std::string>& main_source_flags,
                                       const std::string& out_dir) {
  std::vector<CompileStep> steps;
  for (const ir::SourceFile& s : app.sources) {
    CompileStep step;
    step.source = relative_to(s.path, out_dir);
    step.object = names::object_file(app.name, s.path);
    const std::string compiler = ir::main_source_compiler(app, s);
    step.c_language = ir::is_c_compiler(compiler);
    step.compiler = !mpi ? compiler : step.c_language ? "$(MPICC)" : "$(MPICXX)";
    step.flags = main_source_flags[steps.size()];
    steps.push_back(step);
  }
  return steps;
}

// Which generic CPU/CUDA variants get an instances file, with their instantiations.
std::vector<InstancesFile> instances_files(const ir::Application& app, const ir::Options& options,
                                           const std::string& out_dir) {
  std::vector<InstancesFile> files;
  for (const ir::Interface& iface : app.interfaces) {
    if (iface.template_args.empty()) continue;
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      if (ir::info(v->backend).code == ir::VariantCode::Kernel) continue;
      auto it = std::find_if(files.begin(), files.end(),
                             [&](const InstancesFile& f) { return f.variant->name == v->name; });
      if (it == files.end()) {
        InstancesFile f;
        f.variant = v;
        f.iface = iface.name;
        for (const ir::SourceFile& s : v->sources) {
          if (!ir::is_opencl_source(s)) f.sources.push_back(relative_to(s.path, out_dir));
        }
        it = files.insert(files.end(), f);
      }
      it->instantiations.push_back(&iface);
    }
  }
  return files;
}

// The OpenCL kernel files, each once under its run-time name (names::kernel_file): the
// Makefile and peppher.cmake copy them next to the program, where it looks first.
std::vector<KernelFile> kernel_files(const ir::Application& app, const ir::Options& options,
                                     const std::string& out_dir) {
  std::vector<KernelFile> files;
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      const ir::SourceFile* src = ir::program_source(*v);
      if (ir::info(v->backend).code != ir::VariantCode::Kernel || src == nullptr) continue;
      std::string name = names::kernel_file(*v);
      auto same = [&](const KernelFile& f) { return f.name == name; };
      if (std::none_of(files.begin(), files.end(), same)) {
        files.push_back({name, relative_to(src->path, out_dir)});
      }
    }
  }
  return files;
}

// Every file compose read for this composition (descriptors, sources, the training table).
std::vector<std::string> composition_inputs(const ir::Application& app,
                                            const std::string& out_dir) {
  std::vector<std::string> inputs;
  auto add = [&](const std::string& path) {
    if (path.empty()) return;
    std::string rel = relative_to(path, out_dir);
    if (std::find(inputs.begin(), inputs.end(), rel) == inputs.end()) inputs.push_back(rel);
  };
  add(app.descriptor_file);
  for (const ir::SourceFile& s : app.sources) add(s.path);
  if (app.table) add(app.table->file);
  for (const ir::Interface& iface : app.interfaces) {
    add(iface.descriptor_file);
    for (const ir::Variant& v : iface.variants) {
      add(v.descriptor_file);
      for (const ir::SourceFile& s : v.sources) add(s.path);
    }
  }
  return inputs;
}

LinkPlan plan_link(const ir::Application& app, const ir::Options& options,
                   const std::string& out_dir) {
  LinkPlan link;
  link.output = app.link.output.empty() ? std::string("main") : app.link.output;
  link.compiler = ir::link_compiler(app);
  link.mpi = ir::uses_mpi(app, options);
  link.c_compiler = ir::is_c_compiler(link.compiler);
  link.flags = app.link.flags;
  if (app.platform) link.platform = app.platform->name;
  // The training table lies next to main.xml.
  const fs::path main_dir = fs::path(app.descriptor_file).parent_path();
  std::string table_dir = relative_to(main_dir.empty() ? "." : main_dir.string(), out_dir);
  while (!table_dir.empty() && table_dir.back() == '/') table_dir.pop_back();
  link.table_dir = table_dir.empty() || table_dir == "." ? std::string("") : table_dir + "/";
  return link;
}

// make splits prerequisites at blanks, which no quoting undoes: the first such source in
// the Makefile's order (the host's steps, the application's first, then the CUDA ones).
std::string first_blank_source(const BuildPlan& b) {
  for (const bool cuda : {false, true}) {
    for (const std::vector<CompileStep>* steps : {&b.program, &b.wrappers, &b.variants}) {
      for (const CompileStep& s : *steps) {
        if (s.cuda == cuda && s.source.find(' ') != std::string::npos) return s.source;
      }
    }
  }
  return "";
}

}  // namespace

BuildPlan plan_build(const ir::Application& app, const ir::Options& options,
                     const std::vector<std::string>& main_source_flags,
                     const std::string& output_dir) {
  BuildPlan b;
  b.wrappers = wrapper_steps(app);
  b.variants = variant_steps(app, options, output_dir);
  b.link = plan_link(app, options, output_dir);
  b.program = program_steps(app, b.link.mpi, main_source_flags, output_dir);
  b.kernels = kernel_files(app, options, output_dir);
  b.instances = instances_files(app, options, output_dir);
  b.inputs = composition_inputs(app, output_dir);
  b.main_descriptor = fs::path(app.descriptor_file).filename().string();
  b.c_callers = ir::has_c_callers(app, options);
  b.blank_source = first_blank_source(b);
  return b;
}

}  // namespace peppher::plan
