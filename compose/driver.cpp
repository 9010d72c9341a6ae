// Wires the composer's stages. Each stage takes the previous stage's output; nothing here
// decides anything about descriptors or code, it only sequences and reports.
#include "compose/driver.h"

#include <cstdlib>

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
#include "compose/output/output_context.h"
#include "compose/plan/plan.h"
#include "compose/runtime_location.h"
#include "compose/scan/utility_mode.h"

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

// compose --train: builds and runs the generated training program (make train).
int train(const std::string& dir, std::ostream& err) {
  const std::string command = "make -s -C '" + dir + "' train";
  err << "compose: training: " << command << "\n";
  err.flush();
  const int status = std::system(command.c_str());
  if (status != 0) {
    err << "compose: error: training failed (" << command << " exited with status " << status
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

}  // namespace

int run_compose(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  diag::Diagnostics diag(err);
  ir::Options options;
  if (!cli::parse_options(args, options, diag)) return 1;
  if (options.help) {
    out << cli::usage_text();
    return 0;
  }
  if (options.version) {
    out << cli::version_text();
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
  const ir::Application expanded = expand::expand(app, diag);
  if (diag.has_errors()) return 1;
  // --check and --explain also take the plan's decisions (their diagnostics: partitions,
  // StarPU's limits) but render and write nothing.
  const plan::ApplicationPlan plan = plan::plan_application(expanded, diag);
  if (diag.has_errors()) return 1;
  if (options.explain) {
    if (options.explain_format == "html") return explain::explain_html(plan, out, err) ? 0 : 1;
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
  if (!output::write_atomically(files, dir, diag)) return 1;
  if (options.train) return train(dir, err);
  return 0;
}

}  // namespace peppher
