// Renders one of the embedded Mustache templates with data computed beforehand by an
// emitter. Strict: an unknown template, a template syntax error or a variable missing
// from the data is a TemplateError, never an empty string.
#pragma once

#include <kainjow/mustache.hpp>
#include <stdexcept>
#include <string>

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

}  // namespace peppher::emit
