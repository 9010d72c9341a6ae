// Option table and parser for the compose command line. Every option has an original
// camelCase spelling (single dash, case-insensitive) and a kebab-case double-dash one;
// both normalise to one key, so the two spellings can never drift apart.
#include "compose/cli/options.h"

#include <algorithm>
#include <cctype>

#include "compose/ir/backends.h"
#include "compose/util/text.h"

namespace peppher::cli {
namespace {

enum class Arg { None, Required, Optional };  // Optional: only as -name=value

struct OptionSpec {
  std::string original;  // -disableImpls
  std::string dashed;    // --disable-impls
  Arg arg;
  std::string help;
  bool ir::Options::*disables = nullptr;  // a backend's switch (backends.h): sets this
};

// The options in --help order; a backend's disabling switch comes from its record, so a new
// backend adds its own option.
std::vector<OptionSpec> option_table() {
  std::vector<OptionSpec> table = {
      {"o", "output", Arg::Required,
       "DIR  write generated files into DIR (default: next to main.xml)"},
      {"check", "check", Arg::None, "read and check the descriptors only; write nothing"},
      {"printIR", "print-ir", Arg::None, "print the resolved IR as JSON on stdout; write nothing"},
      {"train", "train", Arg::None,
       "compose, then build and run the training program (make train): writes "
       "peppher_perf.<platform>.xml next to main.xml"},
      {"staticDispatch", "static-dispatch", Arg::Optional,
       "[=TABLE]  choose each call's variant from the training table (default: "
       "peppher_perf.<platform>.xml next to main.xml)"},
      {"mpi", "mpi", Arg::None,
       "distributed execution over StarPU-MPI: build with mpicxx, link StarPU-MPI, make run NP=4 "
       "runs under mpirun"},
      {"explain", "explain", Arg::None,
       "print, per interface, the variants kept and left out (and why) and, after training, which "
       "wins where; write nothing"},
      {"format", "format", Arg::Required,
       "text|html  --explain's output: text (default), or one HTML page with the training table's "
       "curves (gnuplot, inline SVG)"},
      {"emitXML", "emit-xml", Arg::Required,
       "DIR  light form: write the equivalent XML descriptors into DIR (and compose nothing)"},
      {"components", "components", Arg::Required,
       "DIR  light form: the interfaces of every header in DIR too (with their variant files), "
       "not only of the headers the sources include"},
      {"disableImpls", "disable-impls", Arg::Required,
       "A,B  do not use the named implementation variants"},
      {"disableXMLFiles", "disable-xml-files", Arg::Required,
       "F,G  skip these implementation descriptors while exploring"},
  };
  for (ir::Backend group : ir::codelet_groups()) {
    const ir::BackendInfo& r = ir::info(group);
    if (r.disabled_by_option == nullptr) continue;
    std::string labels;  // every backend sharing the switch: "CPU/OpenMP"
    for (const ir::BackendInfo& member : ir::backends()) {
      if (member.disabled_by_option == r.disabled_by_option)
        labels += (labels.empty() ? "" : "/") + std::string(member.label);
    }
    table.push_back({r.disable_switch, "disable-" + text::lower(r.name), Arg::None,
                     "no " + labels + " variants", r.disabled_by_option});
  }
  const std::vector<OptionSpec> rest = {
      {"useHistoryModels", "use-history-models", Arg::None,
       "history-based performance models for all components"},
      {"useRegressionModels", "use-regression-models", Arg::None,
       "linear regression performance models"},
      {"useNLRegressionModels", "use-nl-regression-models", Arg::None,
       "non-linear regression performance models"},
      {"cLinkage", "c-linkage", Arg::None,
       "entry wrappers of interfaces with C types get C linkage (C callers); automatic when "
       "main.xml "
       "compiles a source with a C compiler"},
      {"wrapperFilesExt", "wrapper-files-ext", Arg::Required,
       "EXT  extension of generated wrapper files (default .h)"},
      {"v", "verbose", Arg::Optional,
       "[=N]  more output: each -v one level more (-vv, -vvv: 2, 3), or the level N 0..3 (-v=2)"},
      {"generateCompFiles", "generate-comp-files", Arg::Required,
       "H,..  utility mode: descriptor skeletons from C/C++ headers"},
      {"functions", "functions", Arg::Required, "F,G  utility mode: only these functions"},
      {"light", "light", Arg::None,
       "utility mode: the light form (the header annotated, variant skeletons; no XML)"},
      {"force", "force", Arg::None,
       "overwrite files that compose did not generate (utility mode: existing skeletons)"},
      {"p", "compile-commands", Arg::Required,
       "DIR  utility mode: folder of compile_commands.json"},
      {"help", "help", Arg::None, "show this help"},
      {"version", "version", Arg::None, "show the version"},
  };
  table.insert(table.end(), rest.begin(), rest.end());
  return table;
}

const std::vector<OptionSpec>& options() {
  static const std::vector<OptionSpec> kOptions = option_table();
  return kOptions;
}

std::string key_of(const std::string& s) {
  std::string k;
  for (char c : s) {
    if (c != '-' && c != '_') k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return k;
}

const OptionSpec* find_option(const std::string& name) {
  std::string k = key_of(name);
  if (k == "h") k = "help";
  for (const OptionSpec& o : options()) {
    if (key_of(o.original) == k || key_of(o.dashed) == k) return &o;
  }
  return nullptr;
}

std::string unquote(std::string v) {
  if (v.size() >= 2 &&
      ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\''))) {
    v = v.substr(1, v.size() - 2);
  }
  return v;
}

// A C or C++ source given on the command line (the light form); anything else positional
// is the main descriptor, as before.
bool is_program_source(const std::string& arg) {
  const size_t dot = arg.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string ext = arg.substr(dot);
  return ext == ".c" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C";
}

std::vector<std::string> split_commas(const std::string& s) {
  return text::split_list(s, ',');
}

void set_perf(ir::Options& out, ir::PerfModel m, const std::string& spelled,
              std::string& first_spelling, diag::Diagnostics& diag, bool& ok) {
  if (out.perf_model != ir::PerfModel::None && out.perf_model != m) {
    diag.error("options '" + first_spelling + "' and '" + spelled +
               "' choose different performance models; give only one");
    ok = false;
    return;
  }
  out.perf_model = m;
  first_spelling = spelled;
}

}  // namespace

