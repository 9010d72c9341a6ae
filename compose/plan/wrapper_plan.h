// The plan stage, per interface: the decisions for its wrapper files, taken before anything
// is printed: which parameters become StarPU buffers (and how they are registered), which
// are packed by value, which variants fill which codelet slot, whether the call is
// synchronous, and how a partitioned call splits into one task per block. Typed data only
// (operand indices, extent kinds, expression trees): emit/ prints the C++.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "compose/check/predicates.h"
#include "compose/diag/diagnostics.h"
#include "compose/expr/ast.h"
#include "compose/facts/source_facts.h"
#include "compose/ir/backends.h"
#include "compose/ir/ir.h"
#include "compose/plan/kernel_args.h"
#include "compose/plan/selection_plan.h"

namespace peppher::plan {

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

/// How a buffer operand takes part in a partitioned call (FORMAT.md `partition`).
enum class SplitKind {
  None,      // shared whole by every block's task (read-only)
  Blocks,    // 1-D: blocks of at most `block` elements (a Matrix: rows)
  Blocks2D,  // Matrix: blocks of at most `block` rows by `block_cols` columns
  GridRows,  // Matrix: row blocks of at most `block` rows; task (i, j) of the 2-D grid gets i
  GridCols,  // Matrix: column blocks of at most `block_cols` columns; task (i, j) gets j
  Auto,      // `?`: the runtime's AutoSplit sizes the blocks
  Reduce,    // a Scalar/Vector/Matrix with reduction="op": a private copy per block, folded
             // in block order
};

/// What a by-value parameter holds in the task of one block of a partitioned call.
enum class BlockValue {
  Same,         // the call's value
  BlockSize,    // the block's length (elements) of buffer `of_buffer`: the parameter is
                // the numElements of that partitioned raw pointer, or a csr_nrows
  BlockOffset,  // the call's value plus the block's first element of `of_buffer` (csr_first)
};

struct Operand {
  const ir::Parameter* param = nullptr;
  OperandKind kind = OperandKind::Value;
  int buffer = -1;                             // StarPU buffer index, -1 for Value
  ir::AccessMode mode = ir::AccessMode::Read;  // buffers: how the task accesses it
  // RawVector/RawMatrix: element count and elements per row, over the call's parameters
  // (null when the descriptor gives none).
  const ir::Expression* count = nullptr;
  const ir::Expression* row_width = nullptr;
  SplitKind split = SplitKind::None;           // partitioned calls only
  const ir::Expression* block = nullptr;       // Blocks/Blocks2D/GridRows: elements (rows)
  const ir::Expression* block_cols = nullptr;  // Blocks2D/GridCols: columns per block
  BlockValue block_value = BlockValue::Same;   // Value operands of partitioned calls
  int of_buffer = -1;                          // BlockSize/BlockOffset: which buffer's blocks
  const ir::Expression* halo = nullptr;        // halo="N" (check/ accepted it): rows per side
  int halo_buffer = -1;  // halo: the buffer of the rows before a block; after: halo_buffer + 1
};

/// One buffer of the codelet: a parameter's own, or one of the two of its halo.
enum class BufferRole { Parameter, HaloBefore, HaloAfter };
struct BufferUse {
  const Operand* operand = nullptr;
  BufferRole role = BufferRole::Parameter;
};

/// What a constraint's identifier stands for when the call or its task tests it.
enum class TermKind {
  Value,     // a by-value parameter: operand `operand`'s value
  Elements,  // the element count of buffer operand `operand` (1 for a scalar or reference)
  Rows,      // M.rows of peppher::Matrix operand `operand` (of the task's block in a task)
  Cols,      // M.cols of the same
  Literal,   // known at compose time (a tunable's value, a platform property): `literal`
  Workers,   // how many workers of kind `backend` the run has (platform.num_cuda, ...)
};

struct Term {
  TermKind kind = TermKind::Literal;
  int operand = -1;  // index in WrapperPlan::operands (Value, Elements, Rows, Cols)
  check::Value literal;
  ir::Backend backend = ir::Backend::Cpu;  // Workers
  bool operator==(const Term& o) const;
};

/// One identifier of a constraint and what it stands for.
struct Binding {
  std::string name;
  Term term;
};

/// One constraint of a variant that only the call can decide: its expression tree and what
/// each identifier in it stands for. emit/ prints it once, as a helper function, which the
/// task's can_execute and the entry wrapper call (see predicate_plan.h).
struct RuntimePredicate {
  std::string label;                 // "constraint 'small': n < 1000", for comments and messages
  const expr::Node* expr = nullptr;  // owned by the constraint (ir::Expression::ast)
  std::vector<Binding> bindings;     // every identifier of `expr`
  // False when every variant has this constraint and the entry wrapper tests it: a call
  // that fails it never becomes a task, so can_execute need not test it again.
  bool in_can_execute = true;
  int helper = -1;  // index in WrapperPlan::predicate_helpers: the function that tests it
  const Term& term(const std::string& name) const;
  /// The distinct identifiers bound to a parameter or an operand's extent (the helper's
  /// parameters), in first-use order; literals and worker counts are not among them.
  std::vector<Binding> operand_bindings() const;
};

struct VariantSlot {
  const ir::Variant* variant = nullptr;
  int slot = 0;            // index in the codelet's cpu_funcs / cuda_funcs / opencl_funcs; -1: not
                           // in the codelet (a training-only variant, see ir::Variant)
  bool c_linkage = false;  // compiled by a C compiler, or found extern "C": declared so
  std::string scope;       // the namespace verification found the function in ("blas")
  std::vector<RuntimePredicate> predicates;  // constraints left to run time
  std::vector<KernelArg> kernel_args;        // OpenCL: what the wrapper passes, in order
  // OpenCL: the original tool's host-side variant (ir::host_side_source): kernel_args are
  // its host function's parameters (cl_mem for a buffer), the function launches kernels.
  bool host_side = false;
  // OpenCL: the program's source relative to the output folder (the run time's last resort
  // when the kernel file is not next to the program); "" without one.
  std::string kernel_path;
  // OpenCL: the build options of its program (opencl_build_options); "" without any.
  std::string build_options;
};

/// A parameter (or an operand's size) that constraints use, printed when no variant
/// accepts a call.
struct CheckedValue {
  std::string label;  // "n", "elements of x", or "A.rows"
  Term term;          // its value in the entry wrapper
};

/// Whether a training run (compose --train) can time the interface: every operand made from
/// the ranged parameters (a Vector from numElements, a Matrix from numElements and
/// descRowWidth, a Scalar always).
struct TrainingPlan {
  bool ranged = false;      // some parameter has range="lo..hi"
  std::string untrainable;  // why it cannot be trained, with the fix; "" when it can
};

/// What the interface's entry-wrapper header asks of the file that includes it (peppher.h).
enum class HeaderLanguage {
  C,      // plain C types and raw pointers only: the header is valid C99 and C++11
  Cxx11,  // C++ but no runtime types (references, templates): any C++ from C++11
  Cxx17,  // peppher::Vector/Matrix/Scalar: includes <peppher/runtime.h>, needs C++17
};

/// The language the entry-wrapper header of `iface` needs (a generic interface's header
/// is at least C++11: it declares a function template).
HeaderLanguage header_language(const ir::Interface& iface);

/// The compile flags of each of main's sources (in `app.sources` order; `app` checked, not
/// expanded). Programs written for the original tool compile as C++11 (its published
/// examples say -std=c++11); PEPPHER containers need C++17. When some interface takes them,
/// each of main's C++ sources compiled with an older -std=c++NN (gnu++NN) gets -std=c++17
/// (gnu++17) instead, with a warning at the source file.
std::vector<std::string> main_source_flags(const ir::Application& app, diag::Diagnostics& diag);

struct WrapperPlan {
  const ir::Interface* iface = nullptr;
  std::vector<Operand> operands;  // in parameter order
  // The variants by codelet group (ir::codelet_groups(): CPU with OPENMP, CUDA, OPENCL),
  // at ir::index(group); a backend sharing another's group (OPENMP) has an empty list. In
  // backend order, the lists give the selection order of the variants.
  std::array<std::vector<VariantSlot>, ir::kBackendCount> slots;
  bool forkjoin = false;        // an OPENMP variant exists: parallel task on combined workers
  bool synchronous = false;     // a raw pointer or no buffer at all: the call waits
  bool inline_calls = false;    // every buffer is a raw pointer (or T&) and a sequential CPU
                                // variant exists: a call whose selection picks it runs on the
                                // calling thread, with no task (runtime peppher/inline_call.h)
  bool inline_costs = false;    // the trained table (without prediction functions) predicts
                                // each variant's cost for the inline choice
  bool host_calls = false;      // every buffer is a container, or every one a raw pointer, the
                                // call is whole (not partitioned, no --mpi) and a host variant
                                // (sequential or OpenMP) exists: a call whose entry wrapper
                                // chose that variant runs it on the calling thread when no task
                                // is in flight (peppher/inline_call.h)
  bool host_calls_raw = false;  // host_calls on raw pointers: each operand is made safe for
                                // the calling thread first (prepare_inline_operand)
  bool chosen_on_host = false;  // host_calls where a variant the entry wrapper chose itself
                                // (forced, static) may run on the calling thread and the
                                // inline path does not already (an OpenMP one on raw pointers)
  HeaderLanguage header_language = HeaderLanguage::C;
  std::string user_header;   // the interface's headerFile as the wrapper header includes it
  bool c_entry = false;      // the entry wrapper has C linkage: C code calls it (a C
                             // interface of an application with C callers)
  bool partitioned = false;  // some operand has a partition: one task per block
  bool auto_split = false;   // some operand is partitioned with `?`
  bool can_execute = false;  // the codelet needs can_execute: forkjoin or run-time constraints
  bool check_call = false;   // every variant has run-time constraints: the entry wrapper
                             // tests them before submitting (non-partitioned calls)
  // can_execute tests some slot's constraint (not only the forkjoin worker kind)
  bool constraints_in_can_execute = false;
  // C callers and Vector/Matrix operands of C element types: a second entry wrapper with C
  // linkage takes the runtime's C handles (peppher_vector*, peppher_matrix*) in their place.
  bool c_containers = false;
  std::vector<CheckedValue> checked_values;
  // One per distinct test among all slots' predicates (same tree over the same values):
  // each becomes one helper function in the wrapper.
  std::vector<RuntimePredicate> predicate_helpers;
  ir::PerfModel perf_model = ir::PerfModel::None;
  SelectionPlan selection;  // forcing, static dispatch, cost model
  // How the entry wrapper uses the performance model (docs/SELECTION.md):
  bool history_model = false;         // a model of perf_model's kind (not the cost model)
  bool calibrates = false;            // a history model that has not measured every variant for a
                                      // call's data size: the entry wrapper chooses meanwhile
  bool regresses = false;             // a regression model that cannot predict a call yet, or
                                      // only beyond its measured sizes: the entry wrapper
                                      // chooses (peppher::RegressionChoice)
  bool needs_placement = false;       // the entry wrapper places the task itself
  bool uses_model = false;            // the codelet has a model (history-like or cost)
  bool model_decides_inline = false;  // a model, not the trained table, decides inline calls
  TrainingPlan training;
  std::string output_dir;  // absolute: generated paths (OpenCL kernels) are relative to it
  int nbuffers() const;
  /// Every buffer of the codelet, at its index: any number (StarPU's dyn_handles beyond
  /// STARPU_NMAXBUFS, chosen by the runtime per task).
  std::vector<BufferUse> buffers_in_order() const;
  /// The slots of b's codelet group (cpu_funcs for OPENMP).
  std::vector<VariantSlot>& slots_of(ir::Backend b) {
    return slots[ir::index(ir::info(b).codelet_group)];
  }
  const std::vector<VariantSlot>& slots_of(ir::Backend b) const {
    return slots[ir::index(ir::info(b).codelet_group)];
  }
  bool is_buffer(const Operand& o) const { return o.buffer >= 0; }
};

/// "-DBLOCK=32 -DTILE=4": the values of an expanded variant's tunables (expand/), the
/// OpenCL build options and part of the compile flags of its copy.
std::string tunable_defines(const ir::Variant& v);

/// The OpenCL build options of a variant's program: its tunables' values and, for an
/// instantiation of a generic interface, each template parameter as a macro (-DT=float),
/// then the kernel file's compile flags.
std::string opencl_build_options(const ir::Interface& iface, const ir::Variant& v);

/// `path` as a file in the folder `dir` (absolute, normalised: output_dir()) reaches it.
std::string relative_to(const std::string& path, const std::string& dir);

// How a generated file in `from_dir` includes `header`: <zlib.h> for a header under
// /usr/include or /usr/local/include, else "a/path/relative/to/from_dir.h" (absolute when
// there is none).
std::string include_spelling(const std::string& header, const std::string& from_dir);

// How a generated header in `output_dir` includes the interface's headerFile ("" without
// one): "relative/to/the/output/folder.h" (the composed folder can move with the sources),
// <zlib.h> for a header under /usr/include or /usr/local/include.
std::string user_header_include(const ir::Interface& iface, const std::string& output_dir);

/// Plans the wrapper of `iface`. Reports what cannot be generated (e.g. more variants for
/// one backend than StarPU's STARPU_MAXIMPLEMENTATIONS, or a partitioned call that writes
/// an operand it does not split) to `diags`. What the sources say (`facts`) decides the
/// C linkage of the entry wrapper and of each variant's call, a variant's namespace and
/// where a kernel takes its __local arguments.
WrapperPlan plan_wrapper(const ir::Application& app, const ir::Options& options,
                         const facts::SourceFacts& facts, const ir::Interface& iface,
                         diag::Diagnostics& diags);

}  // namespace peppher::plan
