// The emit stage (see generate.h): renders every planned wrapper, then the
// application-level files (peppher.h, Makefile, peppher.cmake).
#include "compose/emit/generate.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "compose/emit/render.h"
#include "compose/emit/train_emitter.h"
#include "compose/emit/wrapper_emitter.h"
#include "compose/ir/backends.h"
#include "compose/names/names.h"
#include "compose/util/make_words.h"

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
  std::string depends;  // more prerequisites, each followed by a blank: included sources
  bool cuda = false;
  bool c_language = false;
};

// A word of a recipe, quoted for the shell when it holds a character the shell would
// interpret. check/ has refused what quoting cannot protect in make (`$` other than a plain
// variable reference, `#`, quotes, backslashes, blanks), so single quotes around the
// literal text are always enough; a reference `$(LDFLAGS)` stays outside them, so make
// expands it and the shell splits its value into words, as in the original tool's Makefile.
std::string shell_word(const std::string& w) {
  size_t bad = std::string::npos;
  std::string out;
  for (const text::FlagPiece& piece : text::split_variable_references(w, &bad)) {
    const bool plain =
        !piece.variable.empty() || std::all_of(piece.text.begin(), piece.text.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) ||
                 std::string_view("_./=+,:@%-").find(c) != std::string_view::npos;
        });
    out += plain ? piece.text : "'" + piece.text + "'";
  }
  assert(bad == std::string::npos);
  return out;
}

std::string shell_words(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string w; in >> w;) out += (out.empty() ? "" : " ") + shell_word(w);
  return out;
}

// Flags for peppher.cmake's separate_arguments(UNIX_COMMAND): as in the Makefile, with each
// reference to a variable read from the environment, `$ENV{LDFLAGS}` (the Makefile's
// `$(LDFLAGS)` takes make's command line too; CMake sees the environment only).
std::string cmake_shell_words(const std::string& text) {
  size_t bad = std::string::npos;
  std::string out;
  for (const text::FlagPiece& piece : text::split_variable_references(shell_words(text), &bad)) {
    out += piece.variable.empty() ? piece.text : "$ENV{" + piece.variable + "}";
  }
  return out;
}

bool refers_to_variable(const std::string& text) {
  return text.find('$') != std::string::npos;
}

// An object's compile command, named by a hash of its text (FNV-1a, 64 bits, hex): the
// stamp records it and the Makefile's rule checks it after compiling (command_stamp_text).
std::string command_id(const CompileStep& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : s.compiler + " " + s.flags) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// The compile command of an object as its stamp records it: what, when it changes,
// rebuilds the object (the generated Makefile makes the object depend on the stamp). A
// compose that runs while make compiles the object rewrites the stamp before the object is
// done, which would leave the object newer than the stamp and built with the old command:
// the rule therefore checks, after compiling, that the stamp still names its command, and
// removes the object otherwise.
std::string command_stamp_text(const CompileStep& s) {
  return "# " + std::string(output::kGeneratedMark) + ": the compile command of\n# " + s.object +
         "; the object is rebuilt when it changes.\n# command " + command_id(s) + "\n" +
         s.compiler + " " + s.flags + "\n";
}

std::string relative_to(const std::string& path, const std::string& dir) {
  return fs::absolute(path).lexically_normal().lexically_relative(dir).string();
}

bool is_opencl_source(const ir::SourceFile& s) {
  return !s.kernel.empty() || fs::path(s.path).extension() == ".cl";
}

// The variant's own flags, with its backend's required flag (an OPENMP variant's -fopenmp). A
// variant made by tunable expansion gets its values and renames its function to its expanded name
// (-DBLOCK=32 -Dscale=scale__BLOCK_32), so each copy of the source defines its own symbol.
std::string variant_flags(const ir::Variant& v, const ir::SourceFile& s) {
  std::string flags = s.compiler.flags;
  if (!v.base_name.empty()) {
    std::string defines = plan::tunable_defines(v) + " -D" + v.base_name + "=" + v.name;
    flags += flags.empty() ? defines : " " + defines;
  }
  const char* required = ir::info(v.backend).required_flag;
  if (required != nullptr && flags.find(required) == std::string::npos) {
    flags += (flags.empty() ? "" : " ") + std::string(required);
  }
  return flags;
}

