// Decisions about how each call's variant is chosen, taken with the wrapper plan: the
// variant order of the generated selector (forcing), static dispatch from the training
// table (the grid cell of a call and the ranking of variants there), and the per-arch
// cost model (prediction functions, or the table when not dispatching statically).
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::plan {

struct WrapperPlan;

/// One context parameter of the trained grid.
struct SelectionAxis {
  std::string param;                  // the scalar parameter's name
  int operand = -1;                   // its index in WrapperPlan::operands
  std::vector<long long> values;      // the trained values, ascending
  std::vector<long long> thresholds;  // a call with param >= thresholds[i] is nearer values[i+1]
};

struct SelectionPlan {
  std::vector<const ir::Variant*> variants;       // selector order: CPU/OPENMP, CUDA, OPENCL slots
  const ir::TrainedInterface* trained = nullptr;  // this interface in the table, if any
  std::string table_file;
  bool static_dispatch = false;  // the entry wrapper picks the variant from the table
  bool cost_model = false;       // a STARPU_PER_ARCH model: prediction functions or the table
  std::vector<SelectionAxis> axes;
  std::vector<std::vector<int>> rankings;    // per grid cell: selector indices, fastest first
  std::vector<std::vector<double>> cell_us;  // per grid cell: us per selector index (NaN: none)
  // Merge's rule (docs/SELECTION.md), per selector index: bit j set when the variant
  // specializes variant j (directly or through others), and its priority. `specific` when
  // either can change a choice (some variant specializes another, or priorities differ).
  std::vector<unsigned long long> specializes;
  std::vector<int> priority;
  bool specific = false;
};

/// Fills plan.selection (after slots and operands are planned). Reports a table whose
/// context is not a scalar parameter of the interface.
void plan_selection(const ir::Application& app, const ir::Options& options, WrapperPlan& plan,
                    diag::Diagnostics& diags);

}  // namespace peppher::plan
