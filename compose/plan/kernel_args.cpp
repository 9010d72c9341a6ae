// The OpenCL kernel argument list of a variant (see kernel_args.h).
#include "compose/plan/kernel_args.h"

#include <algorithm>

#include "compose/names/names.h"

namespace peppher::plan {

std::vector<KernelArg> kernel_args(const ir::Interface& iface, const ir::SourceFile& kernel_file) {
  std::vector<KernelArg> args;
  for (const ir::Parameter& p : iface.parameters) {
    const bool value = p.kind == ir::ParamKind::ScalarValue || p.kind == ir::ParamKind::StructValue;
    args.push_back(
        {&p, value ? KernelArgRole::Value : KernelArgRole::Buffer, Extent::None, p.name});
    if (kernel_file.extent_arguments && p.kind == ir::ParamKind::Vector) {
      args.push_back({&p, KernelArgRole::Extent, Extent::Size, names::vector_size(p.name)});
    } else if (kernel_file.extent_arguments && p.kind == ir::ParamKind::Matrix) {
      args.push_back({&p, KernelArgRole::Extent, Extent::Rows, names::matrix_rows(p.name)});
      args.push_back({&p, KernelArgRole::Extent, Extent::Cols, names::matrix_cols(p.name)});
      args.push_back({&p, KernelArgRole::Extent, Extent::Ld, names::matrix_ld(p.name)});
    }
    // A halo reaches the kernel as two more buffers (the block itself where there is no
    // neighbour) and their sizes, 0 there: FORMAT.md "Halos".
    if (p.halo && (p.kind == ir::ParamKind::Vector || p.kind == ir::ParamKind::Matrix)) {
      const bool matrix = p.kind == ir::ParamKind::Matrix;
      args.push_back(
          {&p, KernelArgRole::Buffer, Extent::HaloBefore, names::halo_buffer(p.name, matrix, 0)});
      args.push_back(
          {&p, KernelArgRole::Buffer, Extent::HaloAfter, names::halo_buffer(p.name, matrix, 1)});
      args.push_back(
          {&p, KernelArgRole::Extent, Extent::HaloBefore, names::halo_size(p.name, matrix, 0)});
      args.push_back(
          {&p, KernelArgRole::Extent, Extent::HaloAfter, names::halo_size(p.name, matrix, 1)});
    }
  }
  for (KernelArg& a : args) a.host_type = host_arg_type(a);
  return args;
}

void place_local_arg(std::vector<KernelArg>& args, const ir::LocalArg& arg, size_t index,
                     int elem_bytes) {
  KernelArg a;
  a.role = KernelArgRole::Local;
  a.local = arg.name;
  a.local_arg = &arg;
  a.elem_bytes = elem_bytes;
  a.host_type = host_arg_type(a);
  args.insert(args.begin() + static_cast<std::ptrdiff_t>(std::min(index, args.size())), a);
}

std::string kernel_arg_type(const KernelArg& arg) {
  switch (arg.role) {
    case KernelArgRole::Local:
      return "__local memory";
    case KernelArgRole::Extent:
      return "int";
    case KernelArgRole::Value:
      return arg.param->elem_type;
    case KernelArgRole::Buffer:  // a halo's buffer is read only
      return std::string("__global ") +
             (arg.param->is_const || arg.extent != Extent::None ? "const " : "") +
             arg.param->elem_type + " *";
  }
  return "";
}

std::string host_arg_type(const KernelArg& arg) {
  switch (arg.role) {
    case KernelArgRole::Buffer:
      return "cl_mem";
    case KernelArgRole::Value:
      return arg.param->type;
    case KernelArgRole::Extent:
    case KernelArgRole::Local:
      break;
  }
  return "int";
}

const char* extent_word(Extent e) {
  switch (e) {
    case Extent::Size:
      return "size";
    case Extent::Rows:
      return "rows";
    case Extent::Cols:
      return "cols";
    case Extent::Ld:
      return "ld";
    case Extent::HaloBefore:
      return "halo before the block";
    case Extent::HaloAfter:
      return "halo after the block";
    case Extent::None:
      break;
  }
  return "";
}

}  // namespace peppher::plan
