// Prints plan data as C++ (see cpp_expr.h).
#include "compose/emit/cpp_expr.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <sstream>

#include "compose/expr/parser.h"
#include "compose/ir/backends.h"
#include "compose/names/names.h"

namespace peppher::emit::cpp {
namespace {

std::string as_long(const std::string& cpp) {
  return "static_cast<long long>(" + cpp + ")";
}

std::string task_handle(const plan::Operand& o) {
  return "STARPU_TASK_GET_HANDLE(" + std::string(names::local_task()) + ", " +
         std::to_string(o.buffer) + ")";
}

std::string literal(const check::Value& v) {
  if (v.is_int) return std::to_string(v.i) + "LL";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.d);
  std::string s = buf;
  return s.find_first_of(".eEn") == std::string::npos ? s + ".0" : s;
}

// The element count of a buffer operand from its handle in a task.
std::string task_elements(const plan::Operand& o) {
  const std::string handle = task_handle(o);
  switch (o.kind) {
    case plan::OperandKind::RawVector:
    case plan::OperandKind::Vector:
      return as_long("starpu_vector_get_nx(" + handle + ")");
    case plan::OperandKind::RawMatrix:
    case plan::OperandKind::Matrix:
      return "(" + as_long("starpu_matrix_get_nx(" + handle + ")") + " * " +
             as_long("starpu_matrix_get_ny(" + handle + ")") + ")";
    case plan::OperandKind::Value:
    case plan::OperandKind::ScalarContainer:
    case plan::OperandKind::Reference:
      break;
  }
  return "1LL";
}

// The element count of a buffer operand in the entry wrapper: a raw pointer's is computed
// and checked as the call registers it (checked_length), so that a constraint over it never
// divides by zero or overflows first.
std::string call_elements(const plan::WrapperPlan& plan, const plan::Operand& o) {
  switch (o.kind) {
    case plan::OperandKind::RawVector:
    case plan::OperandKind::RawMatrix:
      return o.count ? as_long(checked_length(plan, o, "numElements", *o.count,
                                              o.kind == plan::OperandKind::RawVector, true))
                     : "0LL";
    case plan::OperandKind::Vector:
    case plan::OperandKind::Matrix:
      return as_long(o.param->name + ".size()");
    case plan::OperandKind::Value:
    case plan::OperandKind::ScalarContainer:
    case plan::OperandKind::Reference:
      break;
  }
  return "1LL";
}

using TermText = std::string (*)(const plan::WrapperPlan&, const plan::Term&);

std::string helper_call(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p,
                        TermText term) {
  const plan::RuntimePredicate& h = plan.predicate_helpers[p.helper];
  std::string args;
  // The helper's parameters are h's operands; p binds the same names to the same values.
  for (const plan::Binding& b : h.operand_bindings()) {
    args += (args.empty() ? "" : ", ") + term(plan, b.term);
  }
  return names::predicate_helper(p.helper) + "(" + args + ")";
}

}  // namespace

