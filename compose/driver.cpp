// Wires the composer's stages. Each stage takes the previous stage's output; nothing here
// decides anything about descriptors or code, it only sequences and reports.
#include "compose/driver.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>

#include "compose/check/check.h"
#include "compose/cli/options.h"
#include "compose/diag/diagnostics.h"
#include "compose/emit/generate.h"
#include "compose/emit/render.h"
#include "compose/expand/expand.h"
#include "compose/explain/explain.h"
#include "compose/explore/explore.h"
#include "compose/explore/paths.h"
#include "compose/explore/table.h"
#include "compose/ir/json.h"
#include "compose/names/names.h"
#include "compose/output/output_context.h"
#include "compose/plan/plan.h"
#include "compose/runtime_location.h"
#include "compose/utility/utility_mode.h"
#include "compose/verify/generic_calls.h"
#include "compose/verify/main_linkage.h"
#include "compose/verify/program_sources.h"
#include "compose/verify/verify.h"

namespace peppher {

namespace {

// The code generation stage: prints the plan (const) into `out`; it never touches the
// filesystem. A template bug is an internal error, reported, never a crash.
void generate(const plan::ApplicationPlan& plan, output::OutputContext& out,
              diag::Diagnostics& diag) {
  try {
    emit::EmitSettings settings = locate_runtime();
    settings.mpicxx = mpi_compiler();
    emit::generate(plan, settings, out);
  } catch (const emit::TemplateError& e) {
    diag.error(std::string("internal error in code generation: ") + e.what());
  }
}

// compose --train: builds and runs the generated training program (make train). make
// gets an argument vector (no shell), so no character of the output folder is special.
int train(const std::string& dir, std::ostream& err) {
  const std::vector<std::string> argv = {"make", "-s", "-C", dir, "train"};
  std::string shown;
  for (const std::string& a : argv) shown += (shown.empty() ? "" : " ") + a;
  err << "compose: training: " << shown << "\n";
  err.flush();
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execvp(cargv[0], cargv.data());
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    err << "compose: error: training failed (" << shown << " "
        << (pid < 0             ? "could not start"
            : WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                : std::string("was killed"))
        << ")\n";
    return 1;
  }
  return 0;
}

// --mpi (or mpi="true"): the program will need StarPU-MPI and an MPI compiler; say which
// is missing, at the attribute or at main's implementation for the command-line switch.
void check_mpi_environment(const ir::Application& app, diag::Diagnostics& diag) {
  if (!ir::uses_mpi(app)) return;
  const std::string problem = mpi_problem();
  if (problem.empty()) return;
  if (app.composition.mpi) {
    diag.error(app.composition.mpi_loc, "mpi=\"true\" cannot be composed here: " + problem);
  } else {
    diag.error(app.loc, "--mpi cannot be composed here: " + problem);
  }
}

// Relative paths need a working folder; one that was deleted makes every relative path
// meaningless, which is a user-facing error, not a crash.
bool working_folder_exists(const ir::Options& options, diag::Diagnostics& diag) {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (!ec && !cwd.empty()) return true;
  for (const std::string* path : {&options.main_xml, &options.output_dir}) {
    if (!path->empty() && path->front() != '/') {
      diag.error("cannot resolve the relative path '" + *path +
                 "': the working folder is "
                 "gone (" +
                 ec.message() +
                 "); run compose from an existing folder or give "
                 "absolute paths");
      return false;
    }
  }
  return true;
}

int run_compose_unguarded(const std::vector<std::string>& args, std::ostream& out,
                          std::ostream& err);

// The instantiations of generic interfaces no descriptor lists (no instantiate="...", no
// genericParameter types), read from the calls in main's C++ sources, as instantiate
// lists of the requiredInterfaces naming them: the original tool left them to the C++
// compiler.
void infer_instantiations(ir::Application& app) {
  auto listed = [&](const ir::Interface& iface) {
    for (const ir::GenericParameter& g : iface.generic_parameters)
      if (!g.types.empty()) return true;
    auto asks = [&](const ir::RequiredInterface& r) {
      return r.name == iface.name && !r.instantiate.empty();
    };
    if (std::any_of(app.required.begin(), app.required.end(), asks)) return true;
    for (const ir::Interface& i : app.interfaces)
      for (const ir::Variant& v : i.variants)
        if (std::any_of(v.required.begin(), v.required.end(), asks)) return true;
    return false;
  };
  std::vector<std::string> names;
  std::string stand_in =
      "// compose's stand-in for peppher.h: the generic interfaces the program calls\n"
      "#define PEPPHER_INITIALIZE()\n#define PEPPHER_SHUTDOWN()\n";
  for (const ir::Interface& iface : app.interfaces) {
    if (!iface.generic || iface.template_types.empty() || listed(iface)) continue;
    names.push_back(iface.name);
    std::string types, params;
    for (const std::string& t : iface.template_types) types += (types.empty() ? "" : ", ") + t;
    for (const ir::Parameter& p : iface.parameters) {
      params += (params.empty() ? "" : ", ") + p.type + " " + p.name;
      if (p.type.find("peppher::") != std::string::npos &&
          stand_in.find("<peppher/runtime.h>") == std::string::npos) {
        stand_in += "#include <peppher/runtime.h>\n";
      }
    }
    stand_in += "template <typename " + types + "> void " + iface.name + "(" + params + ");\n";
  }
  if (names.empty()) return;
  const std::vector<verify::ProgramSource> sources =
      verify::program_sources(app, runtime_header_dirs(), /*with_c=*/false);
  for (auto& [name, instantiations] : verify::called_instantiations(sources, stand_in, names)) {
    for (ir::RequiredInterface& r : app.required) {
      if (r.name != name) continue;
      r.instantiate = instantiations;
      break;
    }
  }
}

// Variant verification: each variant's source against its interface, with Clang. A
// function found extern "C" or in a namespace is declared and called so by its wrapper, a
// kernel's __local arguments are passed where it takes them.
void verify_sources(const ir::Application& expanded, plan::ApplicationPlan& plan,
                    diag::Diagnostics& diag) {
  verify::VerifySettings settings;
  settings.system_include_dirs = runtime_header_dirs();
  settings.verbosity = expanded.options.verbosity;
  verify::verify_plan(expanded, plan, settings, diag);
}

}  // namespace

