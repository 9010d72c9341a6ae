// compose --explain (see explain.h).
#include "compose/explain/explain.h"

#include <cassert>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "compose/check/platform_queries.h"
#include "compose/check/predicates.h"
#include "compose/expr/parser.h"
#include "compose/ir/backends.h"

namespace peppher::explain {

std::string left_out_because(const ir::Options& options, const ir::Interface& iface,
                             const ir::Variant& v) {
  if (!ir::backend_enabled(options, iface, v.backend)) {
    return std::string("the ") + ir::to_string(v.backend) + " backend is disabled";
  }
  if (!v.left_out.empty()) return v.left_out;
  if (v.disabled_by_option) return "-disableImpls names it";
  if (v.disabled) return "disable=\"1\" in " + v.descriptor_file;
  return "";
}

namespace {

std::string winner(const std::map<std::string, double>& times) {
  std::string best;
  double best_us = std::numeric_limits<double>::infinity();
  for (const auto& [variant, us] : times) {
    if (us < best_us) {
      best = variant;
      best_us = us;
    }
  }
  return best.empty() ? "(none measured)" : best;
}

std::string point_text(const ir::TrainedInterface& t, const std::vector<long long>& p) {
  std::string out;
  for (size_t k = 0; k < p.size(); ++k) {
    out += (k ? " " : "") + t.context[k] + "=" + std::to_string(p[k]);
  }
  return out;
}

// Runs of grid points (in table order) with the same winner: "n=16 .. n=128: schoolbook".
void print_winners(const ir::TrainedInterface& t, std::ostream& out) {
  std::string run_winner, first, last;
  auto flush = [&] {
    if (run_winner.empty()) return;
    out << "      " << first << (first == last ? "" : " .. " + last) << ": " << run_winner << "\n";
  };
  for (const auto& [point, times] : t.us) {
    std::string w = winner(times);
    std::string here = point_text(t, point);
    if (w != run_winner) {
      flush();
      run_winner = w;
      first = here;
    }
    last = here;
  }
  flush();
}

// The platform names (platform.*, xpdl::system::*) a kept variant's constraints read, and
// where each value comes from.
void print_platform_names(const ir::Application& app, const ir::Options& options,
                          const ir::Interface& iface, const ir::Variant& v, std::ostream& out) {
  std::set<std::string> seen;
  for (const ir::Constraint& c : v.constraints) {
    if (!c.expr.ast) continue;
    std::vector<const expr::Node*> ids;
    expr::collect_identifiers(*c.expr.ast, ids);
    for (const expr::Node* id : ids) {
      const std::string& n = id->text;
      const std::optional<std::string> prop = check::platform_property(n);
      if (!prop || !seen.insert(n).second) continue;
      out << "        " << n << " = ";
      if (std::optional<check::Value> value = check::platform_value(app, options, iface, n)) {
        out << (value->is_int ? std::to_string(value->i) : std::to_string(value->d))
            << (app.platform ? " (platform descriptor or disabled backend)" : " (backend disabled)")
            << "\n";
        continue;
      }
      // check/ has reported any other platform name without a compose-time value, and
      // --explain runs only without errors (the plan's worker_count says the same).
      const std::optional<ir::Backend> backend = check::worker_backend(*prop);
      assert(backend && "a platform name without a compose-time value is a worker count");
      const char* kind = ir::info(backend.value_or(ir::Backend::Cpu)).group_label;
      out << "StarPU's " << kind << " worker count, read when the program runs\n";
    }
  }
}

// What the XPDL platform queries of the constraints found at compose time, and where.
void print_platform_queries(const ir::Application& app, std::ostream& out) {
  if (app.installed.empty()) return;
  out << "platform queries (decided at compose time)\n";
  for (const auto& [query, fact] : app.installed) {
    out << "  " << query << " = " << (fact.installed ? 1 : 0) << ": "
        << (fact.installed ? "found: " : "not found: ") << fact.evidence << "\n";
  }
}

}  // namespace

void explain(const ir::Application& app, const plan::ApplicationPlan& plan, std::ostream& out) {
  print_platform_queries(app, out);
  for (const plan::WrapperPlan& wrapper : plan.wrappers) {
    const ir::Interface& iface = *wrapper.iface;
    out << "interface " << ir::display_name(iface) << " ("
        << std::filesystem::path(iface.descriptor_file).filename().string() << ")\n";
    for (const ir::Variant& v : iface.variants) {
      std::string why = left_out_because(plan.options, iface, v);
      out << "  " << (why.empty() ? "in:  " : "out: ") << v.name << " (" << ir::to_string(v.backend)
          << ")" << (why.empty() ? "" : ": " + why) << "\n";
      if (why.empty()) print_platform_names(app, plan.options, iface, v, out);
    }
    const ir::TrainedInterface* t = app.table ? app.table->find(ir::display_name(iface)) : nullptr;
    if (t == nullptr) {
      out << "  not trained" << (app.table ? " (not in " + app.table->file + ")" : "")
          << ": the runtime chooses among the variants kept\n";
      continue;
    }
    out << "  trained in " << app.table->file << " (platform " << app.table->platform << "), "
        << (plan.options.static_dispatch ? "dispatched statically" : "seeding the cost model")
        << "; fastest variant per trained point:\n";
    print_winners(*t, out);
  }
}

}  // namespace peppher::explain
