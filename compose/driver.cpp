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
#include <sstream>

#include "compose/check/check.h"
#include "compose/cli/options.h"
#include "compose/diag/diagnostics.h"
#include "compose/emit/generate.h"
#include "compose/emit/render.h"
#include "compose/expand/expand.h"
#include "compose/explain/explain.h"
#include "compose/explore/explore.h"
#include "compose/explore/paths.h"
#include "compose/facts/generic_calls.h"
#include "compose/facts/main_linkage.h"
#include "compose/facts/source_facts.h"
#include "compose/facts/starpu_callers.h"
#include "compose/ir/json.h"
#include "compose/light/emit_xml.h"
#include "compose/light/light_program.h"
#include "compose/names/names.h"
#include "compose/output/output_context.h"
#include "compose/plan/plan.h"
#include "compose/runtime_location.h"
#include "compose/utility/utility_mode.h"
#include "compose/verify/program_checks.h"
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
void check_mpi_environment(const ir::Application& app, const ir::Options& options,
                           diag::Diagnostics& diag) {
  if (!ir::uses_mpi(app, options)) return;
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
  for (const std::string* path : {&options.main_xml, &options.output_dir, &options.emit_xml_dir}) {
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

// The facts stage after expansion: what the program's and (compose, --check) the variants'
// sources say, read with Clang once. Checking the variants reports to `variant_diag`, which
// the driver shows after plan/ (as the checks over the plan that they are).
facts::SourceFacts read_source_facts(const ir::Application& expanded, const ir::Options& options,
                                     const facts::ProgramDeclarations& program,
                                     diag::Diagnostics& variant_diag) {
  facts::SourceFacts facts;
  facts.c_declared = program.c_declared;
  facts.starpu_caller = facts::source_calling_starpu(expanded);
  if (options.explain) return facts;  // compose and --check read them
  verify::VerifySettings settings;
  settings.system_include_dirs = runtime_header_dirs();
  settings.verbosity = options.verbosity;
  settings.opencl_checker = opencl_checker();
  if (const char* t = std::getenv("PEPPHER_OPENCL_CHECK_TIMEOUT"); t != nullptr && std::atoi(t) > 0)
    settings.opencl_check_timeout_s = std::atoi(t);
  facts.variants = verify::verify_variants(expanded, options, settings, variant_diag);
  return facts;
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
  // The light form (no main.xml): the interfaces from the headers the sources include.
  const bool light = light::light_form(options);
  ir::Application loaded = light ? light::load(options, diag) : explore::load(options, diag);
  if (!options.emit_xml_dir.empty()) {
    if (diag.has_errors()) return 1;
    output::OutputContext xml;
    light::emit_xml(loaded, options, options.emit_xml_dir, xml);
    output::WriteOptions write_options;
    write_options.force = options.force;
    return output::write_atomically(xml, options.emit_xml_dir, diag, write_options) ? 0 : 1;
  }
  const ir::Application app = check::resolve_and_check(std::move(loaded), options, diag);

  if (options.print_ir) {
    out << ir::to_json(app, options);
    return diag.has_errors() ? 1 : 0;
  }

  if (diag.has_errors()) return 1;
  // A C++11 main calling container interfaces compiles as C++17.
  const std::vector<std::string> main_flags = plan::main_source_flags(app, diag);
  const facts::CalledInstantiations called =
      facts::read_called_instantiations(app, options, main_flags, runtime_header_dirs());
  const ir::Application expanded = expand::expand(app, options, called, diag);
  if (diag.has_errors()) return 1;
  const facts::ProgramDeclarations program =
      facts::read_program_declarations(expanded, options, main_flags, runtime_header_dirs());
  verify::report_program_definitions(program, diag);
  if (diag.has_errors()) return 1;
  std::ostringstream variant_report;  // the variants' checks, shown when planning succeeds
  diag::Diagnostics variant_diag(variant_report);
  const facts::SourceFacts facts = read_source_facts(expanded, options, program, variant_diag);
  // --check and --explain also take the plan's decisions (their diagnostics: partitions,
  // StarPU's limits) but render and write nothing.
  const plan::ApplicationPlan plan =
      plan::plan_application(expanded, options, main_flags, facts, diag);
  if (diag.has_errors()) return 1;
  err << variant_report.str();
  if (!options.explain) verify::warn_shadowed_headers(expanded, options, diag);
  if (diag.has_errors() || variant_diag.has_errors()) return 1;
  if (options.explain) {
    if (options.explain_format == "html")
      return explain::explain_html(expanded, plan, out, err) ? 0 : 1;
    out << "the generated build uses " << starpu_in_use() << "\n";
    explain::explain(expanded, plan, out);
    return 0;
  }
  check_mpi_environment(app, options, diag);
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
