// Checks of descriptor text that later stages paste into C++ and build files (see
// untrusted_text.h): identifiers, type spellings, file names, compiler words and flags,
// tunable values, platform names; then value checks over the resolved parameters.
#include "compose/check/untrusted_text.h"

#include <cctype>
#include <sstream>
#include <vector>

#include "compose/check/predicates.h"
#include "compose/expr/parser.h"

namespace peppher::check {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `[A-Za-z0-9_][A-Za-z0-9_.+-]*` (platform names, output names) or, with `lead_any`,
// `[A-Za-z0-9_.+-]+` (tunable values, constraint names).
bool is_plain_word(const std::string& s, bool lead_any) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok = is_word_char(c) || ((lead_any || i > 0) && (c == '.' || c == '+' || c == '-'));
    if (!ok) return false;
  }
  return true;
}

std::string shown(char c) {
  if (c == ' ') return "a blank";
  if (c == '\t') return "a tab";
  if (c == '\n' || c == '\r') return "a line break";
  if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "a control character";
  return std::string("'") + c + "'";
}

std::vector<std::string> words_of(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

const char* const kIdentifierPattern = " (a C identifier: [A-Za-z_][A-Za-z0-9_]*)";

void expect_identifier(const ir::SourceLoc& loc, const std::string& what, const std::string& name,
                       diag::Diagnostics& diag) {
  if (name.empty() || is_identifier(name)) return;  // missing names are the reader's errors
  diag.error(loc, what + " '" + name + "' is not a valid name" + kIdentifierPattern);
}

void expect_type(const ir::SourceLoc& loc, const std::string& what, const std::string& type,
                 diag::Diagnostics& diag) {
  if (type.empty()) return;
  std::string problem = type_spelling_problem(type);
  if (!problem.empty()) diag.error(loc, what + " '" + type + "' " + problem);
}

// A file name or path as written in a descriptor: it goes into the Makefile and
// peppher.cmake (and #include lines), so it must be one build word.
void expect_file(const ir::SourceLoc& loc, const std::string& what, const std::string& name,
                 diag::Diagnostics& diag) {
  if (name.empty()) return;
  std::string problem = name.find_first_of(" \t\r\n") != std::string::npos
                            ? "contains a blank"
                            : build_word_problem(name);
  if (!problem.empty()) {
    diag.error(loc, what + " '" + name + "' " + problem +
                        ", which a generated Makefile cannot hold safely; rename the file");
  }
}

// Compiler commands and flags: blanks separate words; each word must be safe.
void expect_words(const ir::SourceLoc& loc, const std::string& what, const std::string& text,
                  diag::Diagnostics& diag) {
  for (const std::string& w : words_of(text)) {
    std::string problem = build_word_problem(w);
    if (!problem.empty()) {
      diag.error(loc, what + " '" + w + "' " + problem +
                          ", which generated build files cannot hold safely");
      return;  // one error per element is enough
    }
  }
}

void check_sources(const std::vector<ir::SourceFile>& sources, diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : sources) {
    expect_file(f.loc, "source file", f.name, diag);
    expect_identifier(f.loc, "kernel", f.kernel, diag);
    expect_words(f.compiler.loc, "compiler", f.compiler.name, diag);
    expect_words(f.compiler.loc, "flag", f.compiler.flags, diag);
  }
}

void check_required(const std::vector<ir::RequiredInterface>& required, diag::Diagnostics& diag) {
  for (const ir::RequiredInterface& r : required) {
    expect_identifier(r.loc, "required interface", r.name, diag);
    expect_file(r.loc, "xmlFile", r.xml_file, diag);
    for (const std::vector<std::string>& inst : r.instantiate) {
      for (const std::string& type : inst) expect_type(r.loc, "instantiate type", type, diag);
    }
  }
}

void check_variant(const ir::Interface& iface, const ir::Variant& v, diag::Diagnostics& diag) {
  expect_identifier(v.loc, "implementation name", v.name, diag);
  if (!v.name.empty() && v.name == iface.name) {
    diag.error(v.loc, "implementation '" + v.name +
                          "' has the name of its interface; the entry "
                          "wrapper and the variant would be one C++ function: rename the variant "
                          "(e.g. '" +
                          v.name + "_cpu')");
  }
  expect_identifier(v.provides_loc, "provided interface", v.provides, diag);
  expect_identifier(v.loc, "prediction function", v.prediction_function, diag);
  check_sources(v.sources, diag);
  check_required(v.required, diag);
  for (const ir::Constraint& c : v.constraints) {
    if (!c.name.empty() && !is_plain_word(c.name, false)) {
      diag.error(c.loc, "constraint name '" + c.name +
                            "' is not a plain word ([A-Za-z0-9_][A-Za-z0-9_.+-]*)");
    }
  }
  for (const ir::Tunable& t : v.tunables) {
    expect_identifier(t.loc, "tunable", t.name, diag);
    for (const std::string& value : t.values) {
      if (!is_plain_word(value, true)) {
        diag.error(t.loc, "value '" + value + "' of tunable '" + t.name +
                              "' is not a plain word ([A-Za-z0-9_.+-]+: a number or a name); "
                              "it becomes -D" +
                              t.name + "=value and part of a variant name");
      }
    }
  }
}

