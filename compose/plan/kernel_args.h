// The plan stage, per OpenCL variant: the arguments its backend wrapper passes to the
// kernel, in order. One decision, printed by the wrapper emitter and compared by variant
// verification (verify/) with the kernel's parameters in its .cl file.
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::plan {

enum class KernelArgRole {
  Buffer,  // the operand's cl_mem (pointer, container, Scalar, T&)
  Value,   // a by-value parameter
  Extent,  // an int extent after a container's buffer: size, rows, cols or ld
  Local,   // a __local pointer parameter: its size per work-group, no value (localArg)
};

/// Which extent of a container an Extent argument is; on a halo operand's Buffer and Extent
/// arguments, which side of its halo (HaloBefore: before / above the block).
enum class Extent { None, Size, Rows, Cols, Ld, HaloBefore, HaloAfter };

struct KernelArg {
  const ir::Parameter* param = nullptr;
  KernelArgRole role = KernelArgRole::Value;
  Extent extent = Extent::None;
  std::string local;  // the backend wrapper's local holding it (names.h): "x", "x_size"
  // Local: the descriptor's localArg and the size of one element of the kernel's pointee
  // type in bytes (verification reads it from the kernel); param is null.
  const ir::LocalArg* local_arg = nullptr;
  int elem_bytes = 0;
  // How a host-side OpenCL variant's function declares it (host_arg_type): "cl_mem", "int".
  std::string host_type{};
};

/// The kernel arguments of an OpenCL variant whose kernel is in `kernel_file`: operands in
/// parameter order, a Vector followed by its size and a Matrix by its rows, cols and leading
/// dimension, unless the file says extentArguments="false"; then, for an operand with a
/// halo, the buffers of the halo before and after its block and their sizes (always).
std::vector<KernelArg> kernel_args(const ir::Interface& iface, const ir::SourceFile& kernel_file);

/// Inserts the __local argument `arg` (elements of `elem_bytes` bytes) as kernel parameter
/// `index` (0-based, as clSetKernelArg counts): verification found it there in the kernel.
void place_local_arg(std::vector<KernelArg>& args, const ir::LocalArg& arg, size_t index,
                     int elem_bytes);

/// How the kernel should declare `arg`: "__global const float *", "int", "float".
std::string kernel_arg_type(const KernelArg& arg);

/// How a host-side OpenCL variant's function declares `arg`: "cl_mem" for a buffer, "int"
/// for an extent, the interface's type for a value ("float").
std::string host_arg_type(const KernelArg& arg);

/// "size", "rows", "cols" or "ld" (messages).
const char* extent_word(Extent e);

}  // namespace peppher::plan
