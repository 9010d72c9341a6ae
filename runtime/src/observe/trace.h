// Internal: starting and stopping the execution trace (PEPPHER_TRACE / Config::trace_file);
// init() and shutdown() call these, trace.cpp records and writes.
#pragma once

#include <string>

namespace peppher::detail {

/// @brief Turns StarPU's task and bus profiling on and starts recording component calls;
///        the trace goes to @p path at trace_stop(). Call right after starpu_init.
void trace_start(const std::string& path);

/// @brief Stops recording and writes the Chrome trace-event JSON file (after all tasks
///        finished, before starpu_shutdown). Reports a file it cannot write on stderr.
void trace_stop();

}  // namespace peppher::detail
