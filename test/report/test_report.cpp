// peppher-report's pieces on hand-written input: the trace reader's errors on malformed and
// truncated files, the summary of a small trace, where each variant wins on a training
// table, and a report folder whose page names figures gnuplot really wrote.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/figures.h"
#include "common/summary.h"
#include "common/training_table.h"
#include "peppher_catch.h"
#include "report/curves.h"
#include "report/history.h"
#include "report/report.h"
#include "report/trace_reader.h"

namespace fs = std::filesystem;
using namespace peppher::perfdata;
using namespace peppher::report;

namespace {

// A trace as the runtime writes it: two workers, one bus link, three tasks of two calls
// (the second partitioned in two blocks), one transfer.
const char* const kTrace = R"({"displayTimeUnit":"ms","traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"PEPPHER app"}},
{"ph":"M","pid":1,"tid":0,"name":"thread_name","args":{"name":"CPU 0"}},
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"OpenCL 0"}},
{"ph":"M","pid":1,"tid":1000,"name":"thread_name","args":{"name":"bus NUMA 0 -> OpenCL 0"}},
{"ph":"X","cat":"task","pid":1,"tid":0,"name":"f_cpu","ts":10,"dur":40,"args":{"interface":"f","variant":"f_cpu","backend":"cpu","worker":"CPU 0","call":1,"submit_us":0,"fetch_us":0,"bytes_in":0}},
{"ph":"X","cat":"transfer","pid":1,"tid":1000,"name":"4000 B for f","ts":50,"dur":5,"args":{"bytes":4000,"src_node":0,"dst_node":1,"src":"NUMA 0","dst":"OpenCL 0","interface":"f","call":2,"buffer":0}},
{"ph":"X","cat":"task","pid":1,"tid":1,"name":"f_opencl","ts":60,"dur":20,"args":{"interface":"f","variant":"f_opencl","backend":"opencl","worker":"OpenCL 0","call":2,"block":0,"submit_us":45,"fetch_us":5,"bytes_in":4000}},
{"ph":"X","cat":"task","pid":1,"tid":0,"name":"f_cpu","ts":60,"dur":40,"args":{"interface":"f","variant":"f_cpu","backend":"cpu","worker":"CPU 0","call":2,"block":1,"submit_us":45,"fetch_us":0,"bytes_in":0}},
{"ph":"i","s":"t","cat":"bus","name":"bus total","pid":1,"tid":1000,"ts":100,"args":{"bytes":8000,"transfers":2,"src":"NUMA 0","dst":"OpenCL 0"}}
]}
)";

std::string table_path() {
  return (fs::path(PEPPHER_REPORT_CASES) / "peppher_perf.crossing.xml").string();
}

std::string error_of(const std::string& text) {
  try {
    parse_trace(text, "run.json");
  } catch (const ReportError& e) {
    return e.what();
  }
  return "(no error)";
}

bool is_png(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  char sig[8] = {};
  f.read(sig, 8);
  return f && std::string(sig, 8) == "\x89PNG\r\n\x1a\n" && fs::file_size(p) > 1000;
}

}  // namespace