namespace {

// The expression's text with each Matrix member `M.rows` / `M.cols` (the only members the
// checker lets through) as the container's call, `M.rows()`.
std::string with_member_calls(const std::string& text) {
  static const std::regex kMember(R"(\b([A-Za-z_][A-Za-z_0-9]*)\.(rows|cols)\b)");
  return std::regex_replace(text, kMember, "$1.$2()");
}

// Whether `n` is made only of what checked arithmetic computes: integer literals, names and
// + - * / % (unary - and + too). Anything else (a comparison, a floating-point literal) is
// computed as written.
bool checkable(const expr::Node& n) {
  switch (n.kind) {
    case expr::NodeKind::IntLiteral:
    case expr::NodeKind::Identifier:
      return true;
    case expr::NodeKind::FloatLiteral:
      return false;
    case expr::NodeKind::Unary:
      return (n.text == "-" || n.text == "+") && checkable(*n.operands[0]);
    case expr::NodeKind::Binary:
      return (n.text == "+" || n.text == "-" || n.text == "*" || n.text == "/" || n.text == "%") &&
             checkable(*n.operands[0]) && checkable(*n.operands[1]);
  }
  return false;
}

// `n` as nested peppher::detail::checked_* calls over peppher::detail::CheckedSize, each
// operation carrying its text (and a division its divisor's) for the error message;
// `code` spells a name as C++ (`M.rows` as `M.rows()`).
std::string checked(const expr::Node& n,
                    const std::function<std::string(const std::string&)>& code) {
  const std::string text = "\"" + c_string(expr::to_cpp(n)) + "\"";
  switch (n.kind) {
    case expr::NodeKind::IntLiteral:
      return n.text + "LL";
    case expr::NodeKind::Identifier:
      return "peppher::detail::checked_operand(" + code(n.text) + ", \"" + c_string(n.text) + "\")";
    case expr::NodeKind::Unary: {
      const std::string a = checked(*n.operands[0], code);
      return n.text == "-" ? "peppher::detail::checked_neg(" + a + ", " + text + ")" : a;
    }
    case expr::NodeKind::Binary:
      break;
    case expr::NodeKind::FloatLiteral:
      return n.text;  // not checkable()
  }
  const std::string a = checked(*n.operands[0], code);
  const std::string b = checked(*n.operands[1], code);
  static const std::map<std::string, std::string> kOps = {
      {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"%", "mod"}};
  std::string out =
      "peppher::detail::checked_" + kOps.at(n.text) + "(" + a + ", " + b + ", " + text;
  if (n.text == "/" || n.text == "%") {
    out += ", \"" + c_string(expr::to_cpp(*n.operands[1])) + "\"";
  }
  return out + ")";
}

// A descriptor size with arithmetic in it as a checked computation, else "" (a lone name
// or literal, or what checkable() refuses: computed as before).
std::string checked_or_empty(const ir::Expression& e) {
  if (!e.ast || e.ast->kind == expr::NodeKind::Identifier ||
      e.ast->kind == expr::NodeKind::IntLiteral || !checkable(*e.ast)) {
    return "";
  }
  return checked(*e.ast, [](const std::string& name) { return with_member_calls(name); });
}

// The start of a call of peppher::<function> with the message's parts (interface,
// parameter, "attr = text"), up to its value. Continued lines: the generated statement stays
// readable (and under ~120 columns) around them, whose lengths follow the descriptor's names.
std::string checked_call(const char* function, const plan::WrapperPlan& plan,
                         const plan::Operand& o, const char* attr, const ir::Expression& e) {
  return std::string("peppher::") + function + "(\n          \"" +
         c_string(ir::display_name(*plan.iface)) + "\", \"" + o.param->name + "\", \"" + attr +
         " = " + c_string(e.text) + "\",\n          ";
}

}  // namespace

std::string as_size(const ir::Expression& e) {
  return "static_cast<size_t>(" + with_member_calls(e.text) + ")";
}

std::string checked_length(const plan::WrapperPlan& plan, const plan::Operand& o, const char* attr,
                           const ir::Expression& e, bool extent, bool pointer) {
  if (!e.ast) return as_size(e);
  std::string wide = checked_or_empty(e);
  if (wide.empty()) {
    wide = expr::to_cpp(*e.ast, [](const std::string& n) { return as_long(n); });
  }
  return checked_call("checked_length", plan, o, attr, e) + wide + ", " +
         (extent ? "peppher::kMaxExtent" : "peppher::kMaxElements") +
         (pointer ? ", " + o.param->name : std::string()) + ")";
}

std::string as_block(const plan::WrapperPlan& plan, const plan::Operand& o, const char* attr,
                     const ir::Expression& e) {
  const std::string wide = checked_or_empty(e);
  if (wide.empty()) return as_long(with_member_calls(e.text));
  return checked_call("checked_size", plan, o, attr, e) + wide + ")";
}

