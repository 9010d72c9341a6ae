// Strict Mustache rendering: a context that refuses unknown names, so every flag and list
// a template uses must be computed by the emitter (templates hold no logic).
#include "compose/emit/render.h"

#include <algorithm>

#include "compose/emit/embedded_templates.h"

namespace peppher::emit {
namespace {

namespace mustache = kainjow::mustache;

class StrictContext : public mustache::context<std::string> {
 public:
  StrictContext(const std::string& label, const TemplateData* data)
      : mustache::context<std::string>(data), label_(label) {}

  const TemplateData* get(const std::string& name) const override {
    const TemplateData* found = mustache::context<std::string>::get(name);
    if (found == nullptr) {
      throw TemplateError("template '" + label_ + "': no value for '" + name + "'");
    }
    return found;
  }

  const TemplateData* get_partial(const std::string& name) const override {
    const TemplateData* found = mustache::context<std::string>::get_partial(name);
    if (found == nullptr) {
      throw TemplateError("template '" + label_ + "': no partial named '" + name + "'");
    }
    return found;
  }

 private:
  std::string label_;
};

constexpr char kBlankLineMarker = '\x01';

// A line holding only a section or partial tag disappears from the output, as the
// Mustache spec says for "standalone" tags. kainjow leaves an empty line for a skipped
// section, so the tag is glued to the next line before parsing instead.
std::string strip_standalone_tags(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    std::size_t next = end == std::string::npos ? text.size() : end + 1;
    std::string line = text.substr(pos, (end == std::string::npos ? text.size() : end) - pos);
    std::size_t first = line.find_first_not_of(" \t");
    std::size_t last = line.find_last_not_of(" \t");
    bool standalone = first != std::string::npos && line.compare(first, 2, "{{") == 0 &&
                      std::string("#^/>").find(line[first + 2]) != std::string::npos &&
                      line.compare(last - 1, 2, "}}") == 0 && line.find("}}") == last - 1;
    if (standalone) {
      out += line.substr(first, last - first + 1);
      // A blank line after the tag is wanted in the output: keep it from being taken for
      // a standalone-tag line too (the marker is removed after rendering).
      std::size_t after = text.find('\n', next);
      std::string next_line =
          text.substr(next, after == std::string::npos ? std::string::npos : after - next);
      if (next < text.size() && next_line.find_first_not_of(" \t") == std::string::npos) {
        out += kBlankLineMarker;
      }
    } else {
      out += text.substr(pos, next - pos);
    }
    pos = next;
  }
  return out;
}

}  // namespace

std::string render_template_text(const std::string& label, const std::string& text,
                                 const TemplateData& data) {
  mustache::mustache tmpl{strip_standalone_tags(text)};
  if (!tmpl.is_valid()) {
    throw TemplateError("template '" + label + "': " + tmpl.error_message());
  }
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  StrictContext ctx(label, &data);
  std::string out = tmpl.render(ctx);
  if (!tmpl.is_valid()) {
    throw TemplateError("template '" + label + "': " + tmpl.error_message());
  }
  out.erase(std::remove(out.begin(), out.end(), kBlankLineMarker), out.end());
  return out;
}

std::string render_template(const std::string& name, const TemplateData& data) {
  const auto& templates = embedded_templates();
  auto it = templates.find(name);
  if (it == templates.end()) throw TemplateError("no template named '" + name + "'");
  // Templates whose name starts with '_' are partials, available to every template.
  TemplateData with_partials = data;
  for (const auto& [partial_name, text] : templates) {
    if (partial_name.rfind('_', 0) != 0) continue;
    std::string partial_text = strip_standalone_tags(text);
    with_partials.set(partial_name, mustache::partial{[partial_text] { return partial_text; }});
  }
  return render_template_text(name, it->second, with_partials);
}

}  // namespace peppher::emit
