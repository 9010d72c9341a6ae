// Time-vs-size curves of StarPU's history-based performance models (the composed program
// with -useHistoryModels keeps one per interface under a stable symbol, which the trace
// names). StarPU's own loader reads the model file (starpu_perfmodel_load_file, as
// starpu_perfmodel_plot does) in a child process, so a file StarPU cannot parse (its parser
// aborts) is an error here, not a crash. Each implementation of each device is mapped back
// to its variant with the trace's list of the codelet's implementations.
#pragma once

#include <string>
#include <vector>

#include "common/model.h"

namespace peppher::report {

/// One entry of a history model: the mean time of implementation @p impl on one device over
/// the calls of one data size.
struct HistoryPoint {
  std::string arch;  // "cpu", "cuda", "opencl" (StarPU's device types)
  int devid = 0;
  int ncores = 1;  // > 1: a combined worker (an OPENMP variant's parallel task)
  int impl = 0;
  double bytes = 0;  // the size StarPU files the entry under (bytes of the task's data)
  double mean_us = 0, stddev_us = 0;
  unsigned samples = 0;
};

/// The entries of the model file @p path, read by StarPU. Throws ReportError when the file
/// cannot be read or StarPU cannot parse it.
std::vector<HistoryPoint> load_history_file(const std::string& path);

/// Where StarPU keeps the model of @p symbol on this machine
/// ($STARPU_HOME/.starpu/sampling/codelets/<version>/<symbol>.<hostname>, or under
/// $STARPU_PERF_MODEL_DIR), as starpu_perfmodel_load_symbol looks for it.
std::string history_model_path(const std::string& symbol);

/// The curve of @p points: one line per variant and device, labelled "<variant> on
/// <device>" from @p ref (an implementation @p ref does not list: "impl <k> on <device>").
/// The sizes are in bytes; @p source names the model file.
perfdata::Curve history_curve(const perfdata::ModelRef& ref,
                              const std::vector<HistoryPoint>& points, const std::string& source);

/// The curves of every model @p trace names whose file exists on this machine; a model
/// with no file (never calibrated here) adds a line to @p notes instead.
std::vector<perfdata::Curve> history_curves(const perfdata::Trace& trace,
                                            std::vector<std::string>& notes);

/// The curve of the model file @p path; the trace's entry for the file's symbol (the file
/// name up to its last '.', the host name) labels the variants when @p trace has one.
perfdata::Curve read_model_file_curve(const std::string& path, const perfdata::Trace* trace);

}  // namespace peppher::report
