// The emit stage (see generate.h): renders every planned wrapper, then the
// application-level files (peppher.h, Makefile, peppher.cmake) from the plan's BuildPlan,
// quoting its words for the shell and CMake.
#include "compose/emit/generate.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>

#include "compose/emit/render.h"
#include "compose/emit/train_emitter.h"
#include "compose/emit/wrapper_emitter.h"
#include "compose/names/names.h"
#include "compose/util/make_words.h"

namespace peppher::emit {
namespace {

using Data = TemplateData;
using plan::CompileStep;

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

// Goes into <variant>_instances.cpp (.cu): the variant's sources included, then one
// explicit instantiation per instantiation of its generic interface.
void emit_instances(const std::vector<plan::InstancesFile>& files, output::OutputContext& out) {
  for (const plan::InstancesFile& f : files) {
    Data d;
    d.set("variant", f.variant->name);
    d.set("iface", f.iface);
    d.set("sources", make_list(f.sources, [](const std::string& path) {
            Data src;
            src.set("path", path);
            return src;
          }));
    d.set("instances", make_list(f.instantiations, [&](const ir::Interface* iface) {
            Data inst;
            inst.set("callee", names::instantiated(f.variant->name, *iface));
            inst.set("params", parameter_list(*iface));
            return inst;
          }));
    out.write(names::instances_file(*f.variant), render_template("instances.cpp", d));
  }
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

std::string emit_umbrella(const plan::ApplicationPlan& plan,
                          const std::vector<UmbrellaEntry>& wrappers, const Data& composition) {
  const plan::BuildPlan& build = plan.build;
  Data d;
  d.set("composition", composition);
  d.set("main_descriptor", build.main_descriptor);
  d.set("scheduler", plan.scheduler);
  d.set("scheduler_why", plan.scheduler_why);
  d.set("mpi", build.link.mpi);
  d.set("start_in_background", flag(plan.starpu_caller.empty()));
  d.set("starpu_caller", plan.starpu_caller);
  const bool c_callers = build.c_callers;
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

// The link step's and the installation's part of the build files' data.
void link_data(const plan::LinkPlan& link, const EmitSettings& settings, Data& d) {
  d.set("output", link.output);
  d.set("link_compiler", link.mpi ? std::string("$(MPICXX)") : shell_words(link.compiler));
  d.set("mpi", link.mpi);
  d.set("mpicxx", settings.mpicxx);
  d.set("link_flags", shell_words(link.flags));
  d.set("cmake_link_flags", cmake_shell_words(link.flags));
  d.set("link_from_environment", flag(refers_to_variable(link.flags)));
  d.set("link_cxx_libs", link.c_compiler ? " -lstdc++ -lm" : "");
  d.set("peppher_cflags", settings.peppher_cflags);
  d.set("starpu_module", settings.starpu_module);
  d.set("peppher_libs", settings.peppher_libs);
  d.set("peppher_lib_file", settings.peppher_lib_file);
  d.set("nvcc", settings.nvcc);
  d.set("platform", link.platform.empty() ? std::string("$(shell uname -n)") : link.platform);
  d.set("table_dir", link.table_dir);
}

// The compile steps' part: the host's objects (the application's sources, wrappers, CPU
// variants), the CUDA ones, and the trainer's (wrappers and variants, not the application).
void steps_data(const plan::BuildPlan& build, Data& d) {
  std::vector<CompileStep> cpu_variants = build.wrappers;
  std::vector<CompileStep> cuda;
  for (const CompileStep& s : build.variants) (s.cuda ? cuda : cpu_variants).push_back(s);
  std::vector<CompileStep> host = build.program;
  host.insert(host.end(), cpu_variants.begin(), cpu_variants.end());
  d.set("objects", make_list(host, step_data));
  d.set("compile_steps", make_list(host, step_data));
  d.set("cuda_objects", make_list(cuda, step_data));
  d.set("cuda_steps", make_list(cuda, step_data));
  d.set("variant_steps", make_list(cpu_variants, step_data));
  d.set("app_steps", make_list(build.program, step_data));
  std::vector<std::string> trainer;
  for (const CompileStep& s : cpu_variants) trainer.push_back(s.object);
  const std::string trainer_object = names::object_file("peppher", names::trainer_source());
  trainer.push_back(trainer_object);
  d.set("train_objects", make_list(trainer, [](const std::string& object) {
          Data t;
          t.set("object", object);
          return t;
        }));
  d.set("trainer_source", names::trainer_source());
  d.set("trainer_object", trainer_object);
  // A source reached through a folder with a blank builds with CMake only (peppher.cmake
  // quotes every path).
  d.set("make_refused", flag(!build.blank_source.empty()));
  d.set("make_refusal", build.blank_source.empty()
                            ? std::string()
                            : "the source '" + build.blank_source +
                                  "' is reached from here through a folder with a blank, which "
                                  "make cannot hold (it splits file names at blanks); build this "
                                  "composition with CMake instead: peppher_add_composition "
                                  "(docs/CMAKE.md), or move it to folders without blanks");
}

// The data of the Makefile and peppher.cmake.
Data app_data(const plan::BuildPlan& build, const EmitSettings& settings,
              const std::vector<std::string>& generated, const std::string& composition_id) {
  Data d;
  d.set("main_descriptor", build.main_descriptor);
  link_data(build.link, settings, d);
  d.set("composition_id", composition_id);
  d.set("generated", make_list(generated, [](const std::string& f) {
          Data g;
          g.set("file", f);
          return g;
        }));
  steps_data(build, d);
  const std::string kernels_dir = names::kernels_dir(build.link.output);
  d.set("kernels_dir", kernels_dir);
  d.set("kernel_files", make_list(build.kernels, [&](const plan::KernelFile& f) {
          Data k;
          k.set("dir", kernels_dir);
          k.set("name", f.name);
          k.set("source", f.source);
          return k;
        }));
  d.set("composition_inputs", make_list(build.inputs, [](const std::string& f) {
          Data in;
          in.set("file", f);
          return in;
        }));
  return d;
}

// Renders every wrapper; returns peppher.h's entries (one per wrapper header, first seen first).
std::vector<UmbrellaEntry> emit_wrappers(const plan::ApplicationPlan& plan, const Data& composition,
                                         output::OutputContext& out) {
  std::vector<UmbrellaEntry> umbrella;
  std::map<std::string, std::vector<const plan::WrapperPlan*>> generic_instances;
  for (const plan::WrapperPlan& wrapper : plan.wrappers) {
    const ir::Interface& iface = *wrapper.iface;
    std::string header = names::wrapper_file(iface, plan.options.wrapper_files_ext);
    emit_wrapper(wrapper, header, names::wrapper_source(iface), composition, out);
    if (!iface.template_args.empty()) generic_instances[header].push_back(&wrapper);
    auto same = [&](const UmbrellaEntry& e) { return e.file == header; };
    auto entry = std::find_if(umbrella.begin(), umbrella.end(), same);
    if (entry == umbrella.end()) {
      entry = umbrella.insert(umbrella.end(), UmbrellaEntry{header, {}, plan::HeaderLanguage::C});
    }
    // A generic's instances share one header and one name.
    const std::string name = iface.template_args.empty() ? iface.name : iface.name + "<...>";
    if (std::find(entry->interfaces.begin(), entry->interfaces.end(), name) ==
        entry->interfaces.end())
      entry->interfaces.push_back(name);
    entry->language = std::max(entry->language, wrapper.header_language);
    entry->c_containers = wrapper.c_containers;
  }
  for (const auto& [header, instances] : generic_instances) {
    emit_generic_header(instances, header, composition, out);
  }
  return umbrella;
}

}  // namespace

void generate(const plan::ApplicationPlan& plan, const EmitSettings& settings,
              output::OutputContext& out) {
  const std::string folder =
      settings.composition_dir.empty() ? plan.output_dir : settings.composition_dir;
  const Data composition = composition_data(folder);
  const std::vector<UmbrellaEntry> umbrella = emit_wrappers(plan, composition, out);
  emit_instances(plan.build.instances, out);
  out.write(names::trainer_source(), emit_trainer(plan.wrappers));
  out.write(names::umbrella_header(), emit_umbrella(plan, umbrella, composition));

  std::vector<std::string> generated;
  for (const UmbrellaEntry& e : umbrella) generated.push_back(e.file);
  generated.push_back(names::umbrella_header());
  Data d = app_data(plan.build, settings, generated, composition_id(folder));
  out.write(names::makefile(), render_template("Makefile", d));
  // Every compile step's stamp: wrappers, variants, the application's sources.
  for (const std::vector<CompileStep>* steps :
       {&plan.build.wrappers, &plan.build.variants, &plan.build.program}) {
    for (const CompileStep& s : *steps) {
      out.write(names::command_stamp(s.object), command_stamp_text(s));
    }
  }
  out.write(names::cmake_file(), render_template("peppher.cmake", d));
}

}  // namespace peppher::emit
