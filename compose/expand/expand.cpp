// Tunable expansion, static pruning and the slot limit (see expand.h). Each expanded
// variant keeps its tunables with one value each and records its base name, so emit/
// compiles the base function once per combination with -D<base>=<expanded> -DBLOCK=<v>.
#include "compose/expand/expand.h"

#include <starpu_config.h>  // STARPU_MAXIMPLEMENTATIONS

#include <algorithm>
#include <cctype>
#include <map>

#include "compose/check/predicates.h"
#include "compose/expand/combinations.h"
#include "compose/expand/generics.h"
#include "compose/expr/parser.h"
#include "compose/ir/backends.h"

namespace peppher::expand {
namespace {

// Every combination of the variant's tunable values, first tunable varying slowest. More
// than kMaxCombinations is an error (each copy is a compiled object and a codelet slot
// candidate; 7 tunables of 10 values would be 10^7 variants).
std::vector<ir::Variant> expand_variant(const ir::Variant& v, diag::Diagnostics& diag) {
  std::vector<ir::Variant> out;
  bool expands = false;
  for (const ir::Tunable& t : v.tunables) expands = expands || !t.values.empty();
  if (!expands) return {v};
  size_t count = 1;
  std::string product;
  for (const ir::Tunable& t : v.tunables) {
    const size_t n = std::max<size_t>(t.values.size(), 1);
    product += (product.empty() ? "" : " x ") + std::to_string(n);
    count = count > kMaxCombinations ? count : count * n;
  }
  if (count > kMaxCombinations) {
    diag.error(v.loc, "the tunables of implementation '" + v.name + "' give " + product +
                          " combinations, more than the " + std::to_string(kMaxCombinations) +
                          " compose expands per implementation: give fewer values");
    return {};
  }
  std::vector<std::vector<ir::Tunable>> choices;  // per tunable: one copy per value
  for (const ir::Tunable& t : v.tunables) {
    choices.emplace_back();
    if (t.values.empty()) choices.back().push_back(t);  // nothing to expand: kept as declared
    for (const std::string& value : t.values) {
      ir::Tunable fixed = t;
      fixed.values = {value};
      choices.back().push_back(fixed);
    }
  }
  for (const auto& fixed : all_combinations(choices)) {
    ir::Variant e = v;
    e.tunables = fixed;
    e.base_name = v.name;
    e.name = expanded_name(v.name, fixed);
    out.push_back(std::move(e));
  }
  return out;
}

// Marks variants whose constraints are false whatever the call (platform or options).
void prune(const ir::Application& app, const ir::Options& options, ir::Interface& iface,
           diag::Diagnostics& diag) {
  const bool had_variants = !ir::enabled_variants(options, iface).empty();
  for (ir::Variant& v : iface.variants) {
    if (v.disabled) continue;
    for (const ir::Constraint& c : v.constraints) {
      if (!check::statically_false(app, options, iface, v, c)) continue;
      v.disabled = true;
      v.left_out = "its constraint '" + c.expr.text + "' is false on this platform";
      if (options.verbosity > 0) {
        diag.note(c.expr.loc, "implementation '" + v.name + "' is left out: " + v.left_out);
      }
      break;
    }
  }
  if (had_variants && ir::enabled_variants(options, iface).empty()) {
    diag.error(iface.loc, "interface '" + iface.name +
                              "' has no variant left: the constraints of "
                              "every enabled variant are false on this platform");
  }
}

// The enabled variants of `iface` in slot group `b` (CPU and OPENMP share one).
std::vector<ir::Variant*> slot_members(const ir::Options& options, ir::Interface& iface,
                                       ir::Backend b) {
  std::vector<ir::Variant*> out;
  for (ir::Variant& v : iface.variants) {
    if (!v.disabled && ir::same_codelet_group(v.backend, b) &&
        ir::backend_enabled(options, iface, v.backend)) {
      out.push_back(&v);
    }
  }
  return out;
}

// Orders `members` best first by the training table: most trained points won clearly (by
// more than 5 %, so that noise does not hand out wins), then least total time; untrained
// variants last, in descriptor order.
void rank_by_table(const ir::TrainedInterface& t, std::vector<ir::Variant*>& members) {
  constexpr double kMargin = 0.05;
  std::map<std::string, std::pair<int, double>> score;  // variant -> (points won, total us)
  for (const auto& [point, times] : t.us) {
    std::string best;
    double best_us = 0, second_us = 0;
    for (const auto& [variant, us] : times) {
      score[variant].second += us;
      if (best.empty() || us < best_us) {
        second_us = best.empty() ? 0 : best_us;
        best = variant;
        best_us = us;
      } else if (second_us == 0 || us < second_us) {
        second_us = us;
      }
    }
    if (!best.empty() && (second_us == 0 || second_us > best_us * (1 + kMargin)))
      ++score[best].first;
  }
  std::stable_sort(members.begin(), members.end(), [&](ir::Variant* a, ir::Variant* b) {
    auto sa = score.find(a->name), sb = score.find(b->name);
    if (sa == score.end() || sb == score.end()) return sa != score.end() && sb == score.end();
    if (sa->second.first != sb->second.first) return sa->second.first > sb->second.first;
    return sa->second.second < sb->second.second;
  });
}

// More enabled expanded variants on one backend than StarPU has slots. Training (--train)
// keeps them all, the extra ones outside the codelet; after training the table picks the
// best; without a table the first ones are kept.
void limit_slots(const ir::Application& app, const ir::Options& options, ir::Interface& iface,
                 diag::Diagnostics& diag) {
  const ir::TrainedInterface* trained =
      app.table ? app.table->find(ir::display_name(iface)) : nullptr;
  for (ir::Backend b : ir::codelet_groups()) {
    std::vector<ir::Variant*> members = slot_members(options, iface, b);
    if (static_cast<int>(members.size()) <= STARPU_MAXIMPLEMENTATIONS) continue;
    if (trained && !options.train) rank_by_table(*trained, members);
    int kept = 0;
    std::vector<const ir::Variant*> cut;
    for (ir::Variant* v : members) {
      // Only expanded copies give way; descriptor variants beyond the limit are an error
      // the wrapper plan reports.
      if (++kept <= STARPU_MAXIMPLEMENTATIONS || v->base_name.empty()) continue;
      if (options.train) {
        v->training_only = true;
        continue;
      }
      v->disabled = true;
      v->left_out = trained ? "StarPU's slot limit (slower in the training table)"
                            : "StarPU's slot limit (the first copies are kept)";
      cut.push_back(v);
    }
    std::string dropped;  // in descriptor order
    for (const ir::Variant& v : iface.variants) {
      if (std::find(cut.begin(), cut.end(), &v) != cut.end()) {
        dropped += (dropped.empty() ? "'" : ", '") + v.name + "'";
      }
    }
    if (options.train || dropped.empty()) continue;
    diag.warning(iface.loc,
                 "tunable expansion gives interface '" + iface.name + "' " +
                     std::to_string(members.size()) + " " + ir::to_string(b) +
                     " variants, but this StarPU allows at most " +
                     std::to_string(STARPU_MAXIMPLEMENTATIONS) + " per backend; " +
                     (trained ? "kept the fastest in " + app.table->file
                              : std::string("kept the first (train to keep the fastest)")) +
                     ", dropped " + dropped);
  }
}

// A constraint naming a tunable that has no values cannot be compiled: nothing defines it.
void check_unvalued_tunables(const ir::Variant& v, diag::Diagnostics& diag) {
  for (const ir::Tunable& t : v.tunables) {
    if (!t.values.empty()) continue;
    for (const ir::Constraint& c : v.constraints) {
      if (!c.expr.ast) continue;
      std::vector<const expr::Node*> ids;
      expr::collect_identifiers(*c.expr.ast, ids);
      for (const expr::Node* id : ids) {
        if (id->text != t.name) continue;
        diag.error(ir::loc_at(c.expr, id->offset),
                   "constraint of '" + v.name + "' uses tunable '" + t.name +
                       "', which has no values; give it values=\"...\" to expand the variant");
        break;
      }
    }
  }
}

// -disableImpls names that check/ let through as tunable copies (`<variant>__...`) but that
// no expansion produced (other unknown names were reported there).
void warn_unknown_copies(const ir::Application& app, const ir::Options& options,
                         diag::Diagnostics& diag) {
  std::vector<std::string> names, bases;
  for (const ir::Interface& i : app.interfaces) {
    for (const ir::Variant& v : i.variants) {
      names.push_back(v.name);
      if (!v.base_name.empty()) bases.push_back(v.base_name + "__");
    }
  }
  for (const std::string& name : options.disable_impls) {
    const bool copy_like = std::any_of(bases.begin(), bases.end(),
                                       [&](const std::string& b) { return name.rfind(b, 0) == 0; });
    if (!copy_like || std::find(names.begin(), names.end(), name) != names.end()) continue;
    diag.warning("-disableImpls: no implementation or tunable copy named '" + name + "'" +
                 diag::did_you_mean(diag::closest_match_in(name, names)));
  }
}

}  // namespace

std::string expanded_name(const std::string& base, const std::vector<ir::Tunable>& fixed) {
  std::string name = base;
  for (const ir::Tunable& t : fixed) {
    if (t.values.size() != 1) continue;
    name += "__" + t.name + "_";
    for (char c : t.values.front()) {
      name += std::isalnum(static_cast<unsigned char>(c)) ? c
              : c == '-'                                  ? 'm'
              : c == '.'                                  ? 'p'
                                                          : '_';
    }
  }
  return name;
}

ir::Application expand(const ir::Application& app, const ir::Options& options,
                       const facts::CalledInstantiations& called, diag::Diagnostics& diag) {
  ir::Application out = app;
  for (const auto& [name, instantiations] : called) {  // as requiredInterface instantiate lists
    for (ir::RequiredInterface& r : out.required) {
      if (r.name != name) continue;
      r.instantiate = instantiations;
      break;
    }
  }
  expand_generics(out, diag);
  for (ir::Interface& iface : out.interfaces) {
    std::vector<ir::Variant> variants;
    for (const ir::Variant& v : iface.variants) {
      check_unvalued_tunables(v, diag);
      for (ir::Variant& e : expand_variant(v, diag)) {
        const auto& off = options.disable_impls;
        if (!e.base_name.empty() && std::find(off.begin(), off.end(), e.name) != off.end()) {
          if (!e.disabled) e.disabled_by_option = true;  // -disableImpls=<variant>__BLOCK_32
          e.disabled = true;
        }
        variants.push_back(std::move(e));
      }
    }
    iface.variants = std::move(variants);
    prune(out, options, iface, diag);
    limit_slots(out, options, iface, diag);
  }
  warn_unknown_copies(out, options, diag);
  return out;
}

}  // namespace peppher::expand
