// Training tables as curves (see curves.h): common/'s reader, then its conversion.
#include "report/curves.h"

#include "common/curves.h"
#include "common/report_error.h"
#include "common/training_table.h"

namespace peppher::report {

std::vector<perfdata::Curve> read_table_curves(const std::string& path) {
  std::vector<perfdata::TableProblem> problems;
  std::optional<perfdata::TrainingTable> table = perfdata::read_training_table(path, problems);
  if (!table || !problems.empty()) {
    // As compose prints them ("compose: error: ..." for the file as a whole), one a line.
    std::string text;
    for (const perfdata::TableProblem& p : problems) {
      if (!text.empty()) text += '\n';
      text += p.line > 0 ? path + ':' + std::to_string(p.line) + ':' + std::to_string(p.col)
                         : std::string("compose");
      text += ": error: " + p.message;
    }
    throw perfdata::ReportError(text.empty() ? path + ": error: cannot read the training table"
                                             : text);
  }
  return perfdata::curves_of(*table);
}

}  // namespace peppher::report
