// XML loading and validation for one descriptor: parses in place with pugixml, resolves
// namespace prefixes, checks every PEPPHER element and attribute against the vocabulary,
// and turns parser pointers into file positions.
#include "compose/read/doc.h"

#include <cstring>

#include "compose/util/text.h"

namespace peppher::read {
namespace {

constexpr int kMaxDepth = 64;

using text::trim;

void split_qname(const std::string& q, std::string& prefix, std::string& local) {
  size_t colon = q.find(':');
  if (colon == std::string::npos) {
    prefix.clear();
    local = q;
  } else {
    prefix = q.substr(0, colon);
    local = q.substr(colon + 1);
  }
}

// Where a known element may appear, for "belongs in" hints.
std::string parent_of(const std::string& local) {
  for (const ElementSpec& e : all_elements()) {
    if (allows_child(e, local)) return e.name;
  }
  return "";
}

}  // namespace

Doc::Doc(std::string file, std::string text, diag::Diagnostics& diag)
    : file_(file),
      original_(text),
      buffer_(std::move(text)),
      lines_(std::move(file), original_),
      diag_(diag) {}

size_t Doc::offset_of(const char* p) const {
  const char* b = buffer_.data();
  if (p < b || p > b + buffer_.size()) return std::string::npos;
  return static_cast<size_t>(p - b);
}

bool Doc::load() {
  // pugixml parses in place; the buffer's characters stay where they were, so node and
  // attribute pointers give offsets into the original text.
  buffer_.push_back('\0');
  pugi::xml_parse_result r = doc_.load_buffer_inplace(
      buffer_.data(), buffer_.size() - 1, pugi::parse_default | pugi::parse_ws_pcdata_single,
      pugi::encoding_utf8);
  if (!r) {
    size_t off = r.offset < 0 ? 0 : static_cast<size_t>(r.offset);
    if (off > original_.size()) off = original_.size();
    diag_.error(lines_.loc(off), std::string("malformed XML: ") + r.description());
    return false;
  }
  pugi::xml_node root = doc_.document_element();
  if (!root) {
    diag_.error(lines_.loc(0), "no root element; expected 'peppher:component'");
    return false;
  }
  scope_.clear();
  validate(root, nullptr, 0);
  return static_cast<bool>(root_);
}

std::string Doc::resolve_prefix(const std::string& prefix) const {
  if (prefix == "xml") return "http://www.w3.org/XML/1998/namespace";
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first == prefix) return it->second;
  }
  return prefix.empty() ? "" : "\x01";  // \x01: undeclared prefix
}

