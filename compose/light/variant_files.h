// The light form's variants found by file name: <iface>_cpu.{c,cpp}, <iface>_openmp.{c,cpp},
// <iface>_opencl.cl (or a host-side <iface>_opencl.{cpp,c} with its kernels in
// <iface>_opencl.cl), <iface>_cuda.cu in the folder named after the interface beside its
// header, else in the header's own folder; and any other <iface>_<name> source file there
// that says // PEPPHER_BACKEND(cpu|openmp|cuda|opencl): a further variant of that backend.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::light {

struct VariantFiles {
  std::string folder;                  // where they were found ("" when nowhere)
  std::vector<ir::Variant> variants;   // one per backend file, with the backend's defaults
  std::vector<ir::SourceLoc> unknown;  // <iface>_<other>.<source ext>: no backend's name
  // <iface>_<other> files whose PEPPHER_BACKEND(name) names no backend of their extension:
  // the annotation's place and its value.
  std::vector<std::pair<ir::SourceLoc, std::string>> misnamed;
};

// The variants of interface `iface` declared in `header`. `siblings` are the other
// functions the header declares: a file named after one of them (`axpy_batch_cpu.cpp`
// beside `axpy`) is theirs, not an unknown backend of `iface`.
VariantFiles variant_files(const std::string& header, const std::string& iface,
                           const std::vector<std::string>& siblings);

/// The file-name suffix of backend b's variants ("cpu", "openmp", "opencl", "cuda").
std::string suffix(ir::Backend b);

}  // namespace peppher::light
