// Maps a validated descriptor (read/doc.h) to IR pieces: interfaces with their parameters,
// implementations with their sources, compilers, constraints and tunables, platforms.
// Checks only what needs the XML (enum values, duplicates of single elements).
#include "compose/read/build.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compose/ir/backends.h"
#include "compose/util/text.h"

namespace peppher::read {
namespace {

using text::split_list;
using text::trim;

std::string value(const Doc& d, pugi::xml_node n, const char* local) {
  return d.attr(n, local).value();
}

// An expression attribute with surrounding blanks excluded from text and location.
std::optional<ir::Expression> expr_attr(const Doc& d, pugi::xml_node n, const char* local) {
  pugi::xml_attribute a = d.attr(n, local);
  if (!a) return std::nullopt;
  std::string v = a.value();
  size_t b = v.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return d.expr(a);
  size_t e = v.find_last_not_of(" \t\r\n");
  return d.expr(a, b, e - b + 1);
}

// An OpenCL launch size (globalSize, localSize): 1 to 3 comma-separated expressions,
// dimension 0 first, each located in the file. Reports an empty item or a fourth one.
std::vector<ir::Expression> launch_sizes(const Doc& d, pugi::xml_node n, const char* local) {
  std::vector<ir::Expression> out;
  pugi::xml_attribute a = d.attr(n, local);
  if (!a) return out;
  const std::string v = a.value();
  std::vector<std::pair<size_t, size_t>> items;  // [from, to) of each item
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= v.size(); ++i) {
    if (i < v.size() && (v[i] == '(' || v[i] == '{')) ++depth;
    if (i < v.size() && (v[i] == ')' || v[i] == '}')) --depth;
    if (i == v.size() || (v[i] == ',' && depth == 0)) {
      items.emplace_back(from, i);
      from = i + 1;
    }
  }
  for (size_t k = 0; k < items.size(); ++k) {
    const auto [begin, end] = items[k];
    const std::string item = v.substr(begin, end - begin);
    const size_t b = item.find_first_not_of(" \t\r\n");
    ir::Expression e = b == std::string::npos
                           ? d.expr(a, begin, 0)
                           : d.expr(a, begin + b, item.find_last_not_of(" \t\r\n") - b + 1);
    if (k == 3) {
      d.diag().error(e.loc, std::string(local) + "=\"" + v + "\" has " +
                                std::to_string(items.size()) +
                                " dimensions; an OpenCL NDRange has 1 to 3, dimension 0 first "
                                "(globalSize=\"nj,ni\" for get_global_id(0) < nj and "
                                "get_global_id(1) < ni)");
      return {};
    }
    if (b == std::string::npos) {
      d.diag().error(e.loc, std::string(local) + "=\"" + v + "\": dimension " + std::to_string(k) +
                                " is empty; give one expression per dimension, dimension 0 "
                                "first, separated by commas");
      return {};
    }
    out.push_back(std::move(e));
  }
  return out;
}

// Returns the chosen model; reports a second switch set to true.
ir::PerfModel perf_switches(const Doc& d, pugi::xml_node n, const std::string& what) {
  static const std::pair<const char*, ir::PerfModel> kSwitches[] = {
      {"useHistoryModels", ir::PerfModel::History},
      {"useRegressionModels", ir::PerfModel::Regression},
      {"useNLRegressionModels", ir::PerfModel::NLRegression}};
  ir::PerfModel chosen = ir::PerfModel::None;
  const char* chosen_name = nullptr;
  for (const auto& [name, model] : kSwitches) {
    if (!d.boolean(n, name, false)) continue;
    if (chosen_name) {
      d.diag().error(d.attr_loc(d.attr(n, name)),
                     what + " sets more than one performance model: '" + chosen_name + "' and '" +
                         name + "' (choose one)");
      continue;
    }
    chosen = model;
    chosen_name = name;
  }
  return chosen;
}

ir::Partition read_partition(const Doc& d, pugi::xml_node n) {
  ir::Partition p;
  pugi::xml_attribute a = d.attr(n, "partition");
  if (!a) return p;
  p.loc = d.value_loc(a);
  std::string v = a.value();
  std::string t = trim(v);
  if (t.empty() || t == "*") return p;
  if (t == "?" || t == "auto") {  // "auto": a keyword, never a parameter's name
    p.kind = ir::PartitionKind::Auto;
    return p;
  }
  // A comma outside parentheses separates rows from columns.
  int depth = 0;
  size_t comma = std::string::npos;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '(')
      ++depth;
    else if (v[i] == ')')
      --depth;
    else if (v[i] == ',' && depth == 0) {
      comma = i;
      break;
    }
  }
  auto part = [&](size_t from, size_t to) {
    std::string s = v.substr(from, to - from);
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return d.expr(a, from, 0);
    size_t e = s.find_last_not_of(" \t\r\n");
    return d.expr(a, from + b, e - b + 1);
  };
  if (comma == std::string::npos) {
    p.kind = ir::PartitionKind::Blocks;
    p.block = part(0, v.size());
    return p;
  }
  // "a,*" and "*,b": one dimension of the call's 2-D grid, the other whole.
  const bool all_rows = trim(v.substr(0, comma)) == "*";
  const bool all_cols = trim(v.substr(comma + 1)) == "*";
  if (all_rows && all_cols) {
    d.diag().error(p.loc, "partition=\"" + v +
                              "\" splits neither rows nor columns; write partition=\"*\" "
                              "(or leave it out) for an operand shared whole");
    return ir::Partition{};
  }
  p.kind = all_cols   ? ir::PartitionKind::GridRows
           : all_rows ? ir::PartitionKind::GridCols
                      : ir::PartitionKind::Blocks2D;
  if (!all_rows) p.block = part(0, comma);
  if (!all_cols) p.block_cols = part(comma + 1, v.size());
  return p;
}