void Doc::validate(pugi::xml_node node, const ElementSpec* parent, int depth) {
  size_t scope_size = scope_.size();
  for (pugi::xml_attribute a : node.attributes()) {
    std::string n = a.name();
    if (n == "xmlns")
      scope_.emplace_back("", a.value());
    else if (n.compare(0, 6, "xmlns:") == 0)
      scope_.emplace_back(n.substr(6), a.value());
  }
  std::string prefix, local;
  split_qname(node.name(), prefix, local);
  std::string uri = resolve_prefix(prefix);
  std::string shown_prefix = prefix.empty() ? "" : prefix + ":";
  const std::string pp = parent ? prefix_ : "peppher:";
  auto finish = [&] { scope_.resize(scope_size); };

  if (uri == "\x01") {
    diag_.error(loc(node), "namespace prefix '" + prefix + "' of element '" + node.name() +
                               "' is not declared");
    return finish();
  }
  if (uri != kPeppherNamespace) {
    if (!parent) {
      if (local == "component") {
        diag_.error(loc(node), "root element '" + std::string(node.name()) +
                                   "' is not in the PEPPHER namespace; declare xmlns:peppher=\"" +
                                   kPeppherNamespace + "\" and use 'peppher:component'");
      } else {
        diag_.error(loc(node), "root element is '" + std::string(node.name()) +
                                   "'; expected 'peppher:component'");
      }
    } else if (uri.empty() && find_element(local)) {
      diag_.warning(loc(node), "element '" + local +
                                   "' is not in the PEPPHER namespace and is ignored; did you "
                                   "mean '" +
                                   pp + local + "'?");
    }
    return finish();  // foreign namespaces are ignored with everything inside them
  }

  const ElementSpec* spec = find_element(local);
  if (!parent) {
    if (local != "component") {
      diag_.error(loc(node), "root element is '" + std::string(node.name()) + "'; expected '" +
                                 shown_prefix + "component'");
      return finish();
    }
    prefix_ = shown_prefix;
    root_ = node;
  } else if (!spec) {
    std::string s = diag::closest_match_in(local, parent->children);
    if (s.empty()) {
      std::vector<std::string> names;
      for (const ElementSpec& e : all_elements()) names.emplace_back(e.name);
      s = diag::closest_match_in(local, names);
    }
    diag_.error(loc(node), "unknown element '" + std::string(node.name()) + "'" +
                               diag::did_you_mean(s.empty() ? "" : shown_prefix + s));
    return finish();
  } else if (!allows_child(*parent, local)) {
    std::string where = parent_of(local);
    diag_.error(loc(node), "element '" + std::string(node.name()) + "' is not allowed in '" + pp +
                               parent->name + "'" +
                               (where.empty() ? "" : "; it belongs in '" + pp + where + "'"));
    return finish();
  }
  if (depth > kMaxDepth) {
    diag_.error(loc(node), "elements are nested too deeply");
    return finish();
  }
  ours_[node.internal_object()] = spec;

  // Attributes: ours unprefixed (or with a prefix bound to our namespace); others ignored.
  std::string name_value;
  for (pugi::xml_attribute a : node.attributes()) {
    std::string n = a.name();
    if (n == "xmlns" || n.compare(0, 6, "xmlns:") == 0) continue;
    std::string aprefix, alocal;
    split_qname(n, aprefix, alocal);
    if (!aprefix.empty()) {
      std::string auri = resolve_prefix(aprefix);
      if (auri == "\x01") {
        diag_.error(attr_loc(a),
                    "namespace prefix '" + aprefix + "' of attribute '" + n + "' is not declared");
        continue;
      }
      if (auri != kPeppherNamespace) continue;
    }
    if (!has_attribute(*spec, alocal)) {
      std::string msg = "unknown attribute '" + n + "' on '" + std::string(node.name()) + "'";
      std::string s = diag::closest_match_in(alocal, spec->attributes);
      if (!s.empty())
        msg += diag::did_you_mean(s);
      else if (spec->attributes.empty())
        msg += " (it takes no attributes)";
      diag_.error(attr_loc(a), msg);
    }
  }
  for (const char* req : spec->required) {
    if (!attr(node, req)) {
      pugi::xml_attribute nm = attr(node, "name");
      std::string who = nm && std::strcmp(req, "name") != 0
                            ? std::string(spec->name) + " '" + nm.value() + "'"
                            : "element '" + std::string(node.name()) + "'";
      diag_.error(loc(node), who + " is missing required attribute '" + req + "'");
    }
  }
  for (pugi::xml_node c : node.children()) {
    if (c.type() == pugi::node_element) {
      validate(c, spec, depth + 1);
    } else if (!spec->text && (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata)) {
      std::string t = trim(c.value());
      if (!t.empty()) {
        if (t.size() > 20) t = t.substr(0, 20) + "...";
        diag_.error(text_loc(c), "unexpected text '" + t + "' in '" + node.name() + "'");
      }
    }
  }
  finish();
}

std::vector<pugi::xml_node> Doc::children(pugi::xml_node node, const char* local) const {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c : node.children()) {
    auto it = ours_.find(c.internal_object());
    if (it != ours_.end() && std::strcmp(it->second->name, local) == 0) out.push_back(c);
  }
  return out;
}

pugi::xml_node Doc::single_child(pugi::xml_node node, const char* local) const {
  std::vector<pugi::xml_node> all = children(node, local);
  if (all.empty()) return {};
  for (size_t i = 1; i < all.size(); ++i) {
    diag_.error(loc(all[i]),
                "more than one '" + qualified(local) + "' in '" + std::string(node.name()) + "'");
  }
  return all[0];
}

