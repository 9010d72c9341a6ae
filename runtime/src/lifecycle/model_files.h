// StarPU's model files made to survive anything (issue 41): StarPU 1.3 and 1.4 abort on a
// history model or bus file they cannot parse, and rewrite the history models in place at shutdown,
// so one kill there stopped every later run. init() checks this host's files first; shutdown
// keeps a copy of each model while StarPU rewrites it (docs/TRACES.md, "Models").
#pragma once

#include <string>
#include <vector>

namespace peppher::detail {

/// @brief Where StarPU keeps its models (_starpu_set_perf_model_dirs: STARPU_PERF_MODEL_DIR,
///        else $STARPU_HOME/.starpu/sampling/), with a final '/'; "" when it has no home to
///        keep them in.
std::string sampling_folder();

/// @brief The host name StarPU puts in its model files' names (_starpu_gethostname:
///        STARPU_HOSTNAME, else the host's name up to its first '.').
std::string starpu_host_name();

/// @brief Why StarPU could not read the history model text @p text ("" when it can):
///        the format of its perfmodel_history.c, every value in range.
std::string history_model_problem(const std::string& text);
/// @brief The same for a bus file of kind @p kind ("config", "affinity", "latency",
///        "bandwidth"; perfmodel_bus.c).
std::string bus_file_problem(const std::string& kind, const std::string& text);

/// @brief The number of OpenCL devices this host's bus model was measured with (the
///        "Number of OpenCL devices" of its config file), or -1 when there is no such file or
///        it does not say.
int bus_model_opencl_devices();

/// @brief Before StarPU starts: makes the folders StarPU keeps its models in (it aborts
///        when it cannot); "" or why not, naming the folder and STARPU_HOME.
std::string model_folder_problem();
/// @brief Before StarPU starts: checks this host's history models and bus files (StarPU
///        1.3's and 1.4's formats, which are the same). A damaged one is restored from the
///        copy kept by the last shutdown, else set aside as NAME.damaged-<time>, with one
///        warning naming it: StarPU then learns the model or calibrates the bus again.
void check_model_files();
/// @brief Before starpu_shutdown, which rewrites the history models in place: keeps a copy
///        of each of this host's models (NAME.peppher-previous), which a kill during the
///        write leaves for check_model_files(); the paths of the copies made.
std::vector<std::string> keep_model_copies();
/// @brief After starpu_shutdown wrote the models: removes the copies.
void drop_model_copies(const std::vector<std::string>& copies) noexcept;

}  // namespace peppher::detail
