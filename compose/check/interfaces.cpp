// Resolution and checks of one interface and its parameters: kinds and element types,
// numElements / descRowWidth / partition / CSR names, ranges, generic settings.
#include <algorithm>
#include <exception>
#include <set>
#include <string>

#include "compose/check/check.h"
#include "compose/check/expressions.h"
#include "compose/check/reserved_names.h"
#include "compose/check/types.h"

namespace peppher::check {
namespace {

bool is_scalar_kind(ir::ParamKind k) {
  return k == ir::ParamKind::ScalarValue || k == ir::ParamKind::StructValue ||
         k == ir::ParamKind::ScalarContainer || k == ir::ParamKind::Reference;
}

Scope parameter_scope(const ir::Interface& iface, const ir::Parameter& p) {
  Scope s;
  for (const ir::Parameter& q : iface.parameters) s.parameters.push_back(q.name);
  s.self = p.name;
  s.allow_platform = false;
  return s;
}

// The integer an expression spells when it is a lone literal ("4"), else -1.
long long literal_value(const ir::Expression& e) {
  if (!e.ast || e.ast->kind != expr::NodeKind::IntLiteral) return -1;
  try {
    return std::stoll(e.ast->text, nullptr, 0);
  } catch (const std::exception&) {
    return -1;
  }
}

// halo="N" (FORMAT.md): rows (elements) of the neighbouring blocks that each block's task
// of a 1-D partitioned peppher::Matrix (peppher::Vector) it reads also reads.
void check_halo(ir::Parameter& p, const Scope& scope, diag::Diagnostics& diag) {
  ir::Expression& halo = *p.halo;
  const std::string who = "parameter '" + p.name + "'";
  resolve_expression(halo, "halo of " + who, scope, diag);
  if (p.partition.kind == ir::PartitionKind::None) {
    diag.error(halo.loc, "halo of " + who +
                             " needs a partitioned operand: a halo is the rows "
                             "(elements) of the neighbouring blocks each block's task also reads; "
                             "add partition=\"<rows per block>\" or remove halo");
    return;
  }
  if (p.kind != ir::ParamKind::Matrix && p.kind != ir::ParamKind::Vector) {
    diag.error(halo.loc, "halo of " + who +
                             " needs a peppher::Matrix (halo rows) or a "
                             "peppher::Vector (halo elements); it is '" +
                             p.type + "'");
    return;
  }
  if (ir::is_grid(p.partition.kind)) {
    diag.error(halo.loc, "halo of " + who +
                             " needs a 1-D partition (blocks of rows); it is "
                             "partitioned in 2-D blocks");
    return;
  }
  if (p.access_mode != ir::AccessMode::Read) {
    diag.error(halo.loc, "halo of " + who + ": the operand is written (accessMode=\"" +
                             ir::to_string(p.access_mode) +
                             "\"), but its halo rows belong to the neighbouring blocks, which "
                             "their own tasks compute; a halo operand must be read-only (write "
                             "the result into another container)");
    return;
  }
  const long long n = literal_value(halo);
  if (halo.ast && halo.ast->kind == expr::NodeKind::Unary && halo.ast->text == "-") {
    diag.error(halo.loc, "halo of " + who + " is negative ('" + halo.text + "')");
    return;
  }
  const long long block =
      p.partition.kind == ir::PartitionKind::Blocks ? literal_value(p.partition.block) : -1;
  const char* unit = p.kind == ir::ParamKind::Matrix ? "rows" : "elements";
  if (n > 0 && block > 0 && n > block) {
    diag.error(halo.loc, "halo of " + who + " (" + std::to_string(n) + " " + unit +
                             ") is larger than a block (partition=\"" + p.partition.block.text +
                             "\": " + std::to_string(block) + " " + unit +
                             "); a block's task reads its halo from its two neighbours only, "
                             "so the halo must not exceed the block size");
  }
}

// reduction="op" (FORMAT.md): a readwrite peppher::Scalar<T>&, Vector<T>& or Matrix<T>& of an
// arithmetic T (not bool for sum and prod), not itself partitioned, which each block's task
// of a partitioned call reduces into (a private copy per block).
void check_reduction(const ir::Interface& iface, const ir::Parameter& p, diag::Diagnostics& diag) {
  const std::string who = "parameter '" + p.name + "'";
  const char* op = ir::to_string(p.reduction);
  if (p.kind != ir::ParamKind::ScalarContainer && p.kind != ir::ParamKind::Vector &&
      p.kind != ir::ParamKind::Matrix) {
    diag.error(p.reduction_loc, "reduction of " + who +
                                    " needs a peppher::Scalar<T>&, Vector<T>& or Matrix<T>& "
                                    "(each block's task reduces into a private copy of it); "
                                    "it is '" +
                                    p.type + "'");
    return;
  }
  if (p.partition.kind != ir::PartitionKind::None) {
    diag.error(p.reduction_loc,
               "reduction of " + who +
                   " on a partitioned operand: each block's task would get a block of '" + p.name +
                   "' and a private copy of all of it at once; reduce into an operand that is "
                   "not partitioned (the blocks of a partitioned one are written separately)");
    return;
  }
  if (p.access_mode != ir::AccessMode::ReadWrite) {
    diag.error(p.reduction_loc,
               "reduction of " + who +
                   " needs accessMode=\"readwrite\" (a variant reads the "
                   "partial it accumulates into, e.g. m = s.get(); ...; s.set(m), or "
                   "counts[b] += 1); it is \"" +
                   ir::to_string(p.access_mode) + "\"");
    return;
  }
  if (std::none_of(iface.parameters.begin(), iface.parameters.end(), [](const ir::Parameter& q) {
        return q.partition.kind != ir::PartitionKind::None;
      })) {
    diag.warning(p.reduction_loc,
                 "reduction of " + who + " has no effect: no operand of interface '" + iface.name +
                     "' is partitioned, so each call passes '" + p.name + "' itself");
  }
  const bool templ = std::find(iface.template_types.begin(), iface.template_types.end(),
                               p.elem_type) != iface.template_types.end();
  if (templ) return;  // the runtime static_asserts an arithmetic type per instantiation
  const bool sum_or_prod =
      p.reduction == ir::ReductionOp::Sum || p.reduction == ir::ReductionOp::Prod;
  if (!is_arithmetic_type(p.elem_type)) {
    diag.error(p.reduction_loc, "reduction '" + std::string(op) + "' of " + who +
                                    " needs an arithmetic element type; '" + p.elem_type +
                                    "' is not one (min and max compare with <, sum and prod "
                                    "add and multiply built-in numbers)");
  } else if (sum_or_prod && p.elem_type == "bool") {
    diag.error(p.reduction_loc, "reduction '" + std::string(op) + "' of " + who +
                                    " is not defined for 'bool'; use max (any true) or min "
                                    "(all true)");
  }
}

void resolve_parameter(const ir::Interface& iface, ir::Parameter& p, diag::Diagnostics& diag) {
  const std::string who = "parameter '" + p.name + "'";
  TypeInfo t = classify_type(p.type, iface.template_types);
  if (!t.problem.empty()) diag.error(p.loc, who + " " + t.problem);
  p.kind = t.kind;
  p.is_const = t.is_const;
  if (p.elem_type.empty()) p.elem_type = t.elem_type;

  if (p.kind == ir::ParamKind::RawPointer && !p.num_elements && t.problem.empty()) {
    diag.error(p.loc, who + " is a raw pointer ('" + p.type +
                          "') without numElements; give "
                          "its length, e.g. numElements=\"n\"");
  }
  // On a Vector, numElements is the length a training run gives it (the call's Vector has
  // its own length); on a Matrix, with descRowWidth (its columns), its training shape;
  // elsewhere only raw pointers need it.
  if (p.num_elements && p.kind != ir::ParamKind::RawPointer && p.kind != ir::ParamKind::Vector &&
      p.kind != ir::ParamKind::Matrix) {
    diag.warning(p.num_elements->loc, "numElements is ignored for " + who +
                                          ": only raw pointers need it (and Vectors and "
                                          "Matrices, for training)");
  }
  Scope scope = parameter_scope(iface, p);
  if (p.num_elements) resolve_expression(*p.num_elements, "numElements of " + who, scope, diag);
  if (p.desc_row_width) {
    resolve_expression(*p.desc_row_width, "descRowWidth of " + who, scope, diag);
  }
  if (p.access_mode != ir::AccessMode::Read &&
      (p.kind == ir::ParamKind::ScalarValue || p.kind == ir::ParamKind::StructValue) &&
      t.problem.empty()) {
    diag.warning(p.loc, who + " is passed by value, so accessMode '" +
                            ir::to_string(p.access_mode) +
                            "' cannot return anything; use 'read' or a pointer/container");
  }

  if (p.partition.kind != ir::PartitionKind::None) {
    if (is_scalar_kind(p.kind)) {
      diag.error(p.partition.loc, who + " is a scalar ('" + p.type +
                                      "') and cannot be partitioned; remove partition or use "
                                      "partition=\"*\"");
    } else if (p.partition.kind == ir::PartitionKind::Blocks2D && p.kind != ir::ParamKind::Matrix &&
               !p.desc_row_width) {
      diag.error(p.partition.loc, "2-D partition of " + who +
                                      " needs a matrix operand "
                                      "(peppher::Matrix or a pointer with descRowWidth)");
    } else if ((p.partition.kind == ir::PartitionKind::GridRows ||
                p.partition.kind == ir::PartitionKind::GridCols) &&
               p.kind != ir::ParamKind::Matrix) {
      diag.error(p.partition.loc,
                 "partition=\"" + ir::grid_text(p.partition) +
                     "\" (row or column blocks of a 2-D grid) of " + who +
                     " needs a peppher::Matrix (its blocks keep the whole matrix's leading "
                     "dimension); it is '" +
                     p.type + "'");
    }
    Scope ps = scope;
    ps.self.clear();
    for (const ir::Parameter& q : iface.parameters) {  // block sizes may use M.rows, M.cols
      if (classify_type(q.type, iface.template_types).kind == ir::ParamKind::Matrix) {
        ps.matrices.push_back(q.name);
      }
    }
    for (const ir::Variant& v : iface.variants) {
      for (const ir::Tunable& tn : v.tunables) ps.tunables.push_back(tn.name);
    }
    if (p.partition.kind == ir::PartitionKind::Blocks ||
        p.partition.kind == ir::PartitionKind::Blocks2D ||
        p.partition.kind == ir::PartitionKind::GridRows) {
      resolve_expression(p.partition.block, "partition of " + who, ps, diag);
    }
    if (p.partition.kind == ir::PartitionKind::Blocks2D ||
        p.partition.kind == ir::PartitionKind::GridCols) {
      resolve_expression(p.partition.block_cols, "partition of " + who, ps, diag);
    }
  }

  if (p.halo) check_halo(p, scope, diag);

  const std::pair<const char*, const std::string*> csr[] = {
      {"csr_nrows", &p.csr.nrows},
      {"csr_first", &p.csr.first},
      {"csr_row_offsets", &p.csr.row_offsets},
      {"csr_col_indices", &p.csr.col_indices}};
  for (const auto& [attr, name] : csr) {
    if (name->empty()) continue;
    const std::string& wanted = *name;
    if (std::none_of(iface.parameters.begin(), iface.parameters.end(),
                     [&](const ir::Parameter& q) { return q.name == wanted; })) {
      std::vector<std::string> names;
      for (const ir::Parameter& q : iface.parameters) names.push_back(q.name);
      diag.error(p.loc, std::string(attr) + " of " + who + " names unknown parameter '" + *name +
                            "'" + diag::did_you_mean(diag::closest_match_in(*name, names)));
    }
  }
  if (!p.block_first.empty()) {
    auto q = std::find_if(iface.parameters.begin(), iface.parameters.end(),
                          [&](const ir::Parameter& x) { return x.name == p.block_first; });
    if (q == iface.parameters.end()) {
      std::vector<std::string> names;
      for (const ir::Parameter& x : iface.parameters) names.push_back(x.name);
      diag.error(p.loc, "blockFirst of " + who + " names unknown parameter '" + p.block_first +
                            "'" + diag::did_you_mean(diag::closest_match_in(p.block_first, names)));
    } else if (classify_type(q->type, iface.template_types).kind != ir::ParamKind::ScalarValue) {
      diag.error(p.loc, "blockFirst of " + who + " names '" + p.block_first + "', which is '" +
                            q->type +
                            "'; it must be a by-value integer parameter (e.g. int "
                            "first) that receives the first row of the block");
    } else if (p.partition.kind == ir::PartitionKind::None) {
      diag.warning(p.loc, "blockFirst of " + who +
                              " has no effect: the parameter is not "
                              "partitioned, so '" +
                              p.block_first + "' keeps the call's value");
    }
  }
  if (p.reduction != ir::ReductionOp::None) check_reduction(iface, p, diag);
  if (p.range && p.kind != ir::ParamKind::ScalarValue) {
    diag.error(p.loc, "range is only allowed on by-value scalar parameters; " + who + " is '" +
                          p.type + "'");
  }
}

}  // namespace

void resolve_interface(const ir::Application& app, ir::Interface& iface, diag::Diagnostics& diag) {
  (void)app;
  if (iface.generic && iface.template_types.empty()) {
    diag.error(iface.loc, "generic interface '" + iface.name +
                              "' has no templateTypes; "
                              "list its template parameters, e.g. templateTypes=\"T\"");
  }
  if (!iface.generic && !iface.template_types.empty()) {
    diag.warning(iface.loc, "interface '" + iface.name +
                                "' has templateTypes but is not "
                                "kind=\"generic\"; the template types are ignored");
  }
  std::set<std::string> seen;
  for (ir::Parameter& p : iface.parameters) {
    if (!p.name.empty() && !seen.insert(p.name).second) {
      diag.error(p.loc, "interface '" + iface.name + "' has two parameters named '" + p.name + "'");
    }
  }
  for (ir::Parameter& p : iface.parameters) resolve_parameter(iface, p, diag);
  check_reserved_names(iface, diag);
  for (const ir::GenericParameter& g : iface.generic_parameters) {
    if (std::find(iface.template_types.begin(), iface.template_types.end(), g.name) ==
        iface.template_types.end()) {
      diag.error(g.loc, "generic parameter '" + g.name +
                            "' is not one of the templateTypes of "
                            "interface '" +
                            iface.name + "'");
    }
  }
}

}  // namespace peppher::check
