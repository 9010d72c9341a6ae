// peppher-report: turns a PEPPHER_TRACE file and training tables into one HTML page with
// gnuplot figures (-o DIR), or a text report (--text).
//   peppher-report [TRACE.json] [-o DIR] [--text] [--table peppher_perf.X.xml]...
//                  [--model FILE]... [--no-models]
#include <iostream>
#include <string>
#include <vector>

#include "common/summary.h"
#include "report/curves.h"
#include "report/history.h"
#include "report/report.h"
#include "report/trace_reader.h"

namespace {

const char* const kUsage =
    "usage: peppher-report [TRACE.json] [-o DIR] [--text] [--table TABLE.xml]...\n"
    "                      [--model FILE]... [--no-models]\n"
    "  TRACE.json   an execution trace written by a composed program run with PEPPHER_TRACE=FILE\n"
    "  -o DIR       write DIR/index.html and its figures (gnuplot PNGs)\n"
    "  --text       print the report as text (terminals, CI logs)\n"
    "  --table F    a training table (peppher_perf.<platform>.xml from compose --train):\n"
    "               time against size of each variant, and where each wins\n"
    "  --model F    a StarPU performance model file (sampling/codelets/45/SYMBOL.HOST):\n"
    "               time against data size of each variant on each device\n"
    "  --no-models  do not look up the StarPU models the trace names (by default their\n"
    "               curves are drawn; StarPU finds them through STARPU_HOME,\n"
    "               STARPU_PERF_MODEL_DIR and STARPU_HOSTNAME, as for the program)\n"
    "  --title T    the page's title\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace peppher::perfdata;
  using namespace peppher::report;
  std::string trace_path, dir, title;
  std::vector<std::string> tables, models;
  bool text = false, trace_models = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* option) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "peppher-report: error: " << option << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "-o") {
      dir = value("-o");
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2 && a[2] != '-') {
      dir = a.substr(2);
    } else if (a == "--text") {
      text = true;
    } else if (a == "--table") {
      tables.push_back(value("--table"));
    } else if (a == "--model") {
      models.push_back(value("--model"));
    } else if (a == "--no-models") {
      trace_models = false;
    } else if (a == "--title") {
      title = value("--title");
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "peppher-report: error: unknown option '" << a << "'\n" << kUsage;
      return 2;
    } else if (trace_path.empty()) {
      trace_path = a;
    } else {
      std::cerr << "peppher-report: error: more than one trace ('" << trace_path << "', '" << a
                << "')\n"
                << kUsage;
      return 2;
    }
  }
  if (trace_path.empty() && tables.empty() && models.empty()) {
    std::cerr << "peppher-report: error: give a trace, a training table (--table) or a "
                 "performance model (--model)\n"
              << kUsage;
    return 2;
  }
  if (dir.empty() && !text) {
    std::cerr << "peppher-report: error: say where the page goes (-o DIR) or ask for --text\n"
              << kUsage;
    return 2;
  }
  try {
    Trace trace;
    PageInput in;
    if (!trace_path.empty()) {
      trace = read_trace(trace_path);
      in.trace = &trace;
      in.summary = summarize(trace);
    }
    for (const std::string& t : tables) {
      std::vector<Curve> curves = read_table_curves(t);
      in.curves.insert(in.curves.end(), curves.begin(), curves.end());
    }
    for (const std::string& m : models) in.curves.push_back(read_model_file_curve(m, in.trace));
    if (in.trace != nullptr && trace_models && models.empty()) {
      std::vector<std::string> notes;
      for (Curve& c : history_curves(trace, notes)) in.curves.push_back(std::move(c));
      for (const std::string& n : notes) std::cerr << "peppher-report: note: " << n << "\n";
    }
    in.palette = variant_palette(in.trace, in.curves);
    in.title = !title.empty()        ? title
               : in.trace != nullptr ? "PEPPHER report: " + trace.program
                                     : "PEPPHER report";
    if (text) render_text(in, std::cout);
    if (!dir.empty()) {
      const std::string page = write_report(in, dir);
      std::cerr << "peppher-report: wrote " << page << "\n";
    }
  } catch (const ReportError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
