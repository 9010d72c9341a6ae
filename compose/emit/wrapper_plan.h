// Decisions for one interface's wrapper file, taken before anything is printed: which
// parameters become StarPU buffers (and how they are registered), which are packed by
// value, which variants fill which codelet slot, and whether the call is synchronous.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::emit {

/// How a parameter reaches the task.
enum class OperandKind {
  Value,            // packed into the task's argument struct
  RawVector,        // raw pointer registered as a StarPU vector for this call
  RawMatrix,        // raw pointer with descRowWidth, registered as a StarPU matrix
  Vector,           // peppher::Vector<T>: its own handle
  Matrix,           // peppher::Matrix<T>: its own handle
  ScalarContainer,  // peppher::Scalar<T>: its own handle
  Reference,        // T&: one element registered as a StarPU variable for this call
};

struct Operand {
  const ir::Parameter* param = nullptr;
  OperandKind kind = OperandKind::Value;
  int buffer = -1;           // StarPU buffer index, -1 for Value
  std::string starpu_mode;   // "STARPU_R", "STARPU_W", "STARPU_RW" for buffers
  std::string count;         // RawVector/RawMatrix: element count, as C++ over the parameters
  std::string row_width;     // RawMatrix: elements per row, as C++
};

struct VariantSlot {
  const ir::Variant* variant = nullptr;
  int slot = 0;  // index in the codelet's cpu_funcs / cuda_funcs / opencl_funcs
  bool c_linkage = false;  // compiled by a C compiler: declared extern "C"
};

/// True for a C (not C++) compiler command: gcc, cc, clang, gcc-12, /usr/bin/cc, ...
bool is_c_compiler(const std::string& command);

struct WrapperPlan {
  const ir::Interface* iface = nullptr;
  std::vector<Operand> operands;   // in parameter order
  std::vector<VariantSlot> cpu_like;  // CPU and OPENMP variants share cpu_funcs
  std::vector<VariantSlot> cuda;
  std::vector<VariantSlot> opencl;
  bool forkjoin = false;     // an OPENMP variant exists: parallel task on combined workers
  bool synchronous = false;  // a raw pointer or no buffer at all: the call waits
  ir::PerfModel perf_model = ir::PerfModel::None;
  std::string output_dir;    // absolute: generated paths (OpenCL kernels) are relative to it
  int nbuffers() const;
  bool is_buffer(const Operand& o) const { return o.buffer >= 0; }
};

/// The folder generated files go to: -o DIR, else main.xml's folder; absolute, normalised.
std::string output_dir(const ir::Application& app);

/// Plans the wrapper of `iface`. Reports what cannot be generated (e.g. more variants for
/// one backend than StarPU's STARPU_MAXIMPLEMENTATIONS) to `diags`.
WrapperPlan plan_wrapper(const ir::Application& app, const ir::Interface& iface,
                         diag::Diagnostics& diags);

}  // namespace peppher::emit
