// The composer's intermediate representation: plain structs owning strings and enums,
// filled by the reader (read/), completed by exploration and resolution (explore/, check/),
// and consumed read-only by later stages (expand, compose, emit). No XML types in here.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/training_table.h"
#include "compose/expr/ast.h"

namespace peppher::ir {

// Where a node came from: file as given to / derived by the composer, 1-based line:col.
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
};

// An expression attribute: the text as written, where the value starts in the file (so a
// diagnostic can point at a column inside it), and the parsed tree (null if it failed to
// parse; an error has then been reported).
struct Expression {
  std::string text;                       // decoded value, e.g. "size < 5000"
  SourceLoc loc;                          // where text starts in the file
  std::string raw;                        // spelling in the file (entities undecoded), for loc_at()
  std::shared_ptr<const expr::Node> ast;  // filled by resolution (check/)
};

// The file position of the character at 0-based `offset` inside e.text.
SourceLoc loc_at(const Expression& e, int offset);

enum class Backend { Cpu, OpenMp, Cuda, OpenCl };
inline constexpr Backend kAllBackends[] = {Backend::Cpu, Backend::OpenMp, Backend::Cuda,
                                           Backend::OpenCl};

enum class AccessMode { Read, Write, ReadWrite };

// How a parameter is passed, resolved from its type as written.
enum class ParamKind {
  ScalarValue,      // int, float, double, size_t, ... by value (or const T&)
  StructValue,      // any other type by value (user struct, enum, ...)
  RawPointer,       // T* / const T*: needs numElements
  Vector,           // peppher::Vector<T>&
  Matrix,           // peppher::Matrix<T>&
  ScalarContainer,  // peppher::Scalar<T>&
  Reference,        // T& (non-const): one element, registered for the call like a pointer
};

enum class PerfModel { None, History, Regression, NLRegression };

enum class PartitionKind {
  None,      // "*" or absent
  Blocks,    // one expression: 1-D blocks of `block` elements
  Blocks2D,  // "a,b": 2-D blocks of `block` rows by `block_cols` columns
  GridRows,  // "a,*": a Matrix in row blocks of `block` rows (all columns); task (i, j) of
             // the call's 2-D grid gets row block i
  GridCols,  // "*,b": a Matrix in column blocks of `block_cols` columns (all rows); task
             // (i, j) gets column block j
  Auto,      // "?": the composer chooses
};

/// "a,b", "a,*" or "*,b": a partition of a Matrix over the call's 2-D grid of tasks.
inline bool is_grid(PartitionKind k) {
  return k == PartitionKind::Blocks2D || k == PartitionKind::GridRows ||
         k == PartitionKind::GridCols;
}

struct Partition {
  PartitionKind kind = PartitionKind::None;
  SourceLoc loc;
  Expression block;       // Blocks: elements per block; Blocks2D, GridRows: rows per block
  Expression block_cols;  // Blocks2D, GridCols: columns per block
};

// "a,*" or "*,b" as written (without blanks), for messages about a GridRows or GridCols
// partition.
std::string grid_text(const Partition& p);

// (ext) reduction="max": the operator folding the blocks' partials of a peppher::Scalar
// operand of a partitioned call (FORMAT.md `reduction`).
enum class ReductionOp { None, Sum, Prod, Min, Max };
inline constexpr ReductionOp kReductionOps[] = {ReductionOp::Sum, ReductionOp::Prod,
                                                ReductionOp::Min, ReductionOp::Max};

// CSR sparse operand: names of the parameters describing the matrix whose values this
// parameter holds (empty when not a CSR operand).
struct Csr {
  std::string nrows;
  std::string first;
  std::string row_offsets;
  std::string col_indices;
  bool present() const {
    return !nrows.empty() || !first.empty() || !row_offsets.empty() || !col_indices.empty();
  }
};

// (ext) range="lo..hi" on a scalar parameter.
struct Range {
  std::string lo;
  std::string hi;
};