std::string starpu_mode(ir::AccessMode m) {
  switch (m) {
    case ir::AccessMode::Read:
      return "STARPU_R";
    case ir::AccessMode::Write:
      return "STARPU_W";
    case ir::AccessMode::ReadWrite:
      return "STARPU_RW";
  }
  return "STARPU_RW";
}

std::string reduction(ir::ReductionOp r) {
  switch (r) {
    case ir::ReductionOp::None:
      return "";
    case ir::ReductionOp::Sum:
      return "peppher::Reduction::Sum";
    case ir::ReductionOp::Prod:
      return "peppher::Reduction::Prod";
    case ir::ReductionOp::Min:
      return "peppher::Reduction::Min";
    case ir::ReductionOp::Max:
      return "peppher::Reduction::Max";
  }
  return "";
}

std::string worker_count(ir::Backend b) {
  return ir::info(b).worker_count;
}

std::string task_argument(const plan::Operand& o) {
  return std::string(names::local_args()) + "->" + o.param->name;
}

std::string in_task(const plan::WrapperPlan& plan, const plan::Term& t) {
  switch (t.kind) {
    case plan::TermKind::Value:
      return task_argument(plan.operands[t.operand]);
    case plan::TermKind::Elements:
      return task_elements(plan.operands[t.operand]);
    case plan::TermKind::Rows:
      return as_long("starpu_matrix_get_ny(" + task_handle(plan.operands[t.operand]) + ")");
    case plan::TermKind::Cols:
      return as_long("starpu_matrix_get_nx(" + task_handle(plan.operands[t.operand]) + ")");
    case plan::TermKind::Literal:
      return literal(t.literal);
    case plan::TermKind::Workers:
      return as_long(worker_count(t.backend));
  }
  return "0LL";
}

std::string in_call(const plan::WrapperPlan& plan, const plan::Term& t) {
  switch (t.kind) {
    case plan::TermKind::Value:
      return plan.operands[t.operand].param->name;
    case plan::TermKind::Elements:
      return call_elements(plan, plan.operands[t.operand]);
    case plan::TermKind::Rows:
      return as_long(plan.operands[t.operand].param->name + ".rows()");
    case plan::TermKind::Cols:
      return as_long(plan.operands[t.operand].param->name + ".cols()");
    case plan::TermKind::Literal:
      return literal(t.literal);
    case plan::TermKind::Workers:
      return as_long(worker_count(t.backend));
  }
  return "0LL";
}

std::string in_block(const plan::WrapperPlan& plan, const plan::Term& t) {
  if (t.operand < 0) return in_call(plan, t);
  const plan::Operand& o = plan.operands[t.operand];
  const std::string block =
      std::string("(") + names::local_block() + ", " + std::to_string(o.buffer) + ")";
  const std::string rows = as_long(std::string(names::local_call()) + ".block_rows" + block);
  const std::string cols = as_long(std::string(names::local_call()) + ".block_cols" + block);
  const bool split = o.split != plan::SplitKind::None && o.split != plan::SplitKind::Reduce;
  switch (t.kind) {
    case plan::TermKind::Value:
      if (o.block_value == plan::BlockValue::Same) break;
      return std::string(names::local_call()) + ".args<" + names::args_struct() + ">(" +
             names::local_block() + ")." + o.param->name;
    case plan::TermKind::Elements:
      if (split) return "(" + rows + " * " + cols + ")";
      break;
    case plan::TermKind::Rows:
      if (split) return rows;
      break;
    case plan::TermKind::Cols:
      if (split) return cols;
      break;
    default:
      break;
  }
  return in_call(plan, t);
}

std::string in_task(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p) {
  return helper_call(plan, p, in_task);
}

std::string in_call(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p) {
  return helper_call(plan, p, in_call);
}

std::string in_block(const plan::WrapperPlan& plan, const plan::RuntimePredicate& p) {
  return helper_call(plan, p, in_block);
}