ir::Parameter read_parameter(const Doc& d, pugi::xml_node n) {
  ir::Parameter p;
  p.loc = d.loc(n);
  p.name = trim(value(d, n, "name"));
  p.type = trim(value(d, n, "type"));
  if (d.attr(n, "type") && p.type.empty()) {
    d.diag().error(d.value_loc(d.attr(n, "type")), "parameter '" + p.name + "' has an empty type");
  }
  if (pugi::xml_attribute a = d.attr(n, "accessMode")) {
    std::string m = trim(a.value());
    if (m == "read")
      p.access_mode = ir::AccessMode::Read;
    else if (m == "write")
      p.access_mode = ir::AccessMode::Write;
    else if (m == "readwrite")
      p.access_mode = ir::AccessMode::ReadWrite;
    else {
      std::string s = diag::closest_match(m, {"read", "write", "readwrite"});
      if (m == "read_write" || m == "rw" || m == "inout") s = "readwrite";
      d.diag().error(d.value_loc(a), "unknown accessMode '" + m + "' for parameter '" + p.name +
                                         "' (expected read, write or readwrite)" +
                                         diag::did_you_mean(s));
    }
  }
  p.num_elements = expr_attr(d, n, "numElements");
  p.desc_row_width = expr_attr(d, n, "descRowWidth");
  p.elem_type = trim(value(d, n, "elemType"));
  p.partition = read_partition(d, n);
  p.halo = expr_attr(d, n, "halo");
  p.csr.nrows = trim(value(d, n, "csr_nrows"));
  p.csr.first = trim(value(d, n, "csr_first"));
  p.csr.row_offsets = trim(value(d, n, "csr_row_offsets"));
  p.csr.col_indices = trim(value(d, n, "csr_col_indices"));
  p.block_first = trim(value(d, n, "blockFirst"));
  if (pugi::xml_attribute a = d.attr(n, "reduction")) {
    const std::string r = trim(a.value());
    p.reduction_loc = d.value_loc(a);
    std::vector<std::string> spellings;
    for (ir::ReductionOp op : ir::kReductionOps) {
      spellings.emplace_back(ir::to_string(op));
      if (r == spellings.back()) p.reduction = op;
    }
    if (p.reduction == ir::ReductionOp::None) {
      std::string s = diag::closest_match_in(r, spellings);
      if (r == "+" || r == "add" || r == "plus") s = "sum";
      if (r == "*" || r == "product" || r == "mul") s = "prod";
      if (r.rfind("max", 0) == 0 || r.rfind("min", 0) == 0) s = r.substr(0, 3);  // maximum
      d.diag().error(d.value_loc(a), "unknown reduction operator '" + r + "' for parameter '" +
                                         p.name + "' (expected sum, prod, min or max)" +
                                         diag::did_you_mean(s));
    }
  }
  if (pugi::xml_attribute a = d.attr(n, "range")) {
    std::string r = trim(a.value());
    size_t dots = r.find("..");
    if (dots == std::string::npos || trim(r.substr(0, dots)).empty() ||
        trim(r.substr(dots + 2)).empty()) {
      d.diag().error(d.value_loc(a), "invalid range '" + r + "' for parameter '" + p.name +
                                         "' (expected lo..hi, e.g. 1..4096)");
    } else {
      p.range = ir::Range{trim(r.substr(0, dots)), trim(r.substr(dots + 2))};
    }
  }
  return p;
}

}  // namespace

