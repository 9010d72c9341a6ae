// The backend table (backends.h): one record per ir::Backend. A new backend is one record
// here, its enum value and switches (ir.h), its sections of templates/wrapper.cpp.mustache
// and its runtime hook (docs/DESIGN.md, "Backends").
#include "compose/ir/backends.h"

#include <cassert>
#include <cctype>

namespace peppher::ir {

namespace {

BackendInfo cpu() {
  BackendInfo r;
  r.backend = Backend::Cpu;
  r.name = "CPU";
  r.label = "CPU";
  r.prefix = "cpu";
  r.inline_kind = "Cpu";
  r.codelet_group = Backend::Cpu;
  r.group_label = "CPU";
  r.slots_label = "CPU/OPENMP";
  r.where = "STARPU_CPU";
  r.worker_kind = "STARPU_CPU_WORKER";
  r.worker_count = "starpu_cpu_worker_get_count()";
  r.worker_property = "num_cpus";
  r.codelet_field = "cpu_funcs";
  r.template_key = "cpu_like";
  r.disable_switch = "disableCPU";
  r.disabled_by_option = &Options::disable_cpu;
  r.disabled_by_interface = &Interface::disable_cpu;
  r.code = VariantCode::Function;
  r.instances_suffix = "_instances.cpp";
  return r;
}

// A parallel CPU variant: CPU's codelet slots and switches, run on combined workers.
BackendInfo openmp() {
  BackendInfo r = cpu();
  r.backend = Backend::OpenMp;
  r.name = "OPENMP";
  r.label = "OpenMP";
  r.prefix = "openmp";
  r.inline_kind = "OpenMp";
  r.required_flag = "-fopenmp";
  r.parallel = true;
  return r;
}

BackendInfo cuda() {
  BackendInfo r;
  r.backend = Backend::Cuda;
  r.name = "CUDA";
  r.label = "CUDA";
  r.prefix = "cuda";
  r.inline_kind = "Cuda";
  r.codelet_group = Backend::Cuda;
  r.group_label = "CUDA";
  r.slots_label = "CUDA";
  r.where = "STARPU_CUDA";
  r.worker_kind = "STARPU_CUDA_WORKER";
  r.worker_count = "starpu_cuda_worker_get_count()";
  r.worker_property = "num_cuda";
  r.codelet_field = "cuda_funcs";
  r.template_key = "cuda";
  r.accelerator = true;
  r.disable_switch = "disableCUDA";
  r.disabled_by_option = &Options::disable_cuda;
  r.disabled_by_interface = &Interface::disable_cuda;
  r.code = VariantCode::CudaFunction;
  r.default_compiler = "nvcc";
  r.instances_suffix = "_instances.cu";
  return r;
}

BackendInfo opencl() {
  BackendInfo r;
  r.backend = Backend::OpenCl;
  r.name = "OPENCL";
  r.label = "OpenCL";
  r.prefix = "opencl";
  r.inline_kind = "OpenCl";
  r.codelet_group = Backend::OpenCl;
  r.group_label = "OpenCL";
  r.slots_label = "OPENCL";
  r.where = "STARPU_OPENCL";
  r.worker_kind = "STARPU_OPENCL_WORKER";
  r.worker_count = "starpu_opencl_worker_get_count()";
  r.worker_property = "num_opencl";
  r.codelet_field = "opencl_funcs";
  r.template_key = "opencl";
  r.accelerator = true;
  r.disable_switch = "disableOpenCL";
  r.disabled_by_option = &Options::disable_opencl;
  r.disabled_by_interface = &Interface::disable_opencl;
  r.code = VariantCode::Kernel;
  r.instances_suffix = "_instances.cpp";
  return r;
}

}  // namespace

const std::vector<BackendInfo>& backends() {
  static const std::vector<BackendInfo> kTable = {cpu(), openmp(), cuda(), opencl()};
  return kTable;
}

const BackendInfo& info(Backend b) {
  const BackendInfo& r = backends().at(static_cast<size_t>(index(b)));
  assert(r.backend == b && "backends() is in ir::Backend order");
  return r;
}

const BackendInfo* find_backend(const std::string& spelling) {
  std::string upper = spelling;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const BackendInfo& r : backends()) {
    if (upper == r.name) return &r;
  }
  return nullptr;
}

std::vector<Backend> codelet_groups() {
  std::vector<Backend> out;
  for (const BackendInfo& r : backends()) {
    if (r.codelet_group == r.backend) out.push_back(r.backend);
  }
  return out;
}

bool same_codelet_group(Backend a, Backend b) {
  return info(a).codelet_group == info(b).codelet_group;
}

bool sequential_host(Backend b) {
  return info(b).code == VariantCode::Function && !info(b).parallel;
}

}  // namespace peppher::ir
