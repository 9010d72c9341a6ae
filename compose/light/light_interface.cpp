// Builds interfaces from scanned declarations: access modes from the types unless an
// annotation says otherwise, the other parameter facts from annotations (annotate.h), and
// variants from the files named after the interface beside the header.
#include "compose/light/light_interface.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "compose/explore/paths.h"
#include "compose/ir/backends.h"
#include "compose/light/variant_annotations.h"
#include "compose/light/variant_files.h"
#include "compose/light/xml_conflicts.h"
#include "compose/util/text.h"
#include "compose/utility/scan/scanner.h"

namespace peppher::light {
namespace {

const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> kKeys = {
      "component", "read", "write",     "readwrite", "size",        "row_width",
      "partition", "halo", "reduction", "range",     "block_first", "csr"};
  return kKeys;
}

// A fact's origin in --print-ir: "annotation at saxpy.h:3:40".
std::string annotation_at(const ir::SourceLoc& loc) {
  return "annotation at " + loc.file + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.col);
}

// The XML name of annotation `key`'s fact (for --print-ir's "from").
std::string xml_name(const std::string& key) {
  if (key == "read" || key == "write" || key == "readwrite") return "accessMode";
  if (key == "size") return "numElements";
  if (key == "row_width") return "descRowWidth";
  if (key == "block_first") return "blockFirst";
  if (key == "csr") return "csr_nrows";
  return key;
}

ir::Expression expression(const std::string& text, const ir::SourceLoc& loc) {
  ir::Expression e;
  e.text = text::trim(text);
  e.raw = e.text;
  e.loc = loc;
  return e;
}

