// Utility mode's light-form output (see light_skeleton.h): which planned components the
// light form can describe, and the header's text with their annotations inserted.
#include "compose/light/light_skeleton.h"

#include <algorithm>
#include <map>
#include <regex>

namespace peppher::light {
namespace {

// The function `plan` was made from: the first of its name (a renamed overload has none).
const scan::ScannedFunction* function_of(const scan::ScannedHeader& header,
                                         const skeleton::ComponentPlan& plan) {
  for (const scan::ScannedFunction& f : header.functions) {
    if (f.qualified_name == plan.function && f.name == plan.name) return &f;
  }
  return nullptr;
}

// Why the light form cannot describe `f` ("" when it can). A function template whose
// template parameters are all types is a generic interface (its skeletons are templates).
std::string light_refusal(const scan::ScannedFunction& f) {
  for (const scan::ScannedTemplateParam& t : f.template_params) {
    if (!t.is_type)
      return "its template parameter '" + t.name +
             "' is not a type (a generic light-form interface takes type parameters only)";
  }
  if (!f.namespaces.empty()) return "it is declared in a namespace";
  if (!f.member_of.empty()) return "it is a member function";
  if (f.returns_value) return "it returns a value";
  for (const scan::ScannedParam& p : f.params) {
    if (p.shape == scan::ParamShape::Unsupported) return "parameter '" + p.name + "' " + p.refusal;
    if (p.name.empty()) return "a parameter has no name (annotations refer to names)";
  }
  return "";
}

std::string xml_unescaped(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [entity, plain] : entities) {
    for (size_t at = s.find(entity); at != std::string::npos; at = s.find(entity, at + 1))
      s.replace(at, std::string(entity).size(), plain);
  }
  return s;
}

// The annotations parameter `s` needs for the planner's guesses in `p`: an access mode the
// type does not give, a raw pointer's length.
std::string annotations(const scan::ScannedParam& s, const skeleton::ParamPlan& p) {
  const bool mutable_referee =
      (s.shape == scan::ParamShape::Pointer || s.shape == scan::ParamShape::LValueReference) &&
      !s.pointee_const;
  const std::string by_type = mutable_referee ? "readwrite" : "read";
  std::string out;
  if (p.access != by_type) {
    out += p.access == "read"    ? " PEPPHER_READ"
           : p.access == "write" ? " PEPPHER_WRITE"
                                 : " PEPPHER_READWRITE";
  }
  if (s.shape == scan::ParamShape::Pointer && p.has_num_elements)
    out += " PEPPHER_SIZE(" + xml_unescaped(p.num_elements) + ")";
  return out;
}

// Offsets of each line's start in `text`.
std::vector<size_t> line_starts(const std::string& text) {
  std::vector<size_t> starts = {0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

// Where `#include <peppher/annotate.h>` goes: before the first #include, else after
// #pragma once or the include guard's #define, else after the opening comment lines.
size_t include_position(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"((^|\n)[ \t]*#[ \t]*include\b)")))
    return static_cast<size_t>(m.position(0)) + m[1].length();
  for (const char* after : {R"((^|\n)[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n)",
                            R"((^|\n)[ \t]*#[ \t]*define[ \t]+\w+[ \t]*\n)"}) {
    if (std::regex_search(text, m, std::regex(after)))
      return static_cast<size_t>(m.position(0) + m.length(0));
  }
  size_t at = 0;
  while (text.compare(at, 2, "//") == 0) {
    const size_t end = text.find('\n', at);
    if (end == std::string::npos) return text.size();
    at = end + 1;
  }
  return at;
}

}  // namespace

std::vector<skeleton::ComponentPlan> light_plans(const scan::ScannedHeader& header,
                                                 std::vector<skeleton::ComponentPlan> plans,
                                                 diag::Diagnostics& diag) {
  std::vector<skeleton::ComponentPlan> kept;
  for (skeleton::ComponentPlan& plan : plans) {
    const scan::ScannedFunction* f = function_of(header, plan);
    const std::string why = f == nullptr
                                ? "it overloads another function (an interface is named after its "
                                  "function)"
                                : light_refusal(*f);
    if (why.empty()) {
      kept.push_back(std::move(plan));
      continue;
    }
    ir::SourceLoc at;
    for (const scan::ScannedFunction& g : header.functions) {
      if (g.qualified_name == plan.function) at = g.loc;
    }
    diag.warning(at, "'" + plan.function + "' gets no light-form skeleton: " + why +
                         "; describe it in XML (utility mode without --light)");
  }
  return kept;
}

std::string annotated_header(const std::string& text, const scan::ScannedHeader& header,
                             const std::vector<skeleton::ComponentPlan>& plans) {
  const std::vector<size_t> starts = line_starts(text);
  std::map<size_t, std::string> inserts;  // offset -> text, applied back to front
  for (const skeleton::ComponentPlan& plan : plans) {
    const scan::ScannedFunction* f = function_of(header, plan);
    if (f == nullptr || f->params.size() != plan.params.size()) continue;
    for (size_t k = 0; k < f->params.size(); ++k) {
      const scan::ScannedParam& s = f->params[k];
      const std::string add = annotations(s, plan.params[k]);
      if (add.empty() || !s.array_size.empty() || s.loc.line < 1 ||
          static_cast<size_t>(s.loc.line) > starts.size())
        continue;
      const size_t at = starts[s.loc.line - 1] + static_cast<size_t>(s.loc.col - 1);
      if (text.compare(at, s.name.size(), s.name) != 0) continue;  // written by a macro
      inserts[at + s.name.size()] = add;
    }
  }
  if (inserts.empty()) return text;
  std::string out = text;
  for (auto it = inserts.rbegin(); it != inserts.rend(); ++it) out.insert(it->first, it->second);
  // <peppher/runtime.h> (a header taking peppher containers) brings the annotations too.
  if (!std::regex_search(out, std::regex(R"(#[ \t]*include[ \t]*<peppher/(annotate|runtime)\.h>)")))
    out.insert(include_position(out), "#include <peppher/annotate.h>\n");
  return out;
}

std::string with_flags(const std::string& source, const std::string& flags) {
  size_t at = 0;
  while (source.compare(at, 2, "//") == 0) {
    const size_t end = source.find('\n', at);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return source.substr(0, at) + "// PEPPHER_FLAGS(" + flags + ")\n" + source.substr(at);
}

}  // namespace peppher::light