bool parse_options(const std::vector<std::string>& args, ir::Options& out,
                   diag::Diagnostics& diag) {
  bool ok = true;
  std::string perf_spelling;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a.size() < 2 || a[0] != '-') && is_program_source(a)) {
      out.sources.push_back(a);  // the light form: a program source (docs/FORMAT.md)
      continue;
    }
    if (a.size() < 2 || a[0] != '-') {
      if (!out.main_xml.empty()) {
        diag.error("more than one main descriptor given: '" + out.main_xml + "' and '" + a + "'");
        ok = false;
      }
      out.main_xml = a;
      continue;
    }
    bool dashed = a.compare(0, 2, "--") == 0;
    std::string body = a.substr(dashed ? 2 : 1);
    std::string name = body, val;
    bool has_val = false;
    size_t eq = body.find('=');
    if (eq != std::string::npos) {
      name = body.substr(0, eq);
      val = unquote(body.substr(eq + 1));
      has_val = true;
    }
    if (a == "--") {  // utility mode: the rest are compiler flags for parsing the headers
      out.clang_args.insert(out.clang_args.end(), args.begin() + static_cast<long>(i) + 1,
                            args.end());
      break;
    }
    // -vv, -vvv: verbosity 2 and 3 (a flag: `-v main.xml` reads main.xml as the descriptor).
    if (!dashed && !has_val && name.size() > 1 && name.size() <= 3 &&
        name.find_first_not_of("vV") == std::string::npos) {
      out.verbosity = static_cast<int>(name.size());
      continue;
    }
    const OptionSpec* spec = find_option(name);
    if (!spec && !dashed && (a[1] == 'L' || a[1] == 'l')) {  // light form: -Ldir, -lname
      if (a.size() > 2) {
        out.link_flags.push_back(a);
      } else if (i + 1 < args.size()) {
        out.link_flags.push_back(a + args[++i]);
      } else {
        diag.error("option '" + a + "' needs a value");
        ok = false;
      }
      continue;
    }
    if (!spec && !dashed && (a[1] == 'I' || a[1] == 'D')) {  // -Idir, -I dir, -DNAME=V
      if (a.size() > 2) {
        out.clang_args.push_back(a);
      } else if (i + 1 < args.size()) {
        out.clang_args.push_back(a + args[++i]);
      } else {
        diag.error("option '" + a + "' needs a value");
        ok = false;
      }
      continue;
    }
    if (!spec) {
      std::string best;
      size_t best_d = 4;
      for (const OptionSpec& o : options()) {
        std::string cand = dashed ? "--" + o.dashed : "-" + o.original;
        size_t d = diag::edit_distance(key_of(name), key_of(dashed ? o.dashed : o.original));
        if (d < best_d && d <= key_of(name).size() / 3 + 1) {
          best_d = d;
          best = cand;
        }
      }
      std::string shown = has_val ? a.substr(0, a.find('=')) : a;
      diag.error("unknown option '" + shown + "'" + diag::did_you_mean(best) + " (see --help)");
      ok = false;
      continue;
    }
    std::string spelled =
        dashed ? std::string("--") + spec->dashed : std::string("-") + spec->original;
    if (spec->arg == Arg::Required && !has_val) {
      if (i + 1 < args.size()) {
        val = unquote(args[++i]);
      } else {
        diag.error("option '" + spelled + "' needs a value");
        ok = false;
        continue;
      }
    } else if (spec->arg == Arg::None && has_val) {
      diag.error("option '" + spelled + "' takes no value");
      ok = false;
      continue;
    }
    std::string k = key_of(spec->original);
    if (k == "o")
      out.output_dir = val;
    else if (k == "emitxml")
      out.emit_xml_dir = val;
    else if (k == "components")
      out.component_dirs.push_back(val);
    else if (k == "check")
      out.check_only = true;
    else if (k == "printir")
      out.print_ir = true;
    else if (k == "train")
      out.train = true;
    else if (k == "staticdispatch") {
      out.static_dispatch = true;
      out.performance_table = val;
    } else if (k == "explain")
      out.explain = true;
    else if (k == "mpi")
      out.mpi = true;
    else if (k == "format") {
      if (val != "text" && val != "html") {
        diag.error("invalid format '" + val + "' for '" + spelled + "' (expected text or html)");
        ok = false;
      }
      out.explain_format = val;
    } else if (k == "disableimpls")
      for (auto& s : split_commas(val)) out.disable_impls.push_back(s);
    else if (k == "disablexmlfiles")
      for (auto& s : split_commas(val)) out.disable_xml_files.push_back(s);
    else if (spec->disables != nullptr)
      out.*(spec->disables) = true;
    else if (k == "clinkage")
      out.c_linkage = true;
    else if (k == "usehistorymodels")
      set_perf(out, ir::PerfModel::History, spelled, perf_spelling, diag, ok);
    else if (k == "useregressionmodels")
      set_perf(out, ir::PerfModel::Regression, spelled, perf_spelling, diag, ok);
    else if (k == "usenlregressionmodels")
      set_perf(out, ir::PerfModel::NLRegression, spelled, perf_spelling, diag, ok);
    else if (k == "wrapperfilesext") {
      if (val.empty()) {
        diag.error("option '" + spelled + "' needs a non-empty extension, e.g. '.h'");
        ok = false;
      }
      out.wrapper_files_ext = val;
    } else if (k == "v" && !has_val) {
      out.verbosity = std::min(out.verbosity + 1, 3);  // -v -v: 2
    } else if (k == "v") {
      if (val.size() != 1 || val[0] < '0' || val[0] > '3') {
        diag.error("invalid verbosity '" + val + "' for '" + spelled + "' (expected 0, 1, 2 or 3)");
        ok = false;
      } else {
        out.verbosity = val[0] - '0';
      }
    } else if (k == "generatecompfiles") {
      for (auto& s : split_commas(val)) out.generate_comp_files.push_back(s);
      if (out.generate_comp_files.empty()) {
        diag.error("option '" + spelled + "' needs at least one header file");
        ok = false;
      }
    } else if (k == "functions") {
      for (auto& s : split_commas(val)) out.functions.push_back(s);
    } else if (k == "force")
      out.force = true;
    else if (k == "light")
      out.light_skeletons = true;
    else if (k == "p")
      out.compile_commands_dir = val;
    else if (k == "help")
      out.help = true;
    else if (k == "version")
      out.version = true;
  }
  if (ok && !out.help && !out.version && out.main_xml.empty() && out.sources.empty() &&
      out.generate_comp_files.empty()) {
    diag.error("no main descriptor given; usage: compose main.xml [options] (see --help)");
    ok = false;
  }
  if (ok && !out.main_xml.empty() && !out.sources.empty()) {
    diag.error("'" + out.sources.front() + "' is a source of the light form, '" + out.main_xml +
               "' a main descriptor: give one or the other (main.xml lists its sources)");
    ok = false;
  }
  if (ok && !out.emit_xml_dir.empty() && out.sources.empty()) {
    diag.error(
        "--emit-xml writes the descriptors of a light-form program: compose "
        "--emit-xml DIR main.cpp");
    ok = false;
  }
  if (ok && !out.component_dirs.empty() && out.sources.empty()) {
    diag.error(
        "--components applies to the light form: compose main.cpp --components DIR "
        "(main.xml names its interfaces' descriptors)");
    ok = false;
  }
  if (ok && !out.link_flags.empty() && out.sources.empty()) {
    diag.error("'" + out.link_flags.front() +
               "' (a link flag) applies to the light form "
               "only; main.xml gives its link step's flags");
    ok = false;
  }
  if (ok && out.explain_format != "text" && !out.explain) {
    diag.error("--format applies to --explain only (compose --explain --format=html main.xml)");
    ok = false;
  }
  if (ok && out.light_skeletons && out.generate_comp_files.empty()) {
    diag.error("--light applies to utility mode: compose -generateCompFiles=h --light");
    ok = false;
  }
  if (ok && (!out.main_xml.empty() || !out.sources.empty()) && !out.generate_comp_files.empty()) {
    diag.error("-generateCompFiles (utility mode) does not take a main descriptor");
    ok = false;
  }
  return ok;
}