struct Parameter {
  SourceLoc loc;
  std::string name;
  std::string type;  // as written, e.g. "const float *", "peppher::Vector<float> &"
  AccessMode access_mode = AccessMode::Read;
  ParamKind kind = ParamKind::ScalarValue;
  std::string elem_type;  // pointee / container element / the by-value type itself,
                          // without const; elemType="" overrides
  bool is_const = false;  // pointee or container is const
  std::optional<Expression> num_elements;
  std::optional<Expression> desc_row_width;
  Partition partition;
  // halo="N": rows (Matrix) or elements (Vector) around each block of a partitioned read
  // operand that its block's task also reads (the neighbours' boundary); absent: none.
  std::optional<Expression> halo;
  Csr csr;
  std::optional<Range> range;
  // (ext) blockFirst="first": on a partitioned operand, the by-value parameter whose value
  // each block's task receives plus the first row (Matrix, raw row blocks) or element of
  // this operand's block (empty: none).
  std::string block_first;
  // (ext) reduction="sum|prod|min|max" on a readwrite peppher::Scalar<T>&, Vector<T>& or
  // Matrix<T>&: in a partitioned call each block's task accumulates into a private copy
  // (every element starting at the operator's identity), and the copies are folded into the
  // operand in block order.
  ReductionOp reduction = ReductionOp::None;
  SourceLoc reduction_loc;  // the attribute's value
  // (expand/) On an instantiation of a generic interface: the type as written, before the
  // template arguments replaced the templateTypes in `type` and `elem_type`. Empty otherwise.
  std::string generic_type;
  // (light form) Where each fact came from, by its XML name: "declaration", "default (...)",
  // "annotation at h.h:3:40". Empty for an XML descriptor's parameter. --print-ir shows it.
  std::map<std::string, std::string> from;
};

// <peppher:compiler>: one compile (or, with type="link", the link) step.
struct CompilerStep {
  SourceLoc loc;
  std::string type;  // "" for compile, "link" for the main descriptor's link step
  std::string name;  // the compiler command, e.g. "g++", "nvcc"
  std::string version;
  std::string flags;
  std::string output;  // link step: the executable's name
};

// (ext) <peppher:localArg name="tile" size="BS*BS"/> on an OpenCL kernel's source file: the
// kernel's __local pointer parameter `name`, given `size` elements of its pointee type per
// work-group (clSetKernelArg with a size and no value).
struct LocalArg {
  SourceLoc loc;
  std::string name;
  Expression size;
};

struct SourceFile {
  SourceLoc loc;
  std::string name;  // as written in the descriptor
  std::string path;  // resolved: descriptor's folder / name (lexically normalised)
  std::string version;
  std::string language;  // "C", "C++", "CUDA", "OpenCL", ... as written
  std::string kernel;    // OpenCL: the __kernel function in this file
  // (ext) OpenCL: extentArguments="false" passes a container operand as its buffer alone,
  // without the int extents that follow it by default (kernels written for the interface's
  // own parameter list run unchanged).
  bool extent_arguments = true;
  // (ext) OpenCL launch sizes: 1 to 3 expressions each, dimension 0 first, as
  // clEnqueueNDRangeKernel takes them ("nj,ni"); empty: not given.
  std::vector<Expression> global_size;
  std::vector<Expression> local_size;
  std::vector<LocalArg> local_args;  // (ext) the kernel's __local pointer parameters
  std::string opencl_program;        // host-side OpenCL names, if given
  std::string cl_kernel;
  std::string cl_command_queue;
  CompilerStep compiler;  // empty name: no compiler given
};

struct Constraint {
  SourceLoc loc;
  std::string name;
  Expression expr;
  bool parameter_constraint = false;  // from <peppher:parameterConstraints>
};

struct Tunable {
  SourceLoc loc;
  std::string name;
  std::string type;
  std::vector<std::string> values;  // (ext) each value becomes its own variant
};

struct RequiredInterface {
  SourceLoc loc;
  std::string name;
  std::string xml_file;  // as written (may be empty: found by name among explored ones)
  std::string resolved;  // xml_file relative to the including descriptor's folder
  // (ext) instantiate="float,double" (one instantiation per type) or "float,int;double,int"
  // (';' between instantiations of a multi-parameter template): the template arguments, in
  // templateTypes order, to expand a generic interface with.
  std::vector<std::vector<std::string>> instantiate;
};

struct Variant {
  SourceLoc loc;         // the <peppher:implementation> element
  std::string name;      // the implementing C/C++ function
  std::string provides;  // provided interface name
  SourceLoc provides_loc;
  Backend backend = Backend::Cpu;
  SourceLoc backend_loc;
  std::vector<SourceFile> sources;
  std::vector<RequiredInterface> required;
  std::vector<Constraint> constraints;
  std::vector<Tunable> tunables;
  std::string prediction_function;  // (ext) empty if none
  // (ext) specializes="other": this variant is a special case of that variant of the same
  // interface (Merge's rule: the most specific accepting variant first); empty if none.
  std::string specializes;
  SourceLoc specializes_loc;
  int priority = 0;  // (ext) priority="N": among equally specific accepting variants, higher first
  bool disabled = false;            // disable="1" in the descriptor or -disableImpls
  bool disabled_by_option = false;  // true when -disableImpls (not the descriptor) did it
  std::string descriptor_file;      // the implementation descriptor's path
  // (expand/) Set on a variant made by tunable expansion: the function name as written in
  // the descriptor; `name` is then the expanded one (`<base>__BLOCK_32`) and each tunable
  // holds its one value. Empty otherwise.
  std::string base_name;
  // (expand/) Why expand/ left the variant out (then also `disabled`): its constraint is
  // false on this platform, or StarPU's slot limit. Empty otherwise.
  std::string left_out;
  // (expand/) Beyond StarPU's slot limit during --train: generated (wrapper, selector,
  // single-variant codelet) so training can time it, but not in the interface's codelet.
  bool training_only = false;
  // (light form) Where each fact came from ("file name", "default (-O2)", "annotation at
  // f_cpu.cpp:2:4"), by its XML name; empty for an XML descriptor's variant. --print-ir shows it.
  std::map<std::string, std::string> from;
};