// One compile step per variant source. A generic interface's CPU and CUDA variants are
// compiled once, from their generated <variant>_instances file (emit_instances), however
// many instantiations share them.
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
        if (is_opencl_source(s)) continue;
        CompileStep step;
        step.source = generic ? names::instances_file(*v) : relative_to(s.path, out_dir);
        for (const ir::SourceFile& included : v->sources) {
          if (generic && !is_opencl_source(included)) {
            step.depends += relative_to(included.path, out_dir) + " ";
          }
        }
        step.object = names::object_file(v->name, step.source);
        step.compiler = plan::variant_compiler(*v, s);
        step.flags = variant_flags(*v, s);
        step.cuda = code == ir::VariantCode::CudaFunction;
        step.c_language = plan::is_c_compiler(step.compiler);
        steps.push_back(step);
        if (generic) break;  // the instances file includes every source of the variant
      }
    }
  }
  return steps;
}

// Goes into <variant>_instances.cpp (.cu): the variant's sources included, then one
// explicit instantiation per instantiation of its generic interface.
void emit_instances(const ir::Application& app, const ir::Options& options,
                    const std::string& out_dir, output::OutputContext& out) {
  struct Instances {
    const ir::Variant* variant = nullptr;
    std::string iface;
    std::vector<std::pair<std::string, std::string>> callee_params;
  };
  std::vector<Instances> files;  // one per generic CPU/CUDA variant, first seen first
  for (const ir::Interface& iface : app.interfaces) {
    if (iface.template_args.empty()) continue;
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      if (ir::info(v->backend).code == ir::VariantCode::Kernel) continue;
      auto it = std::find_if(files.begin(), files.end(),
                             [&](const Instances& f) { return f.variant->name == v->name; });
      if (it == files.end()) it = files.insert(files.end(), Instances{v, iface.name, {}});
      it->callee_params.emplace_back(names::instantiated(v->name, iface), parameter_list(iface));
    }
  }
  for (const Instances& f : files) {
    Data d;
    d.set("variant", f.variant->name);
    d.set("iface", f.iface);
    std::vector<std::string> sources;
    for (const ir::SourceFile& s : f.variant->sources) {
      if (!is_opencl_source(s)) sources.push_back(relative_to(s.path, out_dir));
    }
    d.set("sources", make_list(sources, [](const std::string& path) {
            Data src;
            src.set("path", path);
            return src;
          }));
    d.set("instances", make_list(f.callee_params, [](const auto& cp) {
            Data inst;
            inst.set("callee", cp.first);
            inst.set("params", cp.second);
            return inst;
          }));
    out.write(names::instances_file(*f.variant), render_template("instances.cpp", d));
  }
}

// The application's own sources; composed with --mpi they compile with the MPI compiler of
// their language (a C source with mpicc: mpicxx would compile it as C++).
std::vector<CompileStep> main_steps(const plan::ApplicationPlan& plan, const std::string& out_dir) {
  const ir::Application& app = *plan.app;
  std::vector<CompileStep> steps;
  for (const ir::SourceFile& s : app.sources) {
    CompileStep step;
    step.source = relative_to(s.path, out_dir);
    step.object = names::object_file(app.name, s.path);
    const std::string compiler = plan::main_source_compiler(app, s);
    step.c_language = plan::is_c_compiler(compiler);
    step.compiler = !ir::uses_mpi(app, plan.options) ? compiler
                    : step.c_language                ? "$(MPICC)"
                                                     : "$(MPICXX)";
    step.flags = plan.main_source_flags[steps.size()];
    steps.push_back(step);
  }
  return steps;
}

// The OpenCL kernel files, each once under its run-time name (names::kernel_file): the
// Makefile and peppher.cmake copy them next to the program, where it looks first.
std::vector<std::pair<std::string, std::string>> kernel_files(const ir::Application& app,
                                                              const ir::Options& options,
                                                              const std::string& out_dir) {
  std::vector<std::pair<std::string, std::string>> files;  // (run-time name, source)
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant* v : ir::enabled_variants(options, iface)) {
      const ir::SourceFile* src = ir::program_source(*v);
      if (ir::info(v->backend).code != ir::VariantCode::Kernel || src == nullptr) continue;
      std::string name = names::kernel_file(*v);
      auto same = [&](const auto& f) { return f.first == name; };
      if (std::none_of(files.begin(), files.end(), same)) {
        files.emplace_back(name, relative_to(src->path, out_dir));
      }
    }
  }
  return files;
}

