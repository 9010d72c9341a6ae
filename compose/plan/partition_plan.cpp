// Plans partitioned calls (see partition_plan.h). Which by-value parameter is a block's
// length is read from the expression trees of numElements and descRowWidth.
#include "compose/plan/partition_plan.h"

#include <algorithm>

#include "compose/expr/parser.h"

namespace peppher::plan {
namespace {

// The parameter an expression names when it is a lone identifier ("n"), else null.
const std::string* lone_identifier(const ir::Expression& e) {
  if (!e.ast || e.ast->kind != expr::NodeKind::Identifier) return nullptr;
  return &e.ast->text;
}

bool same_tree(const expr::Node& a, const expr::Node& b) {
  if (a.kind != b.kind || a.text != b.text || a.operands.size() != b.operands.size()) return false;
  for (size_t k = 0; k < a.operands.size(); ++k) {
    if (!same_tree(*a.operands[k], *b.operands[k])) return false;
  }
  return true;
}

// The row count X of a raw pointer with numElements="X*W" (or "W*X") and descRowWidth="W":
// the parameter that receives a row block's rows. Null for any other shape.
const std::string* row_count(const ir::Parameter& p) {
  if (!p.num_elements || !p.desc_row_width) return nullptr;
  const expr::Node* n = p.num_elements->ast.get();
  const expr::Node* width = p.desc_row_width->ast.get();
  if (n == nullptr || width == nullptr || n->kind != expr::NodeKind::Binary || n->text != "*") {
    return nullptr;
  }
  for (size_t side = 0; side < 2; ++side) {
    const expr::Node& rows = *n->operands[side];
    if (rows.kind == expr::NodeKind::Identifier && same_tree(*n->operands[1 - side], *width)) {
      return &rows.text;
    }
  }
  return nullptr;
}

// "a,b", "a,*" or "*,b": the operand follows the call's 2-D grid of tasks.
bool is_grid(SplitKind k) {
  return k == SplitKind::Blocks2D || k == SplitKind::GridRows || k == SplitKind::GridCols;
}

Operand* value_operand(std::vector<Operand>& operands, const std::string* name) {
  if (name == nullptr) return nullptr;
  for (Operand& o : operands) {
    if (o.kind == OperandKind::Value && o.param->name == *name) return &o;
  }
  return nullptr;
}

// Each operand's split from its partition attribute; the first partitioned operand (whose
// blocks are the call's), or null when nothing is partitioned.
const Operand* plan_splits(const ir::Interface& iface, WrapperPlan& plan,
                           diag::Diagnostics& diags) {
  const Operand* leader = nullptr;
  const Operand* grid_one = nullptr;  // the first "a,*" or "*,b" operand
  bool fixed = false, two_d = false, one_d = false, grid_1d = false;
  for (Operand& o : plan.operands) {
    const ir::Parameter& p = *o.param;
    switch (p.partition.kind) {
      case ir::PartitionKind::None:
        continue;
      case ir::PartitionKind::Blocks:
        o.split = SplitKind::Blocks;
        o.block = &p.partition.block;
        fixed = one_d = true;
        break;
      case ir::PartitionKind::Blocks2D:
        o.split = SplitKind::Blocks2D;
        o.block = &p.partition.block;
        o.block_cols = &p.partition.block_cols;
        fixed = two_d = true;
        break;
      case ir::PartitionKind::GridRows:
        o.split = SplitKind::GridRows;
        o.block = &p.partition.block;
        grid_1d = true;
        break;
      case ir::PartitionKind::GridCols:
        o.split = SplitKind::GridCols;
        o.block_cols = &p.partition.block_cols;
        grid_1d = true;
        break;
      case ir::PartitionKind::Auto:
        o.split = SplitKind::Auto;
        plan.auto_split = one_d = true;
        break;
    }
    if (o.split == SplitKind::GridRows || o.split == SplitKind::GridCols) {
      if (grid_one == nullptr) grid_one = &o;
      if (p.access_mode != ir::AccessMode::Read) {
        diags.error(p.partition.loc,
                    "parameter '" + p.name + "' of interface '" + iface.name +
                        "' is written (accessMode=\"" + ir::to_string(p.access_mode) +
                        "\") but partitioned with '" + ir::grid_text(p.partition) +
                        "': every task of a row (column) of the call's 2-D grid gets the same "
                        "block, so several tasks would write it at once; a written operand "
                        "must be split in 'a,b' blocks");
      }
    }
    if (leader == nullptr) leader = &o;
    if (o.split == SplitKind::Blocks2D && o.kind == OperandKind::RawMatrix) {
      diags.error(p.partition.loc,
                  "2-D partition of '" + p.name + "' in interface '" + iface.name +
                      "': a block of a raw pointer with descRowWidth would need its own leading "
                      "dimension, which a pointer cannot carry; partition it in row blocks "
                      "(partition=\"rows\"), or pass a peppher::Matrix");
    } else if (o.split == SplitKind::Blocks2D && o.kind != OperandKind::Matrix) {
      diags.error(p.partition.loc, "2-D partition of '" + p.name + "' needs a peppher::Matrix");
    }
  }
  if (leader == nullptr) return nullptr;
  if (grid_1d && one_d) {
    diags.error(grid_one->param->partition.loc,
                "interface '" + iface.name + "' mixes '" +
                    ir::grid_text(grid_one->param->partition) + "' on '" + grid_one->param->name +
                    "' with a 1-D or '?' partition; row blocks ('a,*') and column blocks "
                    "('*,b') follow the call's 2-D grid of tasks, so every other partitioned "
                    "operand must be split in 'a,b' blocks");
  } else if (grid_1d && !two_d) {
    diags.error(grid_one->param->partition.loc,
                "partition '" + ir::grid_text(grid_one->param->partition) + "' of '" +
                    grid_one->param->name + "' in interface '" + iface.name +
                    "' needs an operand split in 'a,b' blocks: the call's grid of tasks (p x "
                    "q) comes from those, and row (column) block i goes to the tasks of row "
                    "(column) i of the grid");
  }
  if (two_d && one_d) {
    diags.error(leader->param->partition.loc,
                "interface '" + iface.name +
                    "' mixes 1-D and 2-D partitions; every partitioned operand of a call must "
                    "split into the same blocks, so use 'a,b' on all of them or on none");
  }
  if (fixed && plan.auto_split) {
    diags.error(leader->param->partition.loc,
                "interface '" + iface.name +
                    "' mixes '?' with fixed block sizes; the composer sizes '?' blocks per "
                    "worker, so use '?' on every partitioned operand or on none");
  }
  return leader;
}

// A Scalar, Vector or Matrix with reduction="op" (not itself partitioned: check/ says so) is
// not shared: each block's task gets a private copy of its own, a partial.
void plan_reductions(WrapperPlan& plan) {
  for (Operand& o : plan.operands)
    if (o.param->reduction != ir::ReductionOp::None && o.split == SplitKind::None &&
        (o.kind == OperandKind::ScalarContainer || o.kind == OperandKind::Vector ||
         o.kind == OperandKind::Matrix))
      o.split = SplitKind::Reduce;
}

// Operands that are not split are shared whole by all block tasks: only reads can be.
void check_shared_operands(const ir::Interface& iface, const WrapperPlan& plan,
                           const Operand& leader, diag::Diagnostics& diags) {
  for (const Operand& o : plan.operands) {
    if (!plan.is_buffer(o) || o.split != SplitKind::None) continue;
    if (o.param->access_mode == ir::AccessMode::Read) continue;
    const std::string& name = o.param->name;
    diags.error(o.param->loc,
                "parameter '" + name + "' of interface '" + iface.name +
                    "' is written (accessMode=\"" + ir::to_string(o.param->access_mode) +
                    "\") but not partitioned, while '" + leader.param->name +
                    "' is: the call becomes one task per block and every task would write the "
                    "whole of '" +
                    name + "' at once; partition '" + name +
                    "' the same way, or remove the partition of '" + leader.param->name + "'");
  }
}

// What each by-value parameter holds per block: the numElements of a split raw vector, or
// the row count of a raw pointer split in row blocks, is its block's length; CSR
// operands' csr_first the block's first row and csr_nrows its row count.
void plan_block_values(const ir::Interface& iface, WrapperPlan& plan, const Operand& leader,
                       diag::Diagnostics& diags) {
  for (const Operand& o : plan.operands) {
    const ir::Parameter& p = *o.param;
    if (o.split == SplitKind::None || is_grid(o.split)) continue;
    Operand* length = nullptr;
    if (o.kind == OperandKind::RawVector && p.num_elements) {
      length = value_operand(plan.operands, lone_identifier(*p.num_elements));
    } else if (o.kind == OperandKind::RawMatrix && p.num_elements && p.desc_row_width) {
      length = value_operand(plan.operands, row_count(p));
      if (length == nullptr) {
        diags.error(p.partition.loc,
                    "partition of '" + p.name + "' in interface '" + iface.name +
                        "': its row blocks need a row-count parameter, so write numElements "
                        "as \"rows*" +
                        p.desc_row_width->text +
                        "\" (a by-value parameter times descRowWidth); it is \"" +
                        p.num_elements->text + "\"");
      }
    }
    if (length == nullptr) continue;
    length->block_value = BlockValue::BlockSize;
    length->of_buffer = o.buffer;
  }
  // blockFirst: the first row (element) of that operand's block.
  for (const Operand& o : plan.operands) {
    if (o.param->block_first.empty() || o.split == SplitKind::None) continue;
    if (is_grid(o.split)) {
      diags.error(o.param->loc, "blockFirst of parameter '" + o.param->name + "' in interface '" +
                                    iface.name +
                                    "' needs row blocks; its 2-D blocks have a "
                                    "first row and a first column");
      continue;
    }
    Operand* first = value_operand(plan.operands, &o.param->block_first);
    if (first == nullptr) continue;
    if (first->block_value == BlockValue::BlockSize) {
      diags.error(o.param->loc, "blockFirst of parameter '" + o.param->name + "' in interface '" +
                                    iface.name + "' names '" + first->param->name +
                                    "', which already receives the block's length; give the "
                                    "first row (element) a by-value parameter of its own");
      continue;
    }
    first->block_value = BlockValue::BlockOffset;
    first->of_buffer = o.buffer;
  }
  if (is_grid(leader.split)) return;
  for (const Operand& o : plan.operands) {
    const ir::Csr& csr = o.param->csr;
    if (!csr.present()) continue;
    if (Operand* first = value_operand(plan.operands, &csr.first)) {
      first->block_value = BlockValue::BlockOffset;
      first->of_buffer = leader.buffer;
    } else if (o.split == SplitKind::None) {
      diags.error(o.param->loc,
                  "CSR operand '" + o.param->name + "' of interface '" + iface.name +
                      "' is shared whole by a partitioned call but names no csr_first "
                      "parameter, so every block's task would compute the first rows; add a "
                      "by-value parameter for the first row and name it in csr_first");
    }
    Operand* rows = value_operand(plan.operands, &csr.nrows);
    if (rows != nullptr && rows->block_value == BlockValue::Same) {
      rows->block_value = BlockValue::BlockSize;
      rows->of_buffer = leader.buffer;
    }
  }
}

// A parameter that becomes a block's length cannot also size an operand shared whole.
void check_shared_lengths(const ir::Interface& iface, WrapperPlan& plan, diag::Diagnostics& diags) {
  for (const Operand& o : plan.operands) {
    if (o.split != SplitKind::None || !o.param->num_elements || !plan.is_buffer(o)) continue;
    const Operand* n = value_operand(plan.operands, lone_identifier(*o.param->num_elements));
    if (n == nullptr || n->block_value != BlockValue::BlockSize) continue;
    diags.error(o.param->loc,
                "parameter '" + n->param->name + "' of interface '" + iface.name +
                    "' is both the length of a partitioned operand (each block's task receives "
                    "its block's length in it) and the numElements of '" +
                    o.param->name + "', which is shared whole; give '" + o.param->name +
                    "' its own length parameter");
  }
}

}  // namespace

void check_launch_rows(const ir::Interface& iface, const WrapperPlan& plan,
                       diag::Diagnostics& diags) {
  if (!plan.partitioned) return;
  // What follows the blocks: parameters receiving a block's length, M.rows of a Matrix
  // whose rows are split.
  std::vector<std::string> per_block;
  // The extents of a Matrix reduced into: each block's task launches over its own private
  // copy of all of it (a histogram's bins), which is right.
  std::vector<std::string> private_copy;
  for (const Operand& o : plan.operands) {
    if (o.block_value == BlockValue::BlockSize) per_block.push_back(o.param->name);
    if (o.kind == OperandKind::Matrix && o.split == SplitKind::Reduce) {
      private_copy.push_back(o.param->name + ".rows");
      private_copy.push_back(o.param->name + ".cols");
    }
    const bool rows_split = o.split == SplitKind::Blocks || o.split == SplitKind::Auto ||
                            o.split == SplitKind::Blocks2D || o.split == SplitKind::GridRows;
    if (o.kind == OperandKind::Matrix && rows_split) per_block.push_back(o.param->name + ".rows");
  }
  for (const VariantSlot& s : plan.slots_of(ir::Backend::OpenCl)) {
    const ir::SourceFile* src = ir::kernel_source(*s.variant);
    if (src == nullptr || src->global_size.empty() || !src->global_size.back().ast) continue;
    const ir::Expression& rows = src->global_size.back();
    std::vector<const expr::Node*> ids;
    expr::collect_identifiers(*rows.ast, ids);
    std::vector<std::string> shared;
    bool follows = ids.empty();  // a constant: the kernel strides over its block
    for (const expr::Node* id : ids) {
      if (std::find(per_block.begin(), per_block.end(), id->text) != per_block.end() ||
          std::find(private_copy.begin(), private_copy.end(), id->text) != private_copy.end()) {
        follows = true;
      } else if (std::none_of(s.variant->tunables.begin(), s.variant->tunables.end(),
                              [&](const ir::Tunable& t) { return t.name == id->text; })) {
        shared.push_back(id->text);
      }
    }
    if (follows || shared.empty()) continue;
    const size_t dim = src->global_size.size() - 1;
    const std::string fix = per_block.empty()
                                ? "the by-value row count of a raw matrix (numElements=\"rows*W\" "
                                  "descRowWidth=\"W\") or M.rows of a split peppher::Matrix"
                                : "here '" + per_block.front() + "'";
    diags.warning(rows.loc, "globalSize of '" + src->name + "': its row dimension (dimension " +
                                std::to_string(dim) + ", the last) '" + rows.text + "' names '" +
                                shared.front() +
                                "', which every block's task of a call of "
                                "partitioned interface '" +
                                iface.name +
                                "' receives unchanged, so each block launches the whole "
                                "call's rows over its own block; name what receives a "
                                "block's row count (" +
                                fix + ")");
  }
}

void plan_partition(const ir::Interface& iface, WrapperPlan& plan, diag::Diagnostics& diags) {
  const Operand* leader = plan_splits(iface, plan, diags);
  if (leader == nullptr) return;
  plan.partitioned = true;
  plan_reductions(plan);
  check_shared_operands(iface, plan, *leader, diags);
  plan_block_values(iface, plan, *leader, diags);
  check_shared_lengths(iface, plan, diags);
}

}  // namespace peppher::plan