std::string usage_text() {
  std::string s =
      "usage: compose main.xml [options]\n"
      "       compose main.cpp [more sources] [-I DIR] [-D N] [-L DIR] [-l LIB] [options]\n"
      "       compose -generateCompFiles=\"spm.h[,more.h]\" [--light] [--functions f,g] [--force]\n"
      "               [-I DIR] [-D NAME[=V]] [-p DIR] [-o DIR] [-- compiler flags]\n"
      "\n"
      "Reads the application's main descriptor and every interface and implementation\n"
      "descriptor it reaches, checks them, and generates the glue code and Makefile.\n"
      "\n"
      "Options (original single-dash spelling, case-insensitive / double-dash spelling):\n";
  for (const OptionSpec& o : options()) {
    std::string left = "  -" + o.original + ", --" + o.dashed;
    if (left.size() < 44)
      left.resize(44, ' ');
    else
      left += "\n" + std::string(44, ' ');
    s += left + o.help + "\n";
  }
  s += "\n"
       "Values go after '=' or as the next argument: -disableImpls=a,b  --disable-impls a,b\n"
       "\n"
       "Examples:\n"
       "  compose main.xml                         generate next to main.xml\n"
       "  compose main.xml -o build/gen            generate into build/gen\n"
       "  compose main.cpp -o gen                  light form: interfaces from the headers\n"
       "  compose --emit-xml xml main.cpp          the light form's descriptors, into xml/\n"
       "  compose --check main.xml                 check the descriptors only\n"
       "  compose --print-ir main.xml              show what the composer understood\n"
       "  compose main.xml -disableImpls=scale_cuda -useHistoryModels\n"
       "  compose main.xml --disable-cuda --disable-opencl -vv\n"
       "  compose --train main.xml                 time every variant over the declared ranges\n"
       "  compose main.xml -staticDispatch         then compile the winners into the wrappers\n"
       "  compose --explain main.xml               which variants are in, out, and win where\n"
       "  compose --explain --format=html main.xml > explain.html   the same, with the curves\n"
       "  compose -generateCompFiles=spm.h              skeletons for every function in spm.h\n"
       "  compose -generateCompFiles=spm.h --light -o c the light form: spm.h annotated, variants\n"
       "  compose --generate-comp-files a.h --functions f,g -I include -DN=4 -- -std=c++20\n";
  return s;
}

std::string version_text() {
  return "compose (PEPPHER composition tool) 0.1.0\n";
}

}  // namespace peppher::cli