std::string Doc::local_name(pugi::xml_node node) const {
  auto it = ours_.find(node.internal_object());
  return it == ours_.end() ? "" : it->second->name;
}

pugi::xml_attribute Doc::attr(pugi::xml_node node, const char* local) const {
  for (pugi::xml_attribute a : node.attributes()) {
    const char* n = a.name();
    if (std::strcmp(n, local) == 0) return a;
    const char* colon = std::strchr(n, ':');
    if (colon && std::strcmp(colon + 1, local) == 0 && std::strncmp(n, "xmlns", 5) != 0) {
      std::string p(n, colon);
      if (resolve_prefix(p) == kPeppherNamespace) return a;
    }
  }
  return {};
}

std::string Doc::text(pugi::xml_node node) const {
  std::string out;
  for (pugi::xml_node c : node.children()) {
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) out += c.value();
  }
  return trim(out);
}

ir::SourceLoc Doc::loc(pugi::xml_node node) const {
  size_t off = offset_of(node.name());
  if (off == std::string::npos || off == 0) return lines_.loc(0);
  return lines_.loc(off - 1);  // the '<' before the name
}

ir::SourceLoc Doc::attr_loc(pugi::xml_attribute a) const {
  size_t off = offset_of(a.name());
  return off == std::string::npos ? lines_.loc(0) : lines_.loc(off);
}

ir::SourceLoc Doc::value_loc(pugi::xml_attribute a) const {
  return expr(a).loc;
}

ir::SourceLoc Doc::text_loc(pugi::xml_node node) const {
  pugi::xml_node t = node;
  if (node.type() == pugi::node_element) {
    t = pugi::xml_node();
    for (pugi::xml_node c : node.children()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        t = c;
        break;
      }
    }
    if (!t) return loc(node);
  }
  size_t off = offset_of(t.value());
  if (off == std::string::npos) return loc(node);
  // Skip leading whitespace so the position lands on the first visible character.
  while (off < original_.size() && std::strchr(" \t\r\n", original_[off]) && original_[off]) ++off;
  return lines_.loc(off);
}

ir::Expression Doc::expr(pugi::xml_attribute a, size_t start, size_t len) const {
  ir::Expression e;
  std::string value = a.value();
  if (start > value.size()) start = value.size();
  e.text = value.substr(start, len);
  size_t raw_begin = offset_of(a.value());
  if (raw_begin == std::string::npos || raw_begin == 0 || raw_begin > original_.size()) {
    e.loc = attr_loc(a);
    return e;
  }
  char quote = original_[raw_begin - 1];
  size_t raw_end = original_.find(quote == '\'' ? '\'' : '"', raw_begin);
  if (raw_end == std::string::npos) raw_end = original_.size();
  // Map decoded offsets to raw offsets: an entity is one decoded character.
  auto raw_at = [&](size_t decoded) {
    size_t r = raw_begin;
    for (size_t i = 0; i < decoded && r < raw_end; ++i) {
      if (original_[r] == '&') {
        size_t semi = original_.find(';', r);
        r = (semi == std::string::npos || semi >= raw_end) ? r + 1 : semi + 1;
      } else if (original_[r] == '\r' && r + 1 < raw_end && original_[r + 1] == '\n') {
        r += 2;
      } else {
        ++r;
      }
    }
    return r;
  };
  size_t a0 = raw_at(start);
  size_t a1 = len == std::string::npos ? raw_end : raw_at(start + e.text.size());
  if (a1 < a0) a1 = a0;
  e.raw = original_.substr(a0, a1 - a0);
  e.loc = lines_.loc(a0);
  return e;
}

bool Doc::boolean(pugi::xml_node node, const char* local, bool fallback) const {
  pugi::xml_attribute a = attr(node, local);
  if (!a) return fallback;
  std::string v = trim(a.value());
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  diag_.error(value_loc(a), "invalid value '" + std::string(a.value()) + "' for '" + local +
                                "' (expected 1, 0, true or false)");
  return fallback;
}

}  // namespace peppher::read