// partition="..." as the XML reader reads it: "*", "?", "e", "a,b", "a,*", "*,b".
ir::Partition partition(const std::string& value, const ir::SourceLoc& loc,
                        diag::Diagnostics& diag) {
  ir::Partition p;
  p.loc = loc;
  const std::string v = text::trim(value);
  if (v.empty() || v == "*") return ir::Partition{};
  if (v == "?" || v == "auto") {
    p.kind = ir::PartitionKind::Auto;
    return p;
  }
  int depth = 0;
  size_t comma = std::string::npos;
  for (size_t i = 0; i < v.size() && comma == std::string::npos; ++i) {
    if (v[i] == '(') ++depth;
    if (v[i] == ')') --depth;
    if (v[i] == ',' && depth == 0) comma = i;
  }
  if (comma == std::string::npos) {
    p.kind = ir::PartitionKind::Blocks;
    p.block = expression(v, loc);
    return p;
  }
  const std::string rows = text::trim(v.substr(0, comma));
  const std::string cols = text::trim(v.substr(comma + 1));
  if (rows == "*" && cols == "*") {
    diag.error(loc, "PEPPHER_PARTITION(" + v +
                        ") splits neither rows nor columns; leave it out for an operand "
                        "shared whole");
    return ir::Partition{};
  }
  p.kind = cols == "*"   ? ir::PartitionKind::GridRows
           : rows == "*" ? ir::PartitionKind::GridCols
                         : ir::PartitionKind::Blocks2D;
  if (rows != "*") p.block = expression(rows, loc);
  if (cols != "*") p.block_cols = expression(cols, loc);
  return p;
}

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// PEPPHER_CSR(nrows, row_offsets, col_indices[, first]): the csr_* attributes' parameter names.
ir::Csr csr(const std::string& value, const std::string& param, const ir::SourceLoc& loc,
            diag::Diagnostics& diag) {
  std::vector<std::string> names;
  for (size_t from = 0;;) {
    const size_t comma = value.find(',', from);
    names.push_back(text::trim(value.substr(from, comma - from)));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  const bool named = std::all_of(names.begin(), names.end(), identifier);
  if ((names.size() != 3 && names.size() != 4) || !named) {
    diag.error(loc, "PEPPHER_CSR(" + text::trim(value) + ") on parameter '" + param +
                        "' takes 3 or 4 parameter names: PEPPHER_CSR(nrows, row_offsets, "
                        "col_indices[, first_row])");
    return {};
  }
  ir::Csr c;
  c.nrows = names[0];
  c.row_offsets = names[1];
  c.col_indices = names[2];
  if (names.size() == 4) c.first = names[3];
  return c;
}

// The facts of one parameter: the declaration's, then its annotations'.
ir::Parameter parameter(const scan::ScannedParam& s, const std::string& function,
                        diag::Diagnostics& diag) {
  ir::Parameter p;
  p.loc = s.loc;
  p.name = s.name;
  p.type = s.type;
  const bool mutable_referee =
      (s.shape == scan::ParamShape::Pointer || s.shape == scan::ParamShape::LValueReference) &&
      !s.pointee_const;
  p.access_mode = mutable_referee ? ir::AccessMode::ReadWrite : ir::AccessMode::Read;
  p.from["name"] = "declaration";
  p.from["type"] = "declaration";
  p.from["accessMode"] = mutable_referee ? "default (a non-const pointer or reference: readwrite)"
                                         : "default (const or by value: read)";
  if (s.shape == scan::ParamShape::Unsupported) {
    diag.error(s.loc, "parameter '" + s.name + "' of '" + function + "' " + s.refusal);
  } else if (s.name.empty()) {
    diag.error(s.loc, "a parameter of '" + function +
                          "' has no name; the light form names each parameter in the "
                          "declaration (annotations and sizes refer to them)");
  }
  std::string access_from;  // the first access annotation, for a conflict's message
  for (const scan::ScannedAnnotation& a : s.annotations) {
    const size_t eq = a.text.find('=');
    const std::string key = a.text.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : a.text.substr(eq + 1);
    if (key != "component") p.from[xml_name(key)] = annotation_at(a.loc);
    if (key == "read" || key == "write" || key == "readwrite") {
      if (!access_from.empty() && access_from != key) {
        diag.error(a.loc, "parameter '" + s.name + "' has two access modes (" + access_from +
                              " and " + key + "); keep one");
      }
      access_from = key;
      p.access_mode = key == "read"    ? ir::AccessMode::Read
                      : key == "write" ? ir::AccessMode::Write
                                       : ir::AccessMode::ReadWrite;
    } else if (key == "size") {
      p.num_elements = expression(value, a.loc);
    } else if (key == "row_width") {
      p.desc_row_width = expression(value, a.loc);
    } else if (key == "partition") {
      p.partition = partition(value, a.loc, diag);
    } else if (key == "halo") {
      p.halo = expression(value, a.loc);
    } else if (key == "reduction") {
      p.reduction_loc = a.loc;
      for (ir::ReductionOp op : ir::kReductionOps) {
        if (text::trim(value) == ir::to_string(op)) p.reduction = op;
      }
      if (p.reduction == ir::ReductionOp::None) {
        diag.error(a.loc, "unknown reduction operator '" + value + "' for parameter '" + s.name +
                              "' (expected sum, prod, min or max)");
      }
    } else if (key == "block_first") {
      p.block_first = text::trim(value);
    } else if (key == "csr") {
      p.csr = csr(value, s.name, a.loc, diag);
      for (const char* attr : {"csr_row_offsets", "csr_col_indices"})
        p.from[attr] = annotation_at(a.loc);
      if (!p.csr.first.empty()) p.from["csr_first"] = annotation_at(a.loc);
    } else if (key == "range") {
      const size_t dots = value.find("..");
      p.range = ir::Range{text::trim(value.substr(0, dots)), text::trim(value.substr(dots + 2))};
    } else if (key == "component") {
      diag.error(a.loc, "PEPPHER_COMPONENT belongs on the function '" + function +
                            "', not on its parameter '" + s.name + "'");
    } else {
      diag.error(a.loc, "unknown annotation 'peppher:" + key + "' on parameter '" + s.name + "'" +
                            diag::did_you_mean(diag::closest_match_in(key, known_keys())) +
                            " (see docs/FORMAT.md, Light form)");
    }
  }
  return p;
}

// PEPPHER_MODEL(kind): the interface's performance model switch.
ir::PerfModel model(const std::string& value, const std::string& function, const ir::SourceLoc& loc,
                    diag::Diagnostics& diag) {
  const std::string kind = text::trim(value);
  for (ir::PerfModel m :
       {ir::PerfModel::History, ir::PerfModel::Regression, ir::PerfModel::NLRegression}) {
    if (kind == ir::to_string(m)) return m;
  }
  diag.error(loc, "unknown performance model '" + kind + "' in PEPPHER_MODEL on '" + function +
                      "' (expected history, regression or nl_regression)");
  return ir::PerfModel::None;
}

// The sizes a CSR operand's annotation implies, for raw pointers that give none: col_indices
// as long as the values (a column index per value) and, for a whole matrix (no first row:
// not a block of a split call), row_offsets nrows + 1 long.
void infer_csr_sizes(std::vector<ir::Parameter>& params,
                     const std::vector<scan::ScannedParam>& scanned) {
  for (const ir::Parameter& values : params) {
    if (!values.csr.present()) continue;
    for (size_t k = 0; k < params.size() && k < scanned.size(); ++k) {
      ir::Parameter& q = params[k];
      if (q.num_elements || scanned[k].shape != scan::ParamShape::Pointer) continue;
      if (q.name == values.csr.col_indices && values.num_elements) {
        q.num_elements = values.num_elements;
        q.from["numElements"] =
            "inferred (PEPPHER_CSR on " + values.name + ": as long as " + values.name + ")";
      } else if (q.name == values.csr.row_offsets && values.csr.first.empty() &&
                 !values.csr.nrows.empty()) {
        q.num_elements = expression(values.csr.nrows + " + 1", values.loc);
        q.from["numElements"] =
            "inferred (PEPPHER_CSR on " + values.name + ": " + values.csr.nrows + " + 1)";
      }
    }
  }
}

bool annotated(const scan::ScannedFunction& f) {
  if (!f.annotations.empty()) return true;
  return std::any_of(f.params.begin(), f.params.end(),
                     [](const scan::ScannedParam& p) { return !p.annotations.empty(); });
}

}  // namespace

