// Depth-first post-order over interfaces with white/grey/black marking; a grey target is
// a cycle, printed as "a -> b -> a" at the requirement that closes it. A variant that
// requires its own interface (recursion) is no cycle.
#include "compose/explore/order.h"

#include <map>

namespace peppher::explore {
namespace {

struct Edge {
  size_t to;
  const ir::RequiredInterface* where;
};

class Orderer {
 public:
  Orderer(std::vector<ir::Interface>& ifs, diag::Diagnostics& d) : ifs_(ifs), diag_(d) {
    for (size_t i = 0; i < ifs_.size(); ++i) index_[ifs_[i].name] = i;
    edges_.resize(ifs_.size());
    for (size_t i = 0; i < ifs_.size(); ++i) {
      for (const ir::Variant& v : ifs_[i].variants) {
        for (const ir::RequiredInterface& r : v.required) {
          auto it = index_.find(r.name);
          // A variant calling its own interface (recursion) needs no order: its header
          // is generated with it, and the nested call runs on the calling worker.
          if (it != index_.end() && it->second != i) edges_[i].push_back(Edge{it->second, &r});
        }
      }
    }
    color_.assign(ifs_.size(), 0);
  }

  void visit_root(const std::string& name) {
    auto it = index_.find(name);
    if (it != index_.end()) visit(it->second);
  }
  void visit_all() {
    for (size_t i = 0; i < ifs_.size(); ++i) visit(i);
  }
  std::vector<ir::Interface> take() {
    std::vector<ir::Interface> out;
    for (size_t i : order_) out.push_back(std::move(ifs_[i]));
    return out;
  }

 private:
  void visit(size_t i) {
    if (color_[i] != 0) return;
    color_[i] = 1;
    stack_.push_back(i);
    for (const Edge& e : edges_[i]) {
      if (color_[e.to] == 1) {
        report_cycle(e);
      } else if (color_[e.to] == 0) {
        path_.push_back(e.where);
        visit(e.to);
        path_.pop_back();
      }
    }
    stack_.pop_back();
    color_[i] = 2;
    order_.push_back(i);
  }

  void report_cycle(const Edge& closing) {
    size_t start = 0;
    while (stack_[start] != closing.to) ++start;
    std::string text;
    for (size_t k = start; k < stack_.size(); ++k) text += ifs_[stack_[k]].name + " -> ";
    text += ifs_[closing.to].name;
    diag_.error(closing.where->loc, "cycle in required interfaces: " + text);
    // path_[k] is the edge into stack_[k + 1].
    for (size_t k = start; k + 1 < stack_.size(); ++k) {
      diag_.note(path_[k]->loc,
                 "'" + ifs_[stack_[k]].name + "' requires '" + ifs_[stack_[k + 1]].name + "' here");
    }
  }

  std::vector<ir::Interface>& ifs_;
  diag::Diagnostics& diag_;
  std::map<std::string, size_t> index_;
  std::vector<std::vector<Edge>> edges_;
  std::vector<int> color_;
  std::vector<size_t> stack_;
  std::vector<const ir::RequiredInterface*> path_;
  std::vector<size_t> order_;
};

}  // namespace

std::vector<ir::Interface> order_bottom_up(const std::vector<ir::RequiredInterface>& roots,
                                           std::vector<ir::Interface> interfaces,
                                           diag::Diagnostics& diag) {
  Orderer o(interfaces, diag);
  for (const ir::RequiredInterface& r : roots) o.visit_root(r.name);
  o.visit_all();
  return o.take();
}

}  // namespace peppher::explore
