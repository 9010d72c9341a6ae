// Internal: starting and stopping the execution trace (PEPPHER_TRACE / Config::trace_file);
// init() and shutdown() call these, trace.cpp records and writes.
#pragma once

#include <cstddef>
#include <string>

namespace peppher::detail {

/// @brief Starts recording component calls into a fresh temporary next to @p path (events
///        are written as tasks end); trace_stop() renames it onto @p path. Call right after
///        starpu_init. Reports a temporary it cannot make on stderr (then nothing is traced).
void trace_start(const std::string& path);

/// @brief Stops recording and finishes the Chrome trace-event JSON file (after all tasks
///        finished, before starpu_shutdown). Reports a file it cannot write on stderr.
void trace_stop();

/// @brief For tests: how many task records the trace holds now (those of the tasks in
///        flight and of the chunks they share), independent of the number of tasks traced.
std::size_t trace_records_held();

}  // namespace peppher::detail