void check_interface(const ir::Interface& iface, diag::Diagnostics& diag) {
  expect_identifier(iface.loc, "interface name", iface.name, diag);
  for (const std::string& t : iface.template_types) {
    expect_identifier(iface.loc, "template type", t, diag);
  }
  for (const ir::GenericParameter& g : iface.generic_parameters) {
    expect_identifier(g.loc, "generic parameter", g.name, diag);
    for (const std::string& type : g.types)
      expect_type(g.loc, "generic parameter type", type, diag);
  }
  for (const std::string& a : iface.performance_aspects) {
    expect_identifier(iface.loc, "performance aspect", a, diag);
  }
  for (const ir::Parameter& p : iface.parameters) {
    expect_identifier(p.loc, "parameter name", p.name, diag);
    expect_type(p.loc, "type of parameter '" + p.name + "',", p.type, diag);
    expect_type(p.loc, "elemType of parameter '" + p.name + "',", p.elem_type, diag);
    for (const std::string* n :
         {&p.csr.nrows, &p.csr.first, &p.csr.row_offsets, &p.csr.col_indices}) {
      expect_identifier(p.loc, "CSR parameter", *n, diag);
    }
  }
  for (const ir::Variant& v : iface.variants) check_variant(iface, v, diag);
}

}  // namespace

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!is_word_char(c)) return false;
  }
  return true;
}

std::string type_spelling_problem(const std::string& type) {
  int depth = 0;
  for (size_t i = 0; i < type.size(); ++i) {
    const char c = type[i];
    if (is_word_char(c) || c == ' ' || c == '\t' || c == '*' || c == '&' || c == ',') continue;
    if (c == ':') {
      if (i + 1 < type.size() && type[i + 1] == ':') {
        ++i;
        continue;
      }
      return "is not a type compose understands (a single ':')";
    }
    if (c == '<') {
      ++depth;
      continue;
    }
    if (c == '>') {
      if (--depth < 0) return "is not a type compose understands (unbalanced '>')";
      continue;
    }
    return "is not a type compose understands (" + shown(c) +
           "; a type is made of names, '::', '<>', ',', '*', '&' and blanks)";
  }
  if (depth != 0) return "is not a type compose understands (unbalanced '<')";
  if (type.find(',') != std::string::npos && type.find('<') == std::string::npos) {
    return "is not a type compose understands (',' outside '<>')";
  }
  return "";
}

std::string build_word_problem(const std::string& word) {
  for (char c : word) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == ' ' || c == '$' || c == '#' || c == ';' || c == '\'' ||
        c == '"' || c == '`' || c == '\\') {
      return "contains " + shown(c);
    }
  }
  return "";
}

void check_untrusted_text(const ir::Application& app, diag::Diagnostics& diag) {
  check_sources(app.sources, diag);
  expect_words(app.link.loc, "link command", app.link.name, diag);
  expect_words(app.link.loc, "link flag", app.link.flags, diag);
  if (!app.link.output.empty() && !is_plain_word(app.link.output, false)) {
    diag.error(app.link.loc, "output '" + app.link.output +
                                 "' is not a plain file name "
                                 "([A-Za-z0-9_][A-Za-z0-9_.+-]*); the program is built in the "
                                 "output folder");
  }
  check_required(app.required, diag);
  if (!app.composition.scheduler.empty() && !is_plain_word(app.composition.scheduler, false)) {
    diag.error(app.composition.loc, "scheduler '" + app.composition.scheduler +
                                        "' is not a StarPU scheduler name "
                                        "([A-Za-z0-9_][A-Za-z0-9_.+-]*)");
  }
  if (app.platform && !app.platform->name.empty() && !is_plain_word(app.platform->name, false)) {
    diag.error(app.platform->loc, "platform name '" + app.platform->name +
                                      "' is not a plain word ([A-Za-z0-9_][A-Za-z0-9_.+-]*); "
                                      "it names the file peppher_perf.<platform>.xml");
  }
  if (app.platform) {
    for (const auto& [name, value] : app.platform->properties) {
      expect_identifier(app.platform->loc, "platform property", name, diag);
    }
  }
  for (const ir::Interface& iface : app.interfaces) check_interface(iface, diag);
}

}  // namespace peppher::check