// <peppher:genericParameter name="T" types="float,double"/>
struct GenericParameter {
  SourceLoc loc;
  std::string name;
  std::vector<std::string> types;
};

// <peppher:xmlFiles file="a.xml"/> or <peppher:xmlFiles><peppher:xmlFile file="a.xml"/>:
// an implementation descriptor named by the interface (the original tool's INFM2).
struct XmlFile {
  SourceLoc loc;
  std::string file;  // as written; explore/ resolves it
};

struct Interface {
  SourceLoc loc;
  std::string name;
  std::string descriptor_file;
  std::string imp_path;            // resolved folder of implementation descriptors
  std::vector<XmlFile> xml_files;  // listed implementation descriptors, read besides imp_path
  // (ext) headerFile: the C/C++ header declaring the function and the types its parameters
  // use; resolved (explore/), the generated wrapper header includes it.
  std::string header_file;
  SourceLoc header_loc;
  bool generic = false;  // kind="generic"
  std::vector<std::string> template_types;
  std::vector<GenericParameter> generic_parameters;
  std::vector<Parameter> parameters;
  PerfModel perf_model = PerfModel::None;  // the descriptor's switch (options may override)
  bool disable_cpu = false;
  bool disable_cuda = false;
  bool disable_opencl = false;
  std::string description;
  std::vector<std::string> performance_aspects;  // metric names, if any
  std::vector<Variant> variants;  // all variants, disabled ones included (see enabled_variants)
  // (expand/) Set on one instantiation of a generic interface: its template arguments, in
  // templateTypes order ("float"). The interface then describes sort<float>; its
  // parameters' types are substituted. Empty for a non-generic interface.
  std::vector<std::string> template_args;
};

// XPDL's sets of installed things (xpdl::system::SET in is_installed queries) and the
// platform-descriptor element that lists one item of each.
struct XpdlSet {
  const char* set;      // "libraries"
  const char* element;  // "library"
};
inline constexpr XpdlSet kXpdlSets[] = {
    {"libraries", "library"}, {"softwares", "software"}, {"oss", "os"}};

// (ext) Software a platform descriptor lists as installed: <peppher:library>,
// <peppher:software>, <peppher:os>, answering XPDL's is_installed queries.
struct InstalledItem {
  SourceLoc loc;
  std::string set;      // "libraries", "softwares", "oss"
  std::string name;     // "cublas", or XPDL's "xpdl_cublas_5_0"
  std::string version;  // "5.0"; may be empty
};

struct Platform {
  SourceLoc loc;
  std::string name;
  std::string file;
  std::map<std::string, std::string> properties;  // num_cuda -> "1", ...
  std::vector<InstalledItem> installed;
};

// (ext) The compose-time answer to one XPDL query
// `xpdl::is_installed<xpdl::system::SET,NAME>::value` (check/ fills it).
struct InstalledFact {
  std::string set;   // "libraries", "softwares", "oss"
  std::string name;  // as queried, e.g. "xpdl_cublas_5_0"
  bool installed = false;
  std::string evidence;  // what was looked at and found, for --explain
};

// (ext) <peppher:composition>: defaults the command line can override.
struct Composition {
  SourceLoc loc;
  std::string scheduler;          // e.g. "dmda"; empty: runtime default
  std::string optimization_goal;  // e.g. "time"
  PerfModel perf_model = PerfModel::None;
  bool mpi = false;   // (ext) mpi="true": distributed over StarPU-MPI, as compose --mpi
  SourceLoc mpi_loc;  // where mpi= is written
};

