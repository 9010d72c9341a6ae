// Renders one of the embedded Mustache templates with data computed beforehand by an
// emitter. Strict: an unknown template, a template syntax error or a variable missing
// from the data is a TemplateError, never an empty string.
#pragma once

#include <kainjow/mustache.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace peppher::emit {

using TemplateData = kainjow::mustache::data;

/// A bug in a template or in the data an emitter built for it (an internal error).
struct TemplateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Renders `templates/<name>.mustache` with `data`; no HTML escaping (the output is code).
std::string render_template(const std::string& name, const TemplateData& data);

/// Renders a template given as text (for tests of the strictness itself).
std::string render_template_text(const std::string& label, const std::string& text,
                                 const TemplateData& data);

/// A Mustache list built from a range, converting each element with `to_data`.
template <typename Range, typename ToData>
TemplateData make_list(const Range& range, ToData to_data) {
  TemplateData list{TemplateData::type::list};
  for (const auto& item : range) list.push_back(to_data(item));
  return list;
}

/// A Mustache boolean (emitters set every flag a template tests, true or false).
inline TemplateData flag(bool b) {
  return b ? TemplateData{TemplateData::type::bool_true}
           : TemplateData{TemplateData::type::bool_false};
}

/// "a, b, c": parameter lists, argument lists, initializers.
inline std::string comma_list(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace peppher::emit
