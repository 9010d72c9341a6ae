// The reports' input, as plain structs: the execution trace the runtime wrote
// (PEPPHER_TRACE), the time-vs-size curves of trained or modelled interfaces, and compose
// --explain's verdicts. Drawn by peppher-report and compose --explain --format=html.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace peppher::perfdata {

/// One task of a component call, on one worker's track (times in microseconds).
struct TaskSpan {
  std::string iface, variant, backend, worker;
  int tid = 0;
  double ts = 0, dur = 0, submit = 0;
  long call = 0;
  int block = -1;  // -1: the call was not partitioned
  std::size_t bytes_in = 0;
};

/// One data transfer a task waited for, on one bus link's track.
struct TransferSpan {
  int tid = 0;
  double ts = 0, dur = 0;
  std::size_t bytes = 0;
  std::string src, dst, iface;
  long call = 0;
};

/// A track: a worker or a bus link.
struct Track {
  int tid = 0;
  std::string name;
};

/// StarPU's bus counters for one link over the whole run.
struct BusTotal {
  std::string src, dst;
  std::size_t bytes = 0;
  long transfers = 0;
};

/// One implementation of an interface's codelet: which variant StarPU's performance model
/// files under (device kind, implementation index).
struct ModelImpl {
  std::string variant, backend;
  std::string arch;  // "cpu" (CPU and OPENMP variants), "cuda", "opencl"
  int impl = 0;
};

/// An interface's StarPU performance model, as the trace names it.
struct ModelRef {
  std::string iface, symbol, type;  // type: "history", "regression", "nl-regression"
  std::vector<ModelImpl> impls;
};

struct Trace {
  std::string file;
  std::vector<ModelRef> models;
  std::string program;
  std::vector<Track> workers;
  std::vector<Track> links;
  std::vector<TaskSpan> tasks;
  std::vector<TransferSpan> transfers;
  std::vector<BusTotal> bus;
};

/// Time of each variant over one size axis (microseconds), from a training table or a
/// StarPU history model.
struct Curve {
  std::string iface;
  std::string axis;                                    // "n", or "bytes" for history models
  std::string source;                                  // the file it came from
  std::map<std::string, std::map<double, double>> us;  // variant -> size -> us
};

/// Why each variant of an interface was kept or left out (compose --explain).
struct ExplainedVariant {
  std::string name, backend, left_out_because;  // empty reason: kept
};
struct ExplainedInterface {
  std::string name, descriptor;
  std::vector<ExplainedVariant> variants;
  std::string note;  // trained / not trained
};

}  // namespace peppher::perfdata
