// The one place that makes generated names: files, backend wrappers, counters, programs,
// performance-model symbols, the locals of generated functions and the extents derived
// from a parameter's name. A rename is one edit here (and in the templates that spell a
// local). check/ reserves what this file makes, so no parameter collides with it.
#pragma once

#include <string>
#include <vector>

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

/// `Makefile` and `peppher.cmake`, the two ways the composition is built.
inline std::string makefile() {
  return "Makefile";
}
inline std::string cmake_file() {
  return "peppher.cmake";
}

/// `peppher_train`, the training program the Makefile links (`make train` runs it).
inline std::string trainer_program() {
  return "peppher_train";
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

/// The object file the Makefile builds from a source: `obj/<variant>/<basename>.o`.
std::string object_file(const std::string& owner, const std::string& source_path);

/// The stamp recording the compile command of `object` (`obj/<owner>/<stem>.o` ->
/// `peppher_cmd/<owner>/<stem>.cmd`): the Makefile rebuilds the object when it changes.
std::string command_stamp(const std::string& object);

/// The names the generated Makefile uses itself (folders, its own targets and files): a
/// program may not be named like one of them (check: plan/collisions).
const std::vector<std::string>& makefile_names();

// ---- Identifiers inside generated functions, beside the interface's parameters ----

/// `peppher_`: the prefix of every identifier the generated code declares next to the
/// interface's parameters (locals, helpers, counters); a parameter may not use it.
inline const char* reserved_prefix() {
  return "peppher_";
}

/// `PeppherArgs`: the struct of a task's by-value arguments.
inline const char* args_struct() {
  return "PeppherArgs";
}

/// Locals of the generated functions (the templates spell them too): the task's
/// `peppher_args`, the task or its builder `peppher_task`, a partitioned call's
/// `peppher_call`, a call's point in the trained grid `peppher_point`, the grid
/// `peppher_grid`, a worker kind `peppher_kind`, an implementation index `peppher_nimpl`.
inline const char* local_args() {
  return "peppher_args";
}
inline const char* local_task() {
  return "peppher_task";
}
inline const char* local_call() {
  return "peppher_call";
}
inline const char* local_block() {  // a partitioned call's block index
  return "peppher_b";
}
inline const char* local_point() {
  return "peppher_point";
}
inline const char* local_grid() {
  return "peppher_grid";
}
inline const char* local_kind() {
  return "peppher_kind";
}
inline const char* local_nimpl() {
  return "peppher_nimpl";
}

/// `peppher_constraint_<k>`: the helper function that tests the k-th distinct run-time
/// constraint of a wrapper (in can_execute and in the entry wrapper).
std::string predicate_helper(int k);

/// The helper's parameter for a matrix extent `M.rows` / `M.cols`: `M_rows` / `M_cols`
/// (matrix_rows / matrix_cols below; a parameter's own name otherwise).
std::string helper_parameter(const std::string& identifier);

/// Extents of a buffer parameter `p` that the generated OpenCL wrapper declares and passes
/// to the kernel after the buffer (FORMAT.md), and the utility mode's kernel skeletons
/// declare: `<p>_count` (elements, any buffer), `<p>_size` (a peppher::Vector's length),
/// `<p>_rows`, `<p>_cols`, `<p>_ld` (a peppher::Matrix's rows, columns, leading dimension).
std::string element_count(const std::string& p);
std::string vector_size(const std::string& p);
std::string matrix_rows(const std::string& p);
std::string matrix_cols(const std::string& p);
std::string matrix_ld(const std::string& p);

/// A halo operand's (halo="N", FORMAT.md "Halos") arguments after its extents in an OpenCL
/// kernel: the buffer of the halo on `side` 0 (before / above the block) or 1 (after /
/// below): `<p>_before`, `<p>_after` for a peppher::Vector, `<p>_above`, `<p>_below` for a
/// peppher::Matrix; and its size, elements or rows: `<p>_halo_before` ... `<p>_halo_below`.
std::string halo_buffer(const std::string& p, bool matrix, int side);
std::string halo_size(const std::string& p, bool matrix, int side);

/// `<p>_storage`: the training program's array behind raw pointer parameter `p`.
std::string trainer_storage(const std::string& p);

/// An identifier the generated code derives from a parameter's name, and what it is.
struct DerivedName {
  std::string name;  // e.g. "x_size"
  std::string what;  // e.g. "the length of peppher::Vector parameter 'x' ..."
};

/// Every identifier the generated code derives from parameter `p` (by its kind): the
/// extents above and the trainer's storage. check/ reports a parameter named like one.
std::vector<DerivedName> derived_names(const ir::Parameter& p);

}  // namespace peppher::names
