// The one place that prints the plan's typed data as C++: descriptor expressions (sizes,
// blocks), constraint terms and predicates (in a task's can_execute or in the entry
// wrapper), worker counts and StarPU access modes. Emitters put the text into templates.
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::emit::cpp {

/// `static_cast<size_t>(<e>)`: a descriptor expression (numElements, descRowWidth,
/// globalSize) over the entry wrapper's parameters. The descriptor grammar is a subset of
/// C's, so the expression's text is valid C++ as it stands.
std::string as_size(const ir::Expression& e);

/// A raw pointer's length in the entry wrapper: `e` (attribute `attr`, "numElements" or
/// "descRowWidth") computed in 64 bits (with arithmetic in it, by checked operations:
/// peppher/detail/checked_size.h) and checked by `peppher::checked_length`, which throws
/// peppher::Error naming the interface, the parameter and the expression when an operation
/// divides by zero or overflows, or the value is negative or above StarPU's 32-bit extent
/// (`extent`) or long long's range; with `pointer` (numElements), also when the pointer is
/// null but the length is not 0.
std::string checked_length(const plan::WrapperPlan& plan, const plan::Operand& o, const char* attr,
                           const ir::Expression& e, bool extent, bool pointer);

/// A block size of a partition or a halo's width (attribute `attr`) in the entry wrapper:
/// `static_cast<long long>(<e>)` for a lone name or literal; with arithmetic in it,
/// `peppher::checked_size(...)` over checked 64-bit operations, which throws peppher::Error
/// naming the interface, the parameter and the expression on a zero divisor or an overflow.
std::string as_block(const plan::WrapperPlan& plan, const plan::Operand& o, const char* attr,
                     const ir::Expression& e);

/// "STARPU_R", "STARPU_W", "STARPU_RW".
std::string starpu_mode(ir::AccessMode m);

/// "peppher::Reduction::Max" (`reduction="max"`; "" for none).
std::string reduction(ir::ReductionOp r);

/// `starpu_cpu_worker_get_count()` (CPU and OPENMP), `starpu_cuda_...`, `starpu_opencl_...`.
std::string worker_count(ir::Backend b);

/// A by-value operand inside a backend wrapper, can_execute or the cost function:
/// `peppher_args->n`.
std::string task_argument(const plan::Operand& o);

/// What `t` stands for inside can_execute (over the task's arguments and handles: a
/// partitioned call's block), as a long long (a literal keeps its type).
std::string in_task(const plan::WrapperPlan& plan, const plan::Term& t);

/// What `t` stands for inside the entry wrapper, over its parameters.
std::string in_call(const plan::WrapperPlan& plan, const plan::Term& t);

/// What `t` stands for in the entry wrapper of a partitioned call for its block
/// `peppher_b`, as that block's task will see it: a split operand's extents are the block's
/// (`peppher_call.block_rows(peppher_b, 0)`), a by-value parameter that receives a block's
/// length or offset is the block's argument; anything else as in_call.
std::string in_block(const plan::WrapperPlan& plan, const plan::Term& t);

/// A run-time predicate inside can_execute: a call of its helper function with the task's
/// values, `peppher_constraint_0(peppher_args->n)`.
std::string in_task(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p);

/// A run-time predicate inside the entry wrapper: its helper called with the parameters.
std::string in_call(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p);

/// A run-time predicate in a partitioned call's entry wrapper for block `peppher_b`.
std::string in_block(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p);

/// The parameter list of a predicate helper, `int n, long long x, long long A_rows`: a
/// by-value parameter keeps its type, element counts and matrix extents are long long.
std::string helper_parameters(const plan::WrapperPlan& plan, const plan::RuntimePredicate& h);

/// The condition a predicate helper returns, over its parameters (compose-time values and
/// worker counts written in).
std::string helper_condition(const plan::RuntimePredicate& h);

/// C text inside a string literal: `"` and `\` escaped.
std::string c_string(const std::string& s);

/// A launch size (globalSize, localSize, a localArg's size) as the OpenCL backend wrapper
/// computes it from its locals: a parameter is the task's value (a block's length in a
/// partitioned call), `M.rows` / `M.cols` the Matrix operand's extent (its block's), a
/// tunable the value of this copy of the variant. With arithmetic in it, computed by checked
/// 64-bit operations (`peppher::checked_launch_size`, which throws peppher::Error naming the
/// interface, the variant and `attr = <e>` on a zero divisor, an overflow or a negative size).
std::string launch_expr(const plan::WrapperPlan& plan, const std::string& attr,
                        const ir::Expression& e, const ir::Variant& v);

/// The OpenCL build options as a C string expression: a relative `-I` folder (compose made
/// it relative to the output folder) is taken from PEPPHER_OUTPUT_DIR, as the kernel file's
/// own path is, since the program builds its kernels in whatever folder it runs in:
/// "-I ../inc -DN=4" becomes "-I " PEPPHER_OUTPUT_DIR "/../inc -DN=4".
std::string build_options_expr(const std::string& options);

}  // namespace peppher::emit::cpp