TEST_CASE("report: a malformed or truncated trace is a clear error, never a crash") {
  const std::string full = kTrace;
  CHECK_THAT(error_of(full.substr(0, full.size() / 2)),
             Catch::StartsWith("run.json:") && Catch::Contains("error: not a valid trace") &&
                 Catch::Contains("truncated"));
  CHECK_THAT(error_of("{\"traceEvents\": [ {\"ph\": \"X\",, }]}"),
             Catch::StartsWith("run.json:1:") && Catch::Contains("JSON syntax error"));
  CHECK_THAT(error_of("[1, 2, 3]"), Catch::Contains("no \"traceEvents\" array"));
  CHECK_THAT(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"task\",\"tid\":0,\"ts\":1,"
                      "\"dur\":2}]}"),
             Catch::Contains("traceEvents[0]: no 'args' field"));
  CHECK_THAT(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"task\",\"tid\":0,\"ts\":\"x\","
                      "\"args\":{}}]}"),
             Catch::Contains("traceEvents[0]: 'ts' is not a number"));
  CHECK_THAT(error_of("{\"traceEvents\":[7]}"), Catch::Contains("traceEvents[0] is not an object"));
  // Numbers beyond a double, and values no trace holds (audit 2: 1e999 aborted the report, a
  // negative byte count showed as 17592186044416.0 MiB).
  CHECK_THAT(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"task\",\"tid\":0,\"ts\":1e999,"
                      "\"args\":{}}]}"),
             Catch::StartsWith("run.json: error: not a valid trace"));
  const auto transfer = [](const std::string& bytes, const std::string& call) {
    return "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"transfer\",\"tid\":3,\"ts\":1,\"dur\":2,"
           "\"args\":{\"bytes\":" +
           bytes +
           ",\"src\":\"RAM\",\"dst\":\"OpenCL 0\","
           "\"interface\":\"f\",\"call\":" +
           call + "}}]}";
  };
  CHECK(error_of(transfer("64", "1")) == "(no error)");
  CHECK_THAT(error_of(transfer("-1", "1")), Catch::Contains("'bytes' is not a whole number"));
  CHECK_THAT(error_of(transfer("1e300", "1")), Catch::Contains("'bytes' is not a whole number"));
  CHECK_THAT(error_of(transfer("2.5", "1")), Catch::Contains("'bytes' is not a whole number"));
  CHECK_THAT(error_of(transfer("64", "-7")), Catch::Contains("'call' is not a whole number"));
  CHECK_THAT(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"transfer\",\"tid\":1e12,"
                      "\"ts\":1,\"dur\":2,\"args\":{}}]}"),
             Catch::Contains("'tid' is not a whole number"));
  // Every prefix of a valid trace is either an error or (the whole file) a trace.
  for (std::size_t n = 0; n < full.size(); n += 7) {
    std::string e = error_of(full.substr(0, n));
    CHECK_THAT(e, Catch::StartsWith("run.json"));
  }
  CHECK_THROWS_WITH(read_trace("/nonexistent/run.json"),
                    Catch::Contains("cannot open the trace file"));
}

TEST_CASE("report: the summary counts calls, runs per variant and worker, idle and bytes") {
  Trace t = parse_trace(kTrace, "run.json");
  REQUIRE(t.tasks.size() == 3);
  REQUIRE(t.workers.size() == 2);
  REQUIRE(t.links.size() == 1);
  CHECK(t.links[0].name == "NUMA 0 -> OpenCL 0");
  Summary s = summarize(t);
  CHECK(s.span_us == Approx(100));
  REQUIRE(s.interfaces.size() == 1);
  const InterfaceSummary& f = s.interfaces[0];
  CHECK(f.calls == 2);
  CHECK(f.tasks == 3);
  CHECK(f.bytes_moved == 4000);
  REQUIRE(f.runs.size() == 2);
  CHECK(f.runs[0].variant == "f_cpu");
  CHECK(f.runs[0].tasks == 2);
  CHECK(f.runs[0].total_us == Approx(80));
  REQUIRE(s.workers.size() == 2);
  CHECK(s.workers[0].idle_share == Approx(0.2));
  CHECK(s.workers[1].idle_share == Approx(0.8));
  CHECK(s.bus_bytes == 8000);
}

TEST_CASE("report: a training table gives one curve per interface and where each wins") {
  std::vector<Curve> curves = read_table_curves(table_path());
  REQUIRE(curves.size() == 2);
  CHECK(curves[0].iface == "crossing");
  std::vector<WinRegion> w = win_regions(curves[0]);
  REQUIRE(w.size() == 2);
  CHECK(w[0].variant == "cross_small");
  CHECK(w[0].from == 10);
  CHECK(w[0].to == Approx(std::sqrt(100.0 * 505.0)));
  CHECK(w[1].variant == "cross_large");
  CHECK(w[1].to == 1000);
  // Two context parameters: along the first, the second at its middle trained value.
  CHECK(curves[1].axis == "rows (cols=9)");
  CHECK(curves[1].us.at("grid_cpu").size() == 2);
  CHECK_THROWS_WITH(read_table_curves(PEPPHER_REPORT_CASES "/missing.xml"),
                    Catch::Contains("cannot open performance table"));
}