ir::Interface build_interface(const Doc& d, pugi::xml_node n) {
  ir::Interface i;
  i.loc = d.loc(n);
  i.descriptor_file = i.loc.file;
  i.name = trim(value(d, n, "name"));
  i.imp_path = trim(value(d, n, "impPath"));
  if (pugi::xml_attribute a = d.attr(n, "headerFile")) {
    i.header_file = trim(a.value());
    i.header_loc = d.value_loc(a);
  }
  if (pugi::xml_attribute a = d.attr(n, "kind")) {
    std::string k = trim(a.value());
    if (k == "generic")
      i.generic = true;
    else if (k != "non-generic") {
      d.diag().error(d.value_loc(a),
                     "invalid kind '" + k + "' for interface '" + i.name +
                         "' (expected 'generic' or 'non-generic')" +
                         diag::did_you_mean(diag::closest_match(k, {"generic", "non-generic"})));
    }
  }
  i.template_types = split_list(value(d, n, "templateTypes"), ',');
  // The original tool had no 'kind': templateTypes alone made an interface generic.
  if (!d.attr(n, "kind") && !i.template_types.empty()) i.generic = true;
  i.perf_model = perf_switches(d, n, "interface '" + i.name + "'");
  for (ir::Backend b : ir::codelet_groups()) {  // disableCPU, disableCUDA, ...
    const ir::BackendInfo& r = ir::info(b);
    i.*r.disabled_by_interface = d.boolean(n, r.disable_switch, false);
  }
  if (pugi::xml_node ps = d.single_child(n, "parameters")) {
    for (pugi::xml_node p : d.children(ps, "parameter"))
      i.parameters.push_back(read_parameter(d, p));
  }
  if (pugi::xml_node desc = d.single_child(n, "description")) i.description = d.text(desc);
  for (pugi::xml_node pa : d.children(n, "performanceAspects")) {
    for (pugi::xml_node a : d.children(pa, "performanceAspect")) {
      i.performance_aspects.push_back(trim(value(d, a, "name")));
    }
    for (pugi::xml_node f : d.children(pa, "predictionFunction")) {
      d.diag().error(d.loc(f),
                     "a prediction function belongs in an implementation "
                     "descriptor, not in interface '" +
                         i.name + "'");
    }
  }
  for (pugi::xml_node xs : d.children(n, "xmlFiles")) {
    if (pugi::xml_attribute f = d.attr(xs, "file"))
      i.xml_files.push_back(ir::XmlFile{d.value_loc(f), trim(f.value())});
    for (pugi::xml_node x : d.children(xs, "xmlFile")) {
      if (pugi::xml_attribute f = d.attr(x, "file"))
        i.xml_files.push_back(ir::XmlFile{d.value_loc(f), trim(f.value())});
    }
  }
  for (pugi::xml_node gs : d.children(n, "genericParameters")) {
    for (pugi::xml_node g : d.children(gs, "genericParameter")) {
      i.generic_parameters.push_back(ir::GenericParameter{d.loc(g), trim(value(d, g, "name")),
                                                          split_list(value(d, g, "types"), ',')});
    }
  }
  return i;
}

