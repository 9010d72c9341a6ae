// A training run's performance table (peppher_perf.<platform>.xml, written by the runtime's
// Trainer) as plain structs, and its reader: compose uses it (-staticDispatch, --explain, the
// cost models) and peppher-report draws it (--table).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace peppher::perfdata {

/// One interface of the table: the median time of each variant at each point of a grid
/// over the context parameters (peppher/training.h).
struct TrainedInterface {
  int line = 0, col = 0;                     // where its <interface> starts in the table
  std::string name;                          // as the program names it: "spmv", "sort<float>"
  std::vector<std::string> context;          // the context parameters, grid axis order
  std::vector<std::vector<long long>> axes;  // each axis's sampled values, ascending
  std::map<std::vector<long long>, std::map<std::string, double>> us;  // point -> variant -> us
};

struct TrainingTable {
  std::string file;
  std::string platform;
  std::vector<TrainedInterface> interfaces;
};

/// What is wrong with a table, at 1-based line:col of it (line 0: the file as a whole).
struct TableProblem {
  int line = 0, col = 0;
  std::string message;
};

/// The table in `path`; nullopt (with @p problems added, in file order) when it cannot be
/// read or is malformed. A point missing from the grid is a problem: static dispatch needs
/// all.
std::optional<TrainingTable> read_training_table(const std::string& path,
                                                 std::vector<TableProblem>& problems);

}  // namespace peppher::perfdata