TEST_CASE("report: the page names figures that gnuplot wrote as PNG files") {
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "unit_page";
  fs::remove_all(dir);
  Trace t = parse_trace(kTrace, "run.json");
  PageInput in;
  in.title = "unit";
  in.trace = &t;
  in.summary = summarize(t);
  in.curves = read_table_curves(table_path());
  in.palette = variant_palette(&t, in.curves);
  const std::string page = write_report(in, dir.string());
  std::ifstream f(page);
  std::stringstream html;
  html << f.rdbuf();
  for (const char* png : {"gantt.png", "curve_0.png", "curve_1.png"}) {
    CHECK_THAT(html.str(), Catch::Contains(std::string("src=\"") + png + "\""));
    CHECK(is_png(dir / png));
  }
  CHECK_THAT(html.str(), Catch::Contains("cross_small for n 10 &ndash; 224.7"));
  std::ostringstream text;
  render_text(in, text);
  CHECK_THAT(text.str(),
             Catch::Contains("f_opencl") && Catch::Contains("n 224.7 .. 1000: cross_large"));
}

TEST_CASE("report: a StarPU history model file gives one curve per variant and device") {
  // test/report/cases/peppher_spmv.sample is a StarPU 1.3 model file (format 45): the CPU
  // arch with two implementations, the OpenCL device with one, three sizes each.
  const std::string model = (fs::path(PEPPHER_REPORT_CASES) / "peppher_spmv.sample").string();
  const std::vector<HistoryPoint> points = load_history_file(model);
  REQUIRE(points.size() == 9);
  // The trace says which variant each implementation is (the selector's order).
  const std::string models = R"({"otherData":{"models":[{"interface":"spmv",
      "symbol":"peppher_spmv","type":"history","implementations":[
      {"variant":"spmv_cpu","backend":"CPU","arch":"cpu","impl":0},
      {"variant":"spmv_openmp","backend":"OPENMP","arch":"cpu","impl":1},
      {"variant":"spmv_opencl","backend":"OPENCL","arch":"opencl","impl":0}]}]},
      "traceEvents":[]})";
  const Trace trace = parse_trace(models, "run.json");
  REQUIRE(trace.models.size() == 1);
  CHECK(trace.models[0].symbol == "peppher_spmv");
  const Curve c = read_model_file_curve(model, &trace);
  CHECK(c.iface == "spmv");
  REQUIRE(c.us.size() == 3);
  CHECK(c.us.at("spmv_cpu on cpu").at(8192) == Approx(10));
  CHECK(c.us.at("spmv_openmp on cpu").at(524288) == Approx(200));
  CHECK(c.us.at("spmv_opencl on opencl0").at(65536) == Approx(110));
  // Where each wins, over data sizes: the sequential variant on small calls, OpenMP in the
  // middle, the OpenCL device on the largest.
  const std::vector<WinRegion> wins = win_regions(c);
  REQUIRE(wins.size() == 3);
  CHECK(wins[0].variant == "spmv_cpu on cpu");
  CHECK(wins[1].variant == "spmv_openmp on cpu");
  CHECK(wins[2].variant == "spmv_opencl on opencl0");
  // Without the trace, implementations keep StarPU's numbers.
  const Curve bare = read_model_file_curve(model, nullptr);
  CHECK(bare.iface == "peppher_spmv");
  CHECK(bare.us.count("impl 1 on cpu") == 1);
  // The report page draws it like a training table's curve.
  PageInput in;
  in.curves = {c};
  in.palette = variant_palette(nullptr, in.curves);
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "history";
  fs::remove_all(dir);
  write_report(in, dir.string());
  CHECK(is_png(dir / "curve_0.png"));
}