bool is_header(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx";
}

std::vector<ir::Interface> read_header(const std::string& header,
                                       const std::vector<std::string>& clang_args,
                                       const std::vector<std::string>& system_dirs,
                                       diag::Diagnostics& diag) {
  scan::ScanSettings settings;
  settings.clang_args = {"-DPEPPHER_COMPOSE=1"};
  for (const std::string& d : system_dirs) settings.clang_args.push_back("-isystem" + d);
  settings.clang_args.insert(settings.clang_args.end(), clang_args.begin(), clang_args.end());
  std::optional<scan::ScannedHeader> scanned = scan::scan_header(header, settings, diag);
  if (!scanned) return {};
  std::vector<std::string> names;
  for (const scan::ScannedFunction& f : scanned->functions) names.push_back(f.name);
  std::vector<ir::Interface> out;
  for (const scan::ScannedFunction& f : scanned->functions) {
    VariantFiles found = variant_files(header, f.name, names);
    if (!annotated(f) && found.variants.empty()) continue;
    ir::Interface i;
    i.loc = f.loc;
    i.name = f.name;
    i.descriptor_file = header;
    i.header_file = header;
    i.header_loc = f.loc;
    i.imp_path = found.folder;
    std::vector<std::pair<ir::SourceLoc, std::string>> every_variant;  // PEPPHER_CONSTRAINT
    for (const scan::ScannedAnnotation& a : f.annotations) {
      if (a.text.rfind("model=", 0) == 0) {
        i.perf_model = model(a.text.substr(6), f.name, a.loc, diag);
      } else if (a.text.rfind("constraint=", 0) == 0) {
        every_variant.push_back({a.loc, text::trim(a.text.substr(11))});
      } else if (a.text != "component") {
        diag.error(a.loc, "annotation 'peppher:" + a.text + "' on function '" + f.name +
                              "' belongs on one of its parameters (only PEPPHER_COMPONENT, "
                              "PEPPHER_MODEL and PEPPHER_CONSTRAINT mark the function)");
      }
    }
    // A function template is a generic interface (kind="generic" templateTypes="T"): its
    // instantiations are the ones the program calls (facts/generic_calls.h).
    const bool non_type_template =
        std::any_of(f.template_params.begin(), f.template_params.end(),
                    [](const scan::ScannedTemplateParam& t) { return !t.is_type; });
    if (non_type_template || !f.namespaces.empty() || !f.member_of.empty() || f.returns_value ||
        f.variadic) {
      const std::string why = non_type_template       ? "a template with a non-type parameter"
                              : !f.member_of.empty()  ? "a member function"
                              : !f.namespaces.empty() ? "declared in a namespace"
                              : f.returns_value       ? "returns a value"
                                                      : "variadic";
      diag.error(f.loc, "'" + f.signature + "' cannot be a light-form component: it is " + why +
                            " (a component is a void function at file scope; describe it in "
                            "XML for more)");
      continue;
    }
    i.generic = f.is_template;
    for (const scan::ScannedTemplateParam& t : f.template_params)
      i.template_types.push_back(t.name);
    const int errors_before = diag.error_count();
    for (const scan::ScannedParam& s : f.params) i.parameters.push_back(parameter(s, f.name, diag));
    infer_csr_sizes(i.parameters, f.params);
    // A parameter compose cannot map: its interface would only add follow-on errors.
    if (std::any_of(
            f.params.begin(), f.params.end(),
            [](const scan::ScannedParam& s) { return s.shape == scan::ParamShape::Unsupported; }) &&
        diag.error_count() > errors_before) {
      continue;
    }
    for (ir::Variant& v : found.variants) {
      v.provides = i.name;
      if (ir::host_side_source(v) != nullptr && ir::program_source(v) == nullptr) {
        diag.error(v.loc, "host-side OpenCL variant '" + v.name + "' ('" + v.sources.front().name +
                              "') has no kernel file: its kernels go in " + v.name +
                              ".cl beside it (see docs/FORMAT.md, Light form)");
        continue;
      }
      // The declaration's constraints first (constraint1, ...), then the variant file's.
      for (const auto& [at, text] : every_variant) {
        ir::Constraint c;
        c.loc = at;
        c.name = "constraint" + std::to_string(v.constraints.size() + 1);
        c.expr = expression(text, at);
        v.from[c.name] = annotation_at(at);
        v.constraints.push_back(std::move(c));
      }
      read_variant_annotations(v, diag);
      i.variants.push_back(std::move(v));
    }
    for (const auto& [at, backend] : found.misnamed) {
      diag.error(at, "PEPPHER_BACKEND(" + backend + ") in '" +
                         std::filesystem::path(at.file).filename().string() +
                         "': a further variant is a .cpp or .c file of backend cpu or openmp, a "
                         ".cu file of backend cuda or a .cl kernel of backend opencl");
    }
    for (const ir::SourceLoc& w : found.unknown) {
      diag.warning(w, "'" + std::filesystem::path(w.file).filename().string() +
                          "' is named after interface '" + f.name +
                          "' but names no backend; variant files are " + f.name + "_cpu.{c,cpp}, " +
                          f.name + "_openmp.{c,cpp}, " + f.name + "_opencl.{cl,cpp,c}, " + f.name +
                          "_cuda.cu (or say // PEPPHER_BACKEND(cuda) in a further variant's file)");
    }
    check_xml_agrees(i, diag);
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace peppher::light