// Every command-line switch, after parsing (cli/options.h fills it). It travels beside the
// Application (the driver passes it to each stage that reads a switch), never inside it.
struct Options {
  std::string main_xml;
  // The light form (no main.xml): the program's sources, its link flags (-L, -l), and
  // --emit-xml DIR (write the equivalent descriptors there).
  std::vector<std::string> sources;
  std::vector<std::string> link_flags;
  std::string emit_xml_dir;
  // --components DIR (light form): every header directly in DIR is read for interfaces too,
  // beside the headers the sources include.
  std::vector<std::string> component_dirs;
  bool light_skeletons = false;  // utility mode's --light: the annotated header, no XML
  std::string output_dir;        // -o; empty: next to main.xml
  std::vector<std::string> disable_impls;
  std::vector<std::string> disable_xml_files;
  bool disable_cpu = false;
  bool disable_cuda = false;
  bool disable_opencl = false;
  PerfModel perf_model = PerfModel::None;  // None: not given on the command line
  std::string wrapper_files_ext = ".h";
  bool c_linkage = false;  // --c-linkage: C callers (also implied by a C main source)
  int verbosity = 0;       // -v=0..3
  std::vector<std::string> generate_comp_files;  // utility mode when non-empty
  std::vector<std::string> functions;            // utility mode: --functions a,b (empty: all)
  bool force = false;                            // utility mode: --force overwrites existing files
  std::vector<std::string> clang_args;           // utility mode: -I, -D and everything after `--`
  std::string compile_commands_dir;              // utility mode: -p DIR (compile_commands.json)
  bool train = false;                            // --train: compose, then make train
  bool static_dispatch = false;                  // -staticDispatch[=TABLE]
  std::string performance_table;        // its TABLE; empty: peppher_perf.<platform>.xml by main.xml
  bool explain = false;                 // --explain
  bool mpi = false;                     // --mpi: distributed execution over StarPU-MPI
  std::string explain_format = "text";  // --format=text|html (of --explain)
  bool check_only = false;              // --check
  bool print_ir = false;                // --print-ir
  bool help = false;
  bool version = false;
};

// (ext) One interface of a training run's performance table: the median time of each
// variant at each point of a grid over the context parameters (common/training_table.h).
struct TrainedInterface : perfdata::TrainedInterface {
  SourceLoc loc;
};

// (ext) peppher_perf.<platform>.xml, written by compose --train.
struct PerformanceTable {
  std::string file;
  std::string platform;
  std::vector<TrainedInterface> interfaces;
  const TrainedInterface* find(const std::string& name) const {
    for (const TrainedInterface& t : interfaces) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
};

struct Application {
  SourceLoc loc;                    // main's <peppher:implementation>
  std::string name;                 // "main"
  std::string descriptor_file;      // main.xml as given
  std::vector<SourceFile> sources;  // the application's own sources (link step excluded)
  CompilerStep link;                // from the nameless source file with <compiler type="link">
  std::vector<RequiredInterface> required;
  Backend target = Backend::Cpu;
  std::string pdl_ref;  // (ext) targetPlatform pdlRef, resolved
  Composition composition;
  std::optional<Platform> platform;
  // (ext) XPDL is_installed queries of the constraints, by identifier text (check/).
  std::map<std::string, InstalledFact> installed;
  std::vector<Interface> interfaces;  // bottom-up: an interface comes after all it requires
  // (ext) The training table: loaded for -staticDispatch, --explain, and to seed the
  // performance models when one lies next to main.xml.
  std::optional<PerformanceTable> table;
};

// Helpers for later stages.
// Whether the program is composed for StarPU-MPI (--mpi or composition mpi="true").
bool uses_mpi(const Application& app, const Options& options);
std::string display_name(const Interface& i);  // "spmv", or "sort<float>" for an instantiation
const char* to_string(Backend b);              // "CPU", "OPENMP", "CUDA", "OPENCL"
const char* to_string(AccessMode m);           // "read", "write", "readwrite"
const char* to_string(ParamKind k);            // "scalar", "struct", "pointer", "vector", "matrix",
                                               // "scalar_container", "reference"
const char* to_string(PerfModel p);            // "none", "history", "regression", "nl_regression"
const char* to_string(PartitionKind k);        // "none", "blocks", "blocks2d", "grid_rows", ...
const char* to_string(ReductionOp r);          // "none", "sum", "prod", "min", "max"

// Whether backend b is enabled for interface i under the application's options
// (command line -disableCPU etc. and the interface's disable* attributes). OPENMP follows CPU.
bool backend_enabled(const Options& options, const Interface& i, Backend b);

// The variants of i that will be generated: not disabled and on an enabled backend.
std::vector<const Variant*> enabled_variants(const Options& options, const Interface& i);

// The performance model in effect for i: command line, else the interface, else main's
// <peppher:composition>.
PerfModel effective_perf_model(const Application& app, const Options& options, const Interface& i);

/// The source file holding an OpenCL variant's kernel (the one naming `kernel`), or null.
const SourceFile* kernel_source(const Variant& v);

/// The original tool's host-side OpenCL variant: a source file of an OPENCL variant names
/// the variables its host function uses (starpu_opencl_program, cl_kernel,
/// cl_command_queue); returns that file (the host function's), or null.
const SourceFile* host_side_source(const Variant& v);

/// An OpenCL variant's program: the file naming `kernel`, else its only `.cl` file, or null.
const SourceFile* program_source(const Variant& v);

}  // namespace peppher::ir