// Every file compose read for this composition (descriptors, sources, the training table),
// relative to the output folder: peppher_add_composition reruns compose when one changes.
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

Data step_data(const CompileStep& s) {
  Data d;
  d.set("source", s.source);
  d.set("object", s.object);
  d.set("stamp", names::command_stamp(s.object));
  d.set("command_id", command_id(s));
  d.set("compiler", shell_words(s.compiler));
  d.set("flags", shell_words(s.flags));
  d.set("depends", s.depends);
  // CMake wants a ;-list of options (each passed to the compiler as one argument). Flags
  // that refer to a variable are split when CMake runs, once it has the variable's value.
  std::istringstream words(s.flags);
  std::string cmake_flags;
  for (std::string w; words >> w;) cmake_flags += (cmake_flags.empty() ? "" : ";") + w;
  const bool from_environment = refers_to_variable(s.flags);
  d.set("cmake_flags", from_environment ? std::string("${peppher_flags}") : cmake_flags);
  d.set("cmake_split", make_list(std::vector<std::string>(from_environment, s.flags),
                                 [](const std::string& flags) {
                                   Data split;
                                   split.set("flags", cmake_shell_words(flags));
                                   return split;
                                 }));
  d.set("cmake_language", s.c_language ? "C" : "CXX");
  return d;
}

// One entry-wrapper header that peppher.h includes, and the language it needs.
struct UmbrellaEntry {
  std::string file;
  std::vector<std::string> interfaces;  // display names
  plan::HeaderLanguage language = plan::HeaderLanguage::C;
  bool c_containers = false;  // C++17, but declares a C entry wrapper for C callers too
};

// The composition's identity as the preprocessor compares it: a number from its output
// folder (FNV-1a, 48 bits).
std::string composition_id(const std::string& folder) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : folder) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char id[24];
  std::snprintf(id, sizeof id, "0x%012llx",
                static_cast<unsigned long long>(hash & 0xffffffffffffULL));
  return id;
}

// The composition guard's data (templates/_composition_guard): the output folder and its id.
Data composition_data(const std::string& folder) {
  // Inside a string literal of C and C++: quotes and backslashes escaped, a '?' too (no
  // trigraph in C), other control characters in octal.
  std::string literal;
  for (unsigned char c : folder) {
    if (c == '"' || c == '\\' || c == '?') {
      literal += '\\';
      literal += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      literal += octal;
    } else {
      literal += static_cast<char>(c);
    }
  }
  Data d;
  d.set("id", composition_id(folder));
  d.set("dir", literal);
  return d;
}

// "'a', 'b' and 'c'".
std::string and_list(const std::vector<std::string>& items) {
  std::string listed;
  for (size_t k = 0; k < items.size(); ++k)
    listed += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
  return listed;
}

