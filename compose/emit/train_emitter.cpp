// The training program's source (see train_emitter.h).
#include "compose/emit/train_emitter.h"

#include "compose/emit/cpp_expr.h"
#include "compose/emit/render.h"
#include "compose/names/names.h"

namespace peppher::emit {
namespace {

using Data = TemplateData;
using plan::Operand;
using plan::OperandKind;
using plan::WrapperPlan;

Data target_data(const WrapperPlan& plan) {
  const ir::Interface& iface = *plan.iface;
  Data d;
  d.set("label", ir::display_name(iface));
  d.set("id", iface.name + names::instance_suffix(iface));
  d.set("entry_name", names::instantiated(iface.name, iface));
  Data context{Data::type::list}, scalars{Data::type::list}, arrays{Data::type::list},
      vectors{Data::type::list}, matrices{Data::type::list}, scalar_containers{Data::type::list};
  std::vector<std::string> args, names;
  int dim = 0;
  for (const Operand& o : plan.operands) {
    const ir::Parameter& p = *o.param;
    if (o.kind == OperandKind::Value || o.kind == OperandKind::Reference) {
      Data s;
      s.set("type", p.elem_type);
      s.set("name", p.name);
      std::string value = "{}";
      if (p.range) {
        Data c;
        c.set("name", p.name);
        c.set("lo", p.range->lo);
        c.set("hi", p.range->hi);
        context.push_back(c);
        names.push_back(p.name + " in " + p.range->lo + ".." + p.range->hi);
        value = "static_cast<" + p.elem_type + ">(" + names::local_point() + "[" +
                std::to_string(dim++) + "])";
      } else if (o.kind == OperandKind::Value && p.kind == ir::ParamKind::ScalarValue) {
        value = "static_cast<" + p.elem_type + ">(1)";  // unranged: a neutral value
      }
      s.set("value", value);
      scalars.push_back(s);
      args.push_back(p.name);
    } else if (o.kind == OperandKind::Vector) {
      Data v;
      v.set("elem", p.elem_type);
      v.set("name", p.name);
      v.set("count", cpp::as_size(*p.num_elements));
      vectors.push_back(v);
      args.push_back(p.name);
    } else if (o.kind == OperandKind::Matrix) {  // zero-filled, rows x descRowWidth
      Data m;
      m.set("elem", p.elem_type);
      m.set("name", p.name);
      m.set("rows", "static_cast<size_t>((" + p.num_elements->text + ") / (" +
                        p.desc_row_width->text + "))");
      m.set("cols", "static_cast<size_t>(" + p.desc_row_width->text + ")");
      matrices.push_back(m);
      args.push_back(p.name);
    } else if (o.kind == OperandKind::ScalarContainer) {
      Data c;
      c.set("elem", p.elem_type);
      c.set("name", p.name);
      scalar_containers.push_back(c);
      args.push_back(p.name);
    } else {  // raw vector or matrix: zero-filled storage of numElements elements
      Data a;
      a.set("elem", p.elem_type);
      a.set("name", p.name);
      a.set("count", o.count ? cpp::as_size(*o.count) : "");
      a.set("storage", names::trainer_storage(p.name));
      arrays.push_back(a);
      args.push_back(names::trainer_storage(p.name) + ".data()");
    }
  }
  d.set("context", context);
  d.set("context_names", comma_list(names));
  d.set("scalars", scalars);
  d.set("arrays", arrays);
  d.set("vectors", vectors);
  d.set("matrices", matrices);
  d.set("scalar_containers", scalar_containers);
  d.set("args", comma_list(args));
  return d;
}

}  // namespace

std::string emit_trainer(const std::vector<WrapperPlan>& plans) {
  Data targets{Data::type::list}, skipped{Data::type::list};
  for (const WrapperPlan& plan : plans) {
    if (!plan.training.ranged) continue;
    if (!plan.training.untrainable.empty()) {
      Data s;
      s.set("label", ir::display_name(*plan.iface));
      s.set("why", plan.training.untrainable);
      skipped.push_back(s);
      continue;
    }
    targets.push_back(target_data(plan));
  }
  Data d;
  d.set("targets", targets);
  d.set("skipped", skipped);
  return render_template("train.cpp", d);
}

}  // namespace peppher::emit
