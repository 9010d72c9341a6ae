// The one place that makes generated names: files, backend wrappers, counters, programs,
// performance-model symbols. A rename is one edit here.
#pragma once

#include <string>

#include "compose/ir/ir.h"

namespace peppher::names {

/// `<iface>_wrapper<ext>`, the wrapper file of one interface (ext from -wrapperFilesExt).
std::string wrapper_file(const ir::Interface& i, const std::string& ext);

/// `<iface>_wrapper.cpp`, the wrapper source (codelet, backend and entry wrappers); for an
/// instantiation of a generic interface `<iface><instance_suffix>_wrapper.cpp`. (The
/// header is one per generic interface: wrapper_file.)
std::string wrapper_source(const ir::Interface& i);

/// "" for a plain interface; `__float` for sort<float>, `__float__int` for f<float,int>,
/// `__unsigned_int` for f<unsigned int>: keeps an instantiation's symbols and files apart.
std::string instance_suffix(const ir::Interface& i);

/// `function` as C++ names it for an instantiation of a generic interface: `sort<float>`,
/// `sort_cpu<float, int>`; `function` itself for a plain interface. (Messages and reports
/// name an interface with ir::display_name.)
std::string instantiated(const std::string& function, const ir::Interface& i);

/// The generated translation unit holding the explicit instantiations of a generic CPU or
/// CUDA variant: `<variant>_instances.cpp` (`.cu` for CUDA).
std::string instances_file(const ir::Variant& v);

/// `peppher_train.cpp`, the training program's source.
inline std::string trainer_source() {
  return "peppher_train.cpp";
}

/// `peppher.h`, the header the application includes.
inline std::string umbrella_header() {
  return "peppher.h";
}

/// The backend wrapper of a variant: `peppher_<backend>_<variant>`, e.g.
/// `peppher_cpu_scale_cpu_func` (prefixed: never clashes with a variant's own name).
std::string backend_wrapper(const ir::Variant& v);

/// The ExecutionCounter of a variant: `peppher_counter_<variant>`.
std::string counter(const ir::Variant& v);

/// The OpenClProgram object of an OpenCL variant: `peppher_program_<variant>`.
std::string opencl_program(const ir::Variant& v);

/// The run-time name of an OpenCL variant's kernel file, `<variant>.cl` (tunable copies
/// share their base variant's): the program looks it up next to itself (see the runtime's
/// locate_kernel_file), where the Makefile and peppher.cmake copy it.
std::string kernel_file(const ir::Variant& v);

/// The folder next to a program that holds its kernel files: `<program>-kernels` (the
/// runtime's locate_kernel_file looks there).
inline std::string kernels_dir(const std::string& program) {
  return program + "-kernels";
}

/// The StarPU performance-model symbol of an interface: `peppher_<iface><instance_suffix>`
/// (stable across builds, so calibration in $STARPU_HOME is reused).
std::string perf_model_symbol(const ir::Interface& i);

/// Identifiers local to generated functions. Templates spell them as well; check/ reserves
/// the `peppher_` prefix, so no parameter can shadow them.
/// `peppher_args`: the task's packed by-value arguments (PeppherArgs*).
inline const char* local_args() {
  return "peppher_args";
}
/// `peppher_task`: the task (in can_execute and the cost function) or its builder.
inline const char* local_task() {
  return "peppher_task";
}

/// The object file the Makefile builds from a source: `obj/<variant>/<basename>.o`.
std::string object_file(const std::string& owner, const std::string& source_path);

/// The stamp recording the compile command of `object` (`obj/<owner>/<stem>.o` ->
/// `peppher_cmd/<owner>/<stem>.cmd`): the Makefile rebuilds the object when it changes.
std::string command_stamp(const std::string& object);

}  // namespace peppher::names