std::string emit_umbrella(const ir::Application& app, const std::vector<UmbrellaEntry>& wrappers,
                          const plan::ApplicationPlan& plan, const Data& composition) {
  Data d;
  d.set("composition", composition);
  d.set("main_descriptor", fs::path(app.descriptor_file).filename().string());
  d.set("scheduler", plan.scheduler);
  d.set("scheduler_why", plan.scheduler_why);
  d.set("mpi", ir::uses_mpi(app, plan.options));
  const bool c_callers = plan::has_c_callers(app, plan.options);
  d.set("c_callers", flag(c_callers));
  std::vector<std::string> cxx17;
  for (const UmbrellaEntry& w : wrappers) {
    if (w.language != plan::HeaderLanguage::Cxx17) continue;
    for (const std::string& i : w.interfaces) cxx17.push_back("'" + i + "'");
  }
  std::vector<std::string> from_c;  // of those, the ones C files call with C handles
  for (const UmbrellaEntry& w : wrappers) {
    if (!w.c_containers) continue;
    for (const std::string& i : w.interfaces) from_c.push_back("'" + i + "'");
  }
  const std::string listed = and_list(cxx17);
  d.set("any_c_containers", flag(!from_c.empty()));
  d.set("c_container_interfaces", and_list(from_c));
  d.set("any_cxx17", flag(!cxx17.empty()));
  d.set("cxx17_interfaces", (cxx17.size() == 1 ? "interface " : "interfaces ") + listed);
  d.set("cxx17_verb", cxx17.size() == 1 ? "s" : "");
  // C sources skip the C++ headers; C++ older than C++17 stops at the containers.
  d.set("cxx17_condition", c_callers ? "defined(__cplusplus) && __cplusplus < 201703L"
                                     : "!defined(__cplusplus) || __cplusplus < 201703L");
  d.set("wrappers", make_list(wrappers, [&](const UmbrellaEntry& w) {
          Data e;
          e.set("file", w.file);
          e.set("cxx_only",
                flag(c_callers && w.language != plan::HeaderLanguage::C && !w.c_containers));
          return e;
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
    step.compiler = plan::link_compiler(app);
    step.flags = "-O2 -std=c++17";
    steps.push_back(step);
  }
  return steps;
}

Data app_data(const plan::ApplicationPlan& plan, const EmitSettings& settings,
              const std::vector<std::string>& generated, const std::string& out_dir,
              const std::string& composition_id) {
  const ir::Application& app = *plan.app;
  std::vector<CompileStep> variants = variant_steps(app, plan.options, out_dir);
  const std::vector<CompileStep> wrappers = wrapper_steps(app);
  variants.insert(variants.begin(), wrappers.begin(), wrappers.end());
  std::vector<CompileStep> host = main_steps(plan, out_dir);
  std::vector<CompileStep> cuda;
  for (const CompileStep& s : variants) (s.cuda ? cuda : host).push_back(s);

  Data d;
  d.set("main_descriptor", fs::path(app.descriptor_file).filename().string());
  const std::string output = app.link.output.empty() ? std::string("main") : app.link.output;
  d.set("output", output);
  const std::string link = plan::link_compiler(app);
  d.set("link_compiler",
        ir::uses_mpi(app, plan.options) ? std::string("$(MPICXX)") : shell_words(link));
  d.set("mpi", ir::uses_mpi(app, plan.options));
  d.set("mpicxx", settings.mpicxx);
  d.set("link_flags", shell_words(app.link.flags));
  d.set("cmake_link_flags", cmake_shell_words(app.link.flags));
  d.set("link_from_environment", flag(refers_to_variable(app.link.flags)));
  // A C link step (gcc) still links the C++ runtime library.
  d.set("link_cxx_libs", plan::is_c_compiler(link) ? " -lstdc++ -lm" : "");
  d.set("peppher_cflags", settings.peppher_cflags);
  d.set("starpu_module", settings.starpu_module);
  d.set("peppher_libs", settings.peppher_libs);
  d.set("peppher_lib_file", settings.peppher_lib_file);
  d.set("nvcc", settings.nvcc);
  d.set("composition_id", composition_id);
  d.set("generated", make_list(generated, [](const std::string& f) {
          Data g;
          g.set("file", f);
          return g;
        }));
  d.set("objects", make_list(host, step_data));
  d.set("compile_steps", make_list(host, step_data));
  d.set("cuda_objects", make_list(cuda, step_data));
  d.set("cuda_steps", make_list(cuda, step_data));
  // make splits prerequisites at blanks, which no quoting undoes: a source reached through a
  // folder with a blank builds with CMake only (peppher.cmake quotes every path).
  std::string blank_path;
  for (const std::vector<CompileStep>* steps : {&host, &cuda}) {
    for (const CompileStep& s : *steps) {
      if (blank_path.empty() && s.source.find(' ') != std::string::npos) blank_path = s.source;
    }
  }
  d.set("make_refused", flag(!blank_path.empty()));
  d.set("make_refusal", blank_path.empty()
                            ? std::string()
                            : "the source '" + blank_path +
                                  "' is reached from here through a folder with a blank, which "
                                  "make cannot hold (it splits file names at blanks); build this "
                                  "composition with CMake instead: peppher_add_composition "
                                  "(docs/CMAKE.md), or move it to folders without blanks");
  std::vector<CompileStep> cpu_variants;
  for (const CompileStep& s : variants) {
    if (!s.cuda) cpu_variants.push_back(s);
  }
  d.set("variant_steps", make_list(cpu_variants, step_data));
  const std::string kernels_dir = names::kernels_dir(output);
  d.set("kernels_dir", kernels_dir);
  d.set("kernel_files", make_list(kernel_files(app, plan.options, out_dir), [&](const auto& f) {
          Data k;
          k.set("dir", kernels_dir);
          k.set("name", f.first);
          k.set("source", f.second);
          return k;
        }));
  d.set("composition_inputs", make_list(composition_inputs(app, out_dir), [](const std::string& f) {
          Data in;
          in.set("file", f);
          return in;
        }));
  std::vector<CompileStep> app_sources = main_steps(plan, out_dir);
  d.set("app_steps", make_list(app_sources, step_data));
  // Training: the trainer links the wrappers and variants, not the application's sources.
  std::vector<CompileStep> trainer = cpu_variants;
  CompileStep train_step;
  train_step.object = names::object_file("peppher", names::trainer_source());
  trainer.push_back(train_step);
  d.set("train_objects", make_list(trainer, step_data));
  d.set("trainer_source", names::trainer_source());
  d.set("trainer_object", train_step.object);
  d.set("platform", app.platform && !app.platform->name.empty() ? app.platform->name
                                                                : std::string("$(shell uname -n)"));
  fs::path main_dir = fs::path(app.descriptor_file).parent_path();
  std::string table_dir = relative_to(main_dir.empty() ? "." : main_dir.string(), out_dir);
  while (!table_dir.empty() && table_dir.back() == '/') table_dir.pop_back();
  d.set("table_dir", table_dir.empty() || table_dir == "." ? std::string("") : table_dir + "/");
  return d;
}

}  // namespace

// Every compile step of the Makefile: wrappers, variants, the application's sources.
static std::vector<CompileStep> all_steps(const plan::ApplicationPlan& plan,
                                          const std::string& out_dir) {
  const ir::Application& app = *plan.app;
  std::vector<CompileStep> steps = wrapper_steps(app);
  for (std::vector<CompileStep> more :
       {variant_steps(app, plan.options, out_dir), main_steps(plan, out_dir)}) {
    steps.insert(steps.end(), more.begin(), more.end());
  }
  return steps;
}

void generate(const plan::ApplicationPlan& plan, const EmitSettings& settings,
              output::OutputContext& out) {
  const ir::Application& app = *plan.app;
  const std::string folder =
      settings.composition_dir.empty() ? plan.output_dir : settings.composition_dir;
  const Data composition = composition_data(folder);
  std::vector<std::string> wrappers;
  std::vector<UmbrellaEntry> umbrella;
  std::map<std::string, std::vector<const ir::Interface*>> generic_instances;
  for (const plan::WrapperPlan& wrapper : plan.wrappers) {
    const ir::Interface& iface = *wrapper.iface;
    std::string header = names::wrapper_file(iface, plan.options.wrapper_files_ext);
    emit_wrapper(wrapper, header, names::wrapper_source(iface), composition, out);
    if (!iface.template_args.empty()) generic_instances[header].push_back(&iface);
    if (std::find(wrappers.begin(), wrappers.end(), header) == wrappers.end()) {
      wrappers.push_back(header);
      umbrella.push_back(UmbrellaEntry{header, {}, plan::HeaderLanguage::C});
    }
    UmbrellaEntry& entry = umbrella[static_cast<size_t>(
        std::find(wrappers.begin(), wrappers.end(), header) - wrappers.begin())];
    // A generic's instances share one header and one name.
    const std::string name = iface.template_args.empty() ? iface.name : iface.name + "<...>";
    if (std::find(entry.interfaces.begin(), entry.interfaces.end(), name) == entry.interfaces.end())
      entry.interfaces.push_back(name);
    entry.language = std::max(entry.language, wrapper.header_language);
    entry.c_containers = wrapper.c_containers;
  }
  for (const auto& [header, instances] : generic_instances) {
    emit_generic_header(instances, header, plan.output_dir, composition, out);
  }
  emit_instances(app, plan.options, plan.output_dir, out);
  out.write(names::trainer_source(), emit_trainer(plan.wrappers));
  out.write(names::umbrella_header(), emit_umbrella(app, umbrella, plan, composition));

  std::vector<std::string> generated = wrappers;
  generated.push_back(names::umbrella_header());
  Data d = app_data(plan, settings, generated, plan.output_dir, composition_id(folder));
  out.write(names::makefile(), render_template("Makefile", d));
  for (const CompileStep& s : all_steps(plan, plan.output_dir)) {
    out.write(names::command_stamp(s.object), command_stamp_text(s));
  }
  out.write(names::cmake_file(), render_template("peppher.cmake", d));
}

}  // namespace peppher::emit
