// Checks of descriptor text that later stages paste into C++ and build files (see
// untrusted_text.h): identifiers, type spellings, file names, compiler words and flags,
// tunable values, platform names; then value checks over the resolved parameters.
#include "compose/check/untrusted_text.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "compose/check/predicates.h"
#include "compose/check/reserved_names.h"
#include "compose/expr/parser.h"
#include "compose/ir/backends.h"
#include "compose/util/make_words.h"

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

// A name that becomes an identifier of generated code (`function`: a function it declares
// at global scope) must not be reserved (reserved_names.h).
void expect_unreserved(const ir::SourceLoc& loc, const std::string& what, const std::string& name,
                       bool function, diag::Diagnostics& diag) {
  if (!is_identifier(name)) return;  // expect_identifier's error
  const std::string why = function ? reserved_function_name(name) : reserved_identifier(name);
  if (!why.empty()) diag.error(loc, what + " '" + name + "' is reserved: " + why);
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

// Compile or link flags: as expect_words, but a `$` may start a plain reference to a
// variable (flags_problem). `run_time`: an OpenCL kernel's options, which the OpenCL
// compiler reads when the program runs, where nothing expands a variable.
void expect_flags(const ir::SourceLoc& loc, const std::string& what, const std::string& text,
                  bool run_time, diag::Diagnostics& diag) {
  if (run_time && text.find('$') != std::string::npos) {
    diag.error(loc, what + " '" + text.substr(text.find('$')) +
                        "' of an OpenCL kernel contains '$': its flags are build options "
                        "the OpenCL compiler reads when the program runs, where no variable "
                        "is expanded");
    return;
  }
  const std::string problem = flags_problem(text);
  if (!problem.empty()) diag.error(loc, what + " " + problem);
}

bool is_run_time_compiled(const ir::SourceFile& f) {
  return !f.kernel.empty() ||
         (f.name.size() > 3 && f.name.compare(f.name.size() - 3, 3, ".cl") == 0);
}

void check_sources(const std::vector<ir::SourceFile>& sources, bool opencl,
                   diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : sources) {
    expect_file(f.loc, "source file", f.name, diag);
    expect_identifier(f.loc, "kernel", f.kernel, diag);
    expect_unreserved(f.loc, "kernel", f.kernel, false, diag);
    expect_words(f.compiler.loc, "compiler", f.compiler.name, diag);
    expect_flags(f.compiler.loc, "flag", f.compiler.flags, opencl || is_run_time_compiled(f), diag);
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
  expect_unreserved(v.loc, "implementation name", v.name, true, diag);
  if (!v.name.empty() && v.name == iface.name) {
    diag.error(v.loc, "implementation '" + v.name +
                          "' has the name of its interface; the entry "
                          "wrapper and the variant would be one C++ function: rename the variant "
                          "(e.g. '" +
                          v.name + "_cpu')");
  }
  expect_identifier(v.provides_loc, "provided interface", v.provides, diag);
  expect_identifier(v.loc, "prediction function", v.prediction_function, diag);
  expect_unreserved(v.loc, "prediction function", v.prediction_function, true, diag);
  check_sources(v.sources, ir::info(v.backend).code == ir::VariantCode::Kernel, diag);
  check_required(v.required, diag);
  for (const ir::Constraint& c : v.constraints) {
    if (!c.name.empty() && !is_plain_word(c.name, false)) {
      diag.error(c.loc, "constraint name '" + c.name +
                            "' is not a plain word ([A-Za-z0-9_][A-Za-z0-9_.+-]*)");
    }
  }
  for (const ir::Tunable& t : v.tunables) {
    expect_identifier(t.loc, "tunable", t.name, diag);
    expect_unreserved(t.loc, "tunable", t.name, false, diag);
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
  expect_unreserved(iface.loc, "interface name", iface.name, true, diag);
  for (const std::string& t : iface.template_types) {
    expect_identifier(iface.loc, "template type", t, diag);
    expect_unreserved(iface.loc, "template type", t, false, diag);
  }
  for (const ir::GenericParameter& g : iface.generic_parameters) {
    expect_identifier(g.loc, "generic parameter", g.name, diag);
    expect_unreserved(g.loc, "generic parameter", g.name, false, diag);
    for (const std::string& type : g.types)
      expect_type(g.loc, "generic parameter type", type, diag);
  }
  for (const std::string& a : iface.performance_aspects) {
    expect_identifier(iface.loc, "performance aspect", a, diag);
  }
  for (const ir::Parameter& p : iface.parameters) {
    expect_identifier(p.loc, "parameter name", p.name, diag);
    expect_unreserved(p.loc, "parameter name", p.name, false, diag);
    expect_type(p.loc, "type of parameter '" + p.name + "',", p.type, diag);
    expect_type(p.loc, "elemType of parameter '" + p.name + "',", p.elem_type, diag);
    for (const std::string* n :
         {&p.csr.nrows, &p.csr.first, &p.csr.row_offsets, &p.csr.col_indices}) {
      expect_identifier(p.loc, "CSR parameter", *n, diag);
      expect_unreserved(p.loc, "CSR parameter", *n, false, diag);
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

const std::vector<std::string>& variables_not_from_outside() {
  static const std::vector<std::string> kNames = {
      // The generated Makefile's own (templates/Makefile.mustache; untrusted_test checks
      // that this list holds every variable the template sets).
      "PEPPHER_CFLAGS", "PEPPHER_LIBS", "PEPPHER_LIB_FILE", "PEPPHER_WARNINGS", "NVCC",
      "PEPPHER_STARPU", "STARPU_CFLAGS", "STARPU_LIBS", "MPICXX", "MPICC", "MPIRUN", "NP",
      "MPIRUN_FLAGS", "PEPPHER_MPI_LIBS", "PEPPHER_MPI_LIB_FILE", "COMMON_FLAGS", "GENERATED",
      "OBJECTS", "HAVE_NVCC", "STARPU_CONFIG_H", "STARPU_HAS_CUDA", "STARPU_CONFIG",
      "PEPPHER_RUNTIME_STARPU_DIR", "PEPPHER_RUNTIME_STARPU_CONFIG", "CUDA_OBJECTS", "CUDA_LINKED",
      "PEPPHER_CUDA_SUBMAKE", "PEPPHER_CUDA_CHECK", "PEPPHER_SAME_COMMAND", "LINK", "LINK_LIBS",
      "KERNELS", "PEPPHER_PLATFORM", "PEPPHER_TABLE", "TRAIN_OBJECTS", "ARGS", "CUDA_HOME",
      "CUDA_LIB_DIR", "CUDA_LINK_LIBS", "PEPPHER_CUDA_ARCH", "CUDA_ARCHS", "CUDA_ARCH_FLAGS",
      "comma",
      // Those make sets itself (GNU make's manual, "Special Variables" and "Variables Used
      // by make").
      "CURDIR", "GPATH", "MAKE", "MAKECMDGOALS", "MAKEFILES", "MAKEFILE_LIST", "MAKEFLAGS",
      "MAKELEVEL", "MAKEOVERRIDES", "MAKESHELL", "MAKE_HOST", "MAKE_RESTARTS", "MAKE_TERMERR",
      "MAKE_TERMOUT", "MAKE_VERSION", "MFLAGS", "SHELL", "SUFFIXES", "VPATH"};
  return kNames;
}

std::string flags_problem(const std::string& flags) {
  size_t bad = std::string::npos;
  const std::vector<text::FlagPiece> pieces = text::split_variable_references(flags, &bad);
  if (bad != std::string::npos) {
    const text::DollarProblem p = text::describe_dollar(flags, bad);
    return "'" + p.excerpt + "' " + p.why +
           "; a '$' in flags may only refer to a variable, as $(NAME) or ${NAME}";
  }
  const std::vector<std::string>& reserved = variables_not_from_outside();
  for (const text::FlagPiece& piece : pieces) {
    if (piece.variable.empty()) continue;
    if (std::find(reserved.begin(), reserved.end(), piece.variable) != reserved.end()) {
      return "'" + piece.text + "' refers to '" + piece.variable +
             "', which the generated Makefile or make itself sets; flags may refer only to "
             "variables of the environment or of make's command line (LDFLAGS, CFLAGS, ...)";
    }
  }
  for (const std::string& w : words_of(flags)) {
    std::string word;  // the word without its references, which are safe as they are
    for (const text::FlagPiece& piece : text::split_variable_references(w, &bad)) {
      if (piece.variable.empty()) word += piece.text;
    }
    const std::string problem = build_word_problem(word);
    if (!problem.empty()) {
      return "'" + w + "' " + problem + ", which generated build files cannot hold safely";
    }
  }
  return "";
}

void check_untrusted_text(const ir::Application& app, diag::Diagnostics& diag) {
  check_sources(app.sources, false, diag);
  expect_words(app.link.loc, "link command", app.link.name, diag);
  expect_flags(app.link.loc, "link flag", app.link.flags, false, diag);
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