TEST_CASE("report: a broken or missing StarPU model file is an error, never a crash") {
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "bad_models";
  fs::create_directories(dir);
  CHECK_THROWS_WITH(load_history_file((dir / "none.host").string()),
                    Catch::Contains("none.host: error: no such performance model file"));
  // StarPU's parser aborts on these: the report says so.
  std::ifstream sample(fs::path(PEPPHER_REPORT_CASES) / "peppher_spmv.sample");
  std::stringstream text;
  text << sample.rdbuf();
  const std::string full = text.str();
  std::ofstream(dir / "truncated.host") << full.substr(0, full.size() / 2);
  std::ofstream(dir / "version.host") << "# Performance Model Version\n12\n";
  for (const char* name : {"truncated.host", "version.host"}) {
    INFO(name);
    CHECK_THROWS_WITH(load_history_file((dir / name).string()),
                      Catch::Contains(std::string(name) + ": error: StarPU cannot read this "
                                                          "performance model file"));
  }
  // A trace whose model list is malformed.
  CHECK_THAT(error_of(R"({"otherData":{"models":[{"interface":"f","symbol":"peppher_f",
      "type":"history","implementations":[{"variant":"f_cpu","backend":"CPU","arch":"cpu",
      "impl":-1}]}]},"traceEvents":[]})"),
             Catch::Contains("otherData.models[0].implementations[0]: 'impl' is not an "
                             "implementation index"));
}

namespace {

// A name that would end a gnuplot command and start another: run in the figure's folder,
// `system("touch PWNED")` would leave a file there.
const char* const kInjected = "x\nsystem(\"touch PWNED\")\n#";

// A trace with kInjected (as "@", JSON-escaped) in every name field the runtime writes.
const char* const kNamedTrace = R"({"otherData":{"models":[{"interface":"@","symbol":"@",
"type":"history","implementations":[{"variant":"@","backend":"@","arch":"@","impl":0}]}]},
"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"@"}},
{"ph":"M","pid":1,"tid":0,"name":"thread_name","args":{"name":"@"}},
{"ph":"M","pid":1,"tid":1000,"name":"thread_name","args":{"name":"bus @"}},
{"ph":"X","cat":"task","pid":1,"tid":0,"name":"@","ts":10,"dur":40,"args":{"interface":"@","variant":"@","backend":"@","worker":"@","call":1,"submit_us":0,"fetch_us":0,"bytes_in":0}},
{"ph":"X","cat":"task","pid":1,"tid":1,"name":"@","ts":10,"dur":40,"args":{"interface":"@","variant":"@ 2","backend":"@","worker":"@ 1","call":2,"submit_us":0,"fetch_us":0,"bytes_in":0}},
{"ph":"X","cat":"transfer","pid":1,"tid":1000,"name":"@","ts":50,"dur":5,"args":{"bytes":4,"src_node":0,"dst_node":1,"src":"@","dst":"@","interface":"@","call":2,"buffer":0}},
{"ph":"i","s":"t","cat":"bus","name":"@","pid":1,"tid":1000,"ts":100,"args":{"bytes":8,"transfers":1,"src":"@","dst":"@"}}
]})";

// A training table with kInjected (as "@", an XML character reference) in every name.
const char* const kNamedTable = R"(<?xml version="1.0" encoding="UTF-8"?>
<performanceTable platform="@">
  <interface name="@">
    <context name="@"/>
    <point values="10"><time variant="@" us="1"/><time variant="@ 2" us="2"/></point>
    <point values="100"><time variant="@" us="20"/><time variant="@ 2" us="10"/></point>
  </interface>
</performanceTable>
)";

// @p text with its @p k-th '@' replaced by @p with and the others by "n".
std::string replaced(const std::string& text, std::size_t k, const std::string& with) {
  std::string out;
  std::size_t seen = 0;
  for (char c : text) out += c != '@' ? std::string(1, c) : seen++ == k ? with : "n";
  return out;
}

std::size_t count_at(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '@'));
}