std::string helper_parameters(const plan::WrapperPlan& plan, const plan::RuntimePredicate& h) {
  std::string out;
  for (const plan::Binding& b : h.operand_bindings()) {
    const std::string type = b.term.kind == plan::TermKind::Value
                                 ? plan.operands[b.term.operand].param->elem_type
                                 : "long long";
    out += (out.empty() ? "" : ", ") + type + " " + names::helper_parameter(b.name);
  }
  return out;
}

std::string helper_condition(const plan::RuntimePredicate& h) {
  // A division by zero makes the constraint false instead of trapping (to_cpp_guarded).
  return expr::to_cpp_guarded(*h.expr, [&](const std::string& name) {
    const plan::Term& t = h.term(name);
    switch (t.kind) {
      case plan::TermKind::Literal:
        return literal(t.literal);
      case plan::TermKind::Workers:
        return as_long(worker_count(t.backend));
      default:
        return names::helper_parameter(name);
    }
  });
}

std::string c_string(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string launch_expr(const plan::WrapperPlan& plan, const std::string& attr,
                        const ir::Expression& e, const ir::Variant& v) {
  if (!e.ast) return as_size(e);
  const auto rename = [&](const std::string& name) {
    for (const ir::Tunable& t : v.tunables) {
      if (t.name == name && t.values.size() == 1) return t.values.front();
    }
    const size_t dot = name.find('.');
    if (dot == std::string::npos) return name;
    const std::string m = name.substr(0, dot);
    return name.substr(dot + 1) == "rows" ? names::matrix_rows(m) : names::matrix_cols(m);
  };
  std::vector<const expr::Node*> ids;
  expr::collect_identifiers(*e.ast, ids);
  // A tunable's value is written in: checked arithmetic takes integers only, and sizes of
  // tunables and literals alone are constants compose has checked.
  const bool run_time = std::any_of(ids.begin(), ids.end(), [&](const expr::Node* id) {
    return std::none_of(v.tunables.begin(), v.tunables.end(),
                        [&](const ir::Tunable& t) { return t.name == id->text; });
  });
  const bool integers = std::all_of(ids.begin(), ids.end(), [&](const expr::Node* id) {
    for (const ir::Tunable& t : v.tunables) {
      if (t.name == id->text) {
        return t.values.size() == 1 && !t.values.front().empty() &&
               t.values.front().find_first_not_of("0123456789") == std::string::npos;
      }
    }
    return true;
  });
  if (run_time && integers && !checked_or_empty(e).empty()) {
    return "peppher::checked_launch_size(\"" + c_string(ir::display_name(*plan.iface)) + "\", \"" +
           v.name + "\", \"" + c_string(attr) + " = " + c_string(e.text) + "\",\n" +
           "                     " + checked(*e.ast, rename) + ")";
  }
  const bool renamed = std::any_of(
      ids.begin(), ids.end(), [&](const expr::Node* id) { return rename(id->text) != id->text; });
  if (!renamed) return as_size(e);  // as written
  return "static_cast<size_t>(" + expr::to_cpp(*e.ast, rename) + ")";
}

std::string build_options_expr(const std::string& options) {
  std::istringstream in(options);
  std::string out = "\"";
  bool folder_next = false;
  for (std::string w; in >> w;) {
    if (out.size() > 1) out += " ";
    std::string folder;
    if (folder_next) {
      folder = w;
      w.clear();
    } else if (w.rfind("-I", 0) == 0 && w.size() > 2) {
      folder = w.substr(2);
      w = "-I";
    }
    folder_next = w == "-I" && folder.empty();
    out += w;
    if (folder.empty()) continue;
    if (folder[0] == '/') {
      out += folder;
    } else {
      out += "\" PEPPHER_OUTPUT_DIR \"/" + folder;
    }
  }
  return out + "\"";
}

}  // namespace peppher::emit::cpp