namespace {

ir::SourceFile read_source_file(const Doc& d, pugi::xml_node n) {
  ir::SourceFile f;
  f.loc = d.loc(n);
  f.name = trim(value(d, n, "name"));
  f.version = trim(value(d, n, "version"));
  f.language = trim(value(d, n, "language"));
  f.kernel = trim(value(d, n, "kernel"));
  f.extent_arguments = d.boolean(n, "extentArguments", true);
  f.global_size = launch_sizes(d, n, "globalSize");
  f.local_size = launch_sizes(d, n, "localSize");
  for (pugi::xml_node l : d.children(n, "localArg")) {
    ir::LocalArg arg;
    arg.loc = d.loc(l);
    arg.name = trim(value(d, l, "name"));
    if (std::optional<ir::Expression> size = expr_attr(d, l, "size")) arg.size = std::move(*size);
    f.local_args.push_back(std::move(arg));
  }
  f.opencl_program = trim(value(d, n, "starpu_opencl_program"));
  f.cl_kernel = trim(value(d, n, "cl_kernel"));
  f.cl_command_queue = trim(value(d, n, "cl_command_queue"));
  if (pugi::xml_node comp = d.single_child(n, "compilation")) {
    if (pugi::xml_node c = d.single_child(comp, "compiler")) {
      f.compiler.loc = d.loc(c);
      if (pugi::xml_attribute t = d.attr(c, "type")) {
        f.compiler.type = trim(t.value());
        if (f.compiler.type == "compile")
          f.compiler.type.clear();
        else if (f.compiler.type != "link") {
          d.diag().error(d.value_loc(t), "invalid compiler type '" + f.compiler.type +
                                             "' (expected 'link' or 'compile')");
          f.compiler.type.clear();
        }
      }
      if (pugi::xml_node x = d.single_child(c, "name")) f.compiler.name = d.text(x);
      if (pugi::xml_node x = d.single_child(c, "version")) f.compiler.version = d.text(x);
      if (pugi::xml_node x = d.single_child(c, "flags")) f.compiler.flags = d.text(x);
      if (pugi::xml_node x = d.single_child(c, "output")) f.compiler.output = d.text(x);
    }
  }
  if (!d.attr(n, "name") && f.compiler.type != "link") {
    d.diag().error(f.loc,
                   "source file is missing required attribute 'name' (only the link "
                   "step, with <" +
                       d.qualified("compiler") +
                       " type=\"link\">, may "
                       "omit it)");
  }
  return f;
}

// Any case: the original tool's own skeletons write "CPU" and "OpenCL", its users "OpenMP",
// "Cuda", "cpu".
bool parse_backend(const std::string& s, ir::Backend& b) {
  const ir::BackendInfo* found = ir::find_backend(s);
  if (found != nullptr) b = found->backend;
  return found != nullptr;
}

void read_constraints(const Doc& d, pugi::xml_node parent, const char* local, bool param,
                      std::vector<ir::Constraint>& out) {
  for (pugi::xml_node c : d.children(parent, local)) {
    ir::Constraint k;
    k.loc = d.loc(c);
    k.name = trim(value(d, c, "name"));
    if (auto e = expr_attr(d, c, "expr")) k.expr = *e;
    k.parameter_constraint = param;
    out.push_back(std::move(k));
  }
}

// priority="N": a decimal integer (an int), else a located error and 0.
int read_priority(const Doc& d, pugi::xml_attribute a) {
  const std::string text = trim(a.value());
  size_t digits = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  bool ok = digits < text.size();
  for (size_t k = digits; k < text.size(); ++k)
    ok = ok && std::isdigit(static_cast<unsigned char>(text[k])) != 0;
  long long value = 0;
  if (ok) {
    errno = 0;
    value = std::strtoll(text.c_str(), nullptr, 10);
    ok = errno == 0 && value >= INT_MIN && value <= INT_MAX;
  }
  if (!ok) {
    d.diag().error(d.value_loc(a),
                   "priority '" + text + "' is not an integer (e.g. priority=\"2\")");
    return 0;
  }
  return static_cast<int>(value);
}

}  // namespace