std::string escaped(const std::string& s, const std::string& newline, const std::string& quote) {
  std::string out;
  for (char c : s) out += c == '\n' ? newline : c == '"' ? quote : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE("report: no name in a trace runs a command in gnuplot") {
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "injected_trace";
  const std::string json = escaped(kInjected, "\\n", "\\\"");
  for (std::size_t k = 0; k < count_at(kNamedTrace); ++k) {
    INFO("name field " << k);
    fs::remove_all(dir);
    const Trace t = parse_trace(replaced(kNamedTrace, k, json), "run.json");
    PageInput in;
    in.title = kInjected;
    in.trace = &t;
    in.summary = summarize(t);
    in.palette = variant_palette(&t, in.curves);
    write_report(in, dir.string());
    CHECK(is_png(dir / "gantt.png"));
    CHECK_FALSE(fs::exists(dir / "PWNED"));
  }
}

TEST_CASE("report: no name in a training table runs a command in gnuplot") {
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "injected_table";
  const std::string xml = escaped(kInjected, "&#10;", "&quot;");
  for (std::size_t k = 0; k <= count_at(kNamedTable); ++k) {
    INFO("name field " << k);
    fs::remove_all(dir);
    fs::create_directories(dir);
    // Last, the table's file name: the curve's source, in the figure's title.
    const fs::path table = dir / (k < count_at(kNamedTable) ? "table.xml" : kInjected);
    std::ofstream(table) << replaced(kNamedTable, k, xml);
    PageInput in;
    in.curves = read_table_curves(table.string());
    REQUIRE(in.curves.size() == 1);
    in.palette = variant_palette(nullptr, in.curves);
    write_report(in, (dir / "page").string());
    CHECK(is_png(dir / "page" / "curve_0.png"));
    CHECK_FALSE(fs::exists(dir / "page" / "PWNED"));
    // compose --explain --format=html draws it as inline SVG in a temporary folder: there
    // the command would name its file by an absolute path.
    const fs::path marker = dir / "PWNED_SVG";
    const std::string absolute = "x\nsystem(\"touch " + marker.string() + "\")\n#";
    std::ofstream(table) << replaced(kNamedTable, k, escaped(absolute, "&#10;", "&quot;"));
    const std::vector<Curve> curves = read_table_curves(table.string());
    CHECK_THAT(curve_svg(curves[0], variant_palette(nullptr, curves)), Catch::StartsWith("<svg"));
    CHECK_FALSE(fs::exists(marker));
  }
}

TEST_CASE("report: the output folder's name is a name, never a command") {
  const fs::path work = fs::path(PEPPHER_REPORT_WORK) / "folders";
  fs::remove_all(work);
  fs::create_directories(work);
  PageInput in;
  in.curves = read_table_curves(table_path());
  in.palette = variant_palette(nullptr, in.curves);
  for (const char* name : {"Bob's report", "x'; touch PWNED; echo '", "$(touch PWNED)"}) {
    INFO(name);
    const fs::path dir = work / name;
    const std::string page = write_report(in, dir.string());
    CHECK(page == (dir / "index.html").string());
    CHECK(is_png(dir / "curve_0.png"));
  }
  CHECK_FALSE(fs::exists(work / "PWNED"));
  CHECK_FALSE(fs::exists(fs::current_path() / "PWNED"));
}

TEST_CASE("report: a training table's times are checked, never trusted as written") {
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "table_times";
  fs::create_directories(dir);
  const fs::path table = dir / "table.xml";
  for (const std::string us : {"-5", "1e999", "nan", "inf", "12 apples", ""}) {
    INFO("us=\"" << us << "\"");
    std::string xml = kNamedTable;
    xml.replace(xml.find("us=\"20\""), 7, "us=\"" + us + "\"");
    std::ofstream(table) << replaced(xml, 99, "n");
    std::vector<TableProblem> problems;
    CHECK_FALSE(read_training_table(table.string(), problems).has_value());
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].line == 6);
    CHECK_THAT(problems[0].message, Catch::Contains("is not a number of microseconds"));
  }
}
