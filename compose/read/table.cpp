// The performance table reader (see table.h): common/'s reader, its problems reported here
// and the table moved into the IR.
#include "compose/read/table.h"

#include <utility>
#include <vector>

#include "common/training_table.h"

namespace peppher::read {

std::optional<ir::PerformanceTable> read_performance_table(const std::string& path,
                                                           diag::Diagnostics& diag) {
  std::vector<perfdata::TableProblem> problems;
  std::optional<perfdata::TrainingTable> read = perfdata::read_training_table(path, problems);
  for (const perfdata::TableProblem& p : problems)
    diag.error(p.line > 0 ? ir::SourceLoc{path, p.line, p.col} : ir::SourceLoc{}, p.message);
  if (!read) return std::nullopt;
  ir::PerformanceTable table;
  table.file = read->file;
  table.platform = read->platform;
  for (perfdata::TrainedInterface& t : read->interfaces) {
    ir::TrainedInterface trained;
    trained.loc = ir::SourceLoc{path, t.line, t.col};
    static_cast<perfdata::TrainedInterface&>(trained) = std::move(t);
    table.interfaces.push_back(std::move(trained));
  }
  return table;
}

}  // namespace peppher::read