Implementation build_implementation(const Doc& d, pugi::xml_node n) {
  Implementation impl;
  ir::Variant& v = impl.variant;
  v.loc = d.loc(n);
  v.descriptor_file = v.loc.file;
  v.name = trim(value(d, n, "name"));
  v.disabled = d.boolean(n, "disable", false);
  if (pugi::xml_attribute a = d.attr(n, "specializes")) {
    v.specializes = trim(a.value());
    v.specializes_loc = d.value_loc(a);
    if (v.specializes.empty())
      d.diag().error(v.specializes_loc, "'specializes' names no implementation");
  }
  if (pugi::xml_attribute a = d.attr(n, "priority")) v.priority = read_priority(d, a);
  if (pugi::xml_node sfs = d.single_child(n, "sourceFiles")) {
    for (pugi::xml_node sf : d.children(sfs, "sourceFile"))
      v.sources.push_back(read_source_file(d, sf));
  }
  if (pugi::xml_node pis = d.single_child(n, "providedInterfaces")) {
    std::vector<pugi::xml_node> all = d.children(pis, "providedInterface");
    for (size_t k = 1; k < all.size(); ++k) {
      d.diag().error(d.loc(all[k]), "implementation '" + v.name +
                                        "' provides more than one "
                                        "interface; write one implementation per interface");
    }
    if (!all.empty()) {
      v.provides = trim(value(d, all[0], "name"));
      v.provides_loc = d.loc(all[0]);
    }
  }
  if (pugi::xml_node ris = d.single_child(n, "requiredInterfaces")) {
    for (pugi::xml_node r : d.children(ris, "requiredInterface")) {
      ir::RequiredInterface ri;
      ri.loc = d.loc(r);
      ri.name = trim(value(d, r, "name"));
      ri.xml_file = trim(value(d, r, "xmlFile"));
      // "int,float": one instantiation per type; "int,char;float,char": ';' separates the
      // instantiations of a template with several parameters.
      std::string inst = value(d, r, "instantiate");
      if (inst.find(';') != std::string::npos) {
        for (const std::string& one : split_list(inst, ';'))
          ri.instantiate.push_back(split_list(one, ','));
      } else {
        for (const std::string& type : split_list(inst, ',')) ri.instantiate.push_back({type});
      }
      v.required.push_back(std::move(ri));
    }
  }
  v.backend_loc = v.loc;
  if (pugi::xml_node tp = d.single_child(n, "targetPlatform")) {
    impl.has_target = true;
    v.backend_loc = d.loc(tp);
    pugi::xml_attribute nm = d.attr(tp, "name");
    if (pugi::xml_attribute pdl = d.attr(tp, "pdlRef")) {
      impl.pdl_ref = trim(pdl.value());
      impl.pdl_ref_loc = d.value_loc(pdl);
    }
    if (nm) {
      std::string s = trim(nm.value());
      v.backend_loc = d.value_loc(nm);
      if (!parse_backend(s, v.backend)) {
        std::vector<std::string> allowed;
        std::string listed;
        for (const ir::BackendInfo& b : ir::backends()) {
          allowed.push_back(b.name);
          listed += (listed.empty() ? "" : ", ") + std::string(b.name);
        }
        std::string sug = diag::closest_match_in(s, allowed);
        d.diag().error(d.value_loc(nm), "unknown target platform '" + s +
                                            "' (allowed, in any case: " + listed + ")" +
                                            diag::did_you_mean(sug));
      }
    } else if (impl.pdl_ref.empty()) {
      d.diag().error(d.loc(tp), "element '" + d.qualified("targetPlatform") +
                                    "' needs a 'name' (CPU, OPENMP, CUDA or OPENCL) or a "
                                    "'pdlRef'");
    }
  }
  for (pugi::xml_node cs : d.children(n, "constraints")) {
    read_constraints(d, cs, "constraint", false, v.constraints);
  }
  for (pugi::xml_node cs : d.children(n, "parameterConstraints")) {
    read_constraints(d, cs, "constraint", true, v.constraints);
    read_constraints(d, cs, "parameterConstraint", true, v.constraints);
  }
  for (pugi::xml_node ts : d.children(n, "tunables")) {
    for (pugi::xml_node t : d.children(ts, "tunable")) {
      v.tunables.push_back(ir::Tunable{d.loc(t), trim(value(d, t, "name")),
                                       trim(value(d, t, "type")),
                                       split_list(value(d, t, "values"), ',')});
    }
  }
  for (pugi::xml_node pa : d.children(n, "performanceAspects")) {
    for (pugi::xml_node f : d.children(pa, "predictionFunction")) {
      if (!v.prediction_function.empty()) {
        d.diag().error(d.loc(f),
                       "implementation '" + v.name + "' names more than one prediction function");
        continue;
      }
      v.prediction_function = trim(value(d, f, "name"));
    }
  }
  if (pugi::xml_node c = d.single_child(n, "composition")) {
    ir::Composition comp;
    comp.loc = d.loc(c);
    comp.scheduler = trim(value(d, c, "scheduler"));
    comp.optimization_goal = trim(value(d, c, "optimizationGoal"));
    comp.perf_model = perf_switches(d, c, "the composition settings");
    comp.mpi = d.boolean(c, "mpi", false);
    if (pugi::xml_attribute a = d.attr(c, "mpi")) comp.mpi_loc = d.value_loc(a);
    impl.composition = comp;
  }
  return impl;
}

ir::Platform build_platform(const Doc& d, pugi::xml_node n) {
  ir::Platform p;
  p.loc = d.loc(n);
  p.file = p.loc.file;
  p.name = trim(value(d, n, "name"));
  for (pugi::xml_node prop : d.children(n, "property")) {
    std::string name = trim(value(d, prop, "name"));
    if (p.properties.count(name)) {
      d.diag().error(d.loc(prop), "platform property '" + name + "' is given twice");
    }
    p.properties[name] = trim(value(d, prop, "value"));
  }
  // What XPDL's is_installed queries ask about, in the order given.
  for (pugi::xml_node item : n.children()) {
    const std::string local = d.local_name(item);
    const char* set = nullptr;
    for (const ir::XpdlSet& s : ir::kXpdlSets) {
      if (local == s.element) set = s.set;
    }
    if (set == nullptr) continue;
    ir::InstalledItem it;
    it.loc = d.loc(item);
    it.set = set;
    it.name = trim(value(d, item, "name"));
    it.version = trim(value(d, item, "version"));
    p.installed.push_back(std::move(it));
  }
  return p;
}

}  // namespace peppher::read