// Every failure compose does not foresee (a bug, memory exhausted) is an "internal error"
// with a non-zero exit, never an abort; nothing has been written then (writing is last).
int run_compose(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    return run_compose_unguarded(args, out, err);
  } catch (const std::bad_alloc&) {
    err << "compose: internal error: out of memory\n";
  } catch (const std::exception& e) {
    err << "compose: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "compose: internal error: unknown exception\n";
  }
  return 2;
}

namespace {

int run_compose_unguarded(const std::vector<std::string>& args, std::ostream& out,
                          std::ostream& err) {
  diag::Diagnostics diag(err);
  ir::Options options;
  if (!cli::parse_options(args, options, diag)) return 1;
  if (!working_folder_exists(options, diag)) return 1;
  if (options.help) {
    out << cli::usage_text();
    return 0;
  }
  if (options.version) {
    out << cli::version_text() << "generated builds use " << starpu_in_use() << "\n";
    return 0;
  }
  if (!options.generate_comp_files.empty()) {
    utility::UtilityOptions utility = utility::utility_options(options, options.clang_args);
    utility.functions = options.functions;
    utility.force = options.force;
    utility.compile_commands_dir = options.compile_commands_dir;
    utility.system_include_dirs = runtime_header_dirs();
    return utility::run_utility_mode(utility, diag, out);
  }

  if (options.train && options.static_dispatch) {
    diag.error(
        "--train and -staticDispatch go in two runs: train first, then compose with "
        "-staticDispatch");
    return 1;
  }
  ir::Application app = explore::explore(options, diag);
  // Training measures the variants as composed without a table's influence.
  if (!diag.has_errors() && !options.train) explore::load_table(app, diag);
  check::resolve_and_check(app, diag);

  if (options.print_ir) {
    out << ir::to_json(app);
    return diag.has_errors() ? 1 : 0;
  }

  if (diag.has_errors()) return 1;
  plan::raise_cxx_standard(app, diag);  // a C++11 main calling container interfaces
  infer_instantiations(app);
  ir::Application expanded = expand::expand(app, diag);
  if (diag.has_errors()) return 1;
  const verify::ProgramDeclarations program =
      verify::read_program_declarations(expanded, runtime_header_dirs());
  verify::report_program_definitions(program, diag);
  if (diag.has_errors()) return 1;
  expanded.c_declared = program.c_declared;
  // --check and --explain also take the plan's decisions (their diagnostics: partitions,
  // StarPU's limits) but render and write nothing.
  plan::ApplicationPlan plan = plan::plan_application(expanded, diag);
  if (diag.has_errors()) return 1;
  if (!options.explain) verify_sources(expanded, plan, diag);  // compose and --check
  if (!options.explain) verify::warn_shadowed_headers(expanded, diag);
  if (diag.has_errors()) return 1;
  if (options.explain) {
    if (options.explain_format == "html") return explain::explain_html(plan, out, err) ? 0 : 1;
    out << "the generated build uses " << starpu_in_use() << "\n";
    explain::explain(plan, out);
    return 0;
  }
  check_mpi_environment(app, diag);
  if (diag.has_errors()) return 1;
  if (options.check_only) return 0;
  output::OutputContext files;
  generate(plan, files, diag);
  if (diag.has_errors()) return 1;  // nothing is written after an error
  std::string dir =
      options.output_dir.empty() ? explore::parent_dir(app.descriptor_file) : options.output_dir;
  if (dir.empty()) dir = ".";  // "compose main.xml": the current folder (make -C '' fails)
  output::WriteOptions write_options;
  write_options.force = options.force;  // replace files compose did not generate
  // Their guards refuse to build while the write is incomplete: in place before the rest.
  write_options.commit_first = {names::makefile(), names::cmake_file()};
  if (!output::write_atomically(files, dir, diag, write_options)) return 1;
  if (options.train) return train(dir, err);
  return 0;
}

}  // namespace

}  // namespace peppher
