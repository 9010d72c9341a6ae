// The pipeline wiring (the only place that knows every stage): options -> load (read,
// explore) -> check -> expand -> facts -> plan -> emit into an OutputContext -> atomic write.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace peppher {

// Runs compose with `args` (argv without the program name); normal output goes to `out`,
// diagnostics to `err`. Returns the process exit code (0 ok, 1 errors, 2 internal error).
int run_compose(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace peppher
