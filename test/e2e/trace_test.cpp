// PEPPHER_TRACE on a real run: apps/spmv composed and run on a CPU worker and pocl's OpenCL
// device, its trace checked as JSON (one span per call, variant and worker names, transfers
// between the two memory nodes of the operands' sizes), then turned into a report by
// peppher-report, whose page headless Chromium renders with the figures visible.
#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using nlohmann::json;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool is_png(const fs::path& p) {
  const std::string s = slurp(p);
  return s.size() > 1000 && s.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

// The RGB pixels of a PNG file (libpng), row-major; empty when it cannot be read.
std::vector<unsigned char> rgb_pixels(const fs::path& p, unsigned& width, unsigned& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, p.c_str()) == 0) return {};
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {};
  width = image.width;
  height = image.height;
  return pixels;
}

// Pixels within distance @p tolerance of colour #rrggbb drawn with opacity @p alpha on white
// (gnuplot's "fs solid alpha" / "fs transparent solid alpha").
long pixels_near(const std::vector<unsigned char>& px, const std::string& hex, double alpha,
                 int tolerance) {
  int c[3];
  for (int k = 0; k < 3; ++k) {
    const int v = std::stoi(hex.substr(1 + 2 * k, 2), nullptr, 16);
    c[k] = static_cast<int>(alpha * v + (1 - alpha) * 255 + 0.5);
  }
  long n = 0;
  for (std::size_t i = 0; i + 2 < px.size(); i += 3)
    if (std::abs(px[i] - c[0]) + std::abs(px[i + 1] - c[1]) + std::abs(px[i + 2] - c[2]) <=
        tolerance)
      ++n;
  return n;
}

}  // namespace

// apps/spmv is composed and built once for the three test cases that run it as it is
// (e2e::compose_and_build: the same folder name, descriptor and options); each writes files of
// its own names there (run.json and report/; hybrid.json and starpu-home/; forced.json).
TEST_CASE("e2e trace: spmv on CPU + OpenCL, its trace, the report and its screenshot") {
  const fs::path out = compose_and_build("trace_spmv", e2e::source_dir() / "apps/spmv/main.xml");
  const fs::path trace = out / "run.json";
  // 3000 rows, 8 nonzeros in every row but each 7th: nnz = (3000 - 429) * 8.
  const int nrows = 3000, calls = 6;
  const std::size_t nnz = (3000 - 429) * 8;
  // The OpenCL worker alone (eager), so that every call's operands travel to the device and
  // are fetched as the worker takes the task: with a CPU worker too, the CPU sometimes took
  // all six synchronous calls while pocl built the kernel; a forced variant is pushed to its
  // worker, whose data StarPU then prefetches (not recorded as waited-for transfers).
  e2e::Run r = e2e::run_program(
      out / "spmv", "3000 8 6",
      std::string(e2e::kOpenClOnly) + " STARPU_SCHED=eager PEPPHER_TRACE=" + trace.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  REQUIRE(fs::exists(trace));

  json doc = json::parse(slurp(trace));  // throws (fails the test) unless valid JSON
  REQUIRE(doc["traceEvents"].is_array());
  std::map<int, std::string> thread_names;
  std::vector<json> tasks, transfers;
  std::set<std::string> flow_starts, flow_ends;
  for (const json& e : doc["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "thread_name") thread_names[e["tid"]] = e["args"]["name"];
    if (ph == "X" && e["cat"] == "task") tasks.push_back(e);
    if (ph == "X" && e["cat"] == "transfer") transfers.push_back(e);
    if (ph == "s") flow_starts.insert(std::to_string(e["id"].get<long>()));
    if (ph == "f") flow_ends.insert(std::to_string(e["id"].get<long>()));
  }
  // One task span per call, the variant matching its worker, durations > 0.
  REQUIRE(tasks.size() == calls);
  std::set<long> call_ids;
  int on_opencl = 0;
  for (const json& t : tasks) {
    const std::string variant = t["args"]["variant"], worker = t["args"]["worker"];
    INFO(variant << " on " << worker);
    CHECK(t["args"]["interface"] == "spmv");
    CHECK(t["name"] == variant);
    CHECK(t["dur"].get<double>() > 0);
    CHECK(thread_names[t["tid"]] == worker);
    call_ids.insert(t["args"]["call"].get<long>());
    if (worker.find("OpenCL") != std::string::npos) {
      CHECK(variant == "spmv_opencl");
      ++on_opencl;
    } else {
      CHECK(worker.find("CPU") != std::string::npos);
      CHECK((variant == "spmv_cpu" || variant == "spmv_openmp"));
    }
  }
  CHECK(call_ids.size() == calls);
  REQUIRE(on_opencl > 0);
  // Each OpenCL call waited for its four read operands to reach the device: values,
  // col_indices (nnz floats / ints), row_offsets (nrows + 1 ints), x (ncols floats).
  const std::multiset<std::size_t> operand_bytes = {nnz * 4, nnz * 4, (nrows + 1) * 4u, nrows * 4u};
  std::map<long, std::multiset<std::size_t>> per_call;
  for (const json& x : transfers) {
    CHECK(x["args"]["src_node"] == 0);
    CHECK(x["args"]["dst_node"] == 1);
    CHECK_THAT(thread_names[x["tid"]], Catch::StartsWith("bus "));
    per_call[x["args"]["call"].get<long>()].insert(x["args"]["bytes"].get<std::size_t>());
  }
  CHECK(per_call.size() == static_cast<std::size_t>(on_opencl));
  for (const auto& [call, bytes] : per_call) CHECK(bytes == operand_bytes);
  CHECK(flow_starts.size() == transfers.size());
  CHECK(flow_starts == flow_ends);

  // The report from the trace and a training table.
  const fs::path dir = out / "report";
  e2e::Run rep = e2e::run(std::string(PEPPHER_REPORT_EXE) + " " + trace.string() + " -o " +
                          dir.string() + " --table " + e2e::source_dir().string() +
                          "/test/report/cases/peppher_perf.crossing.xml");
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  const std::string html = slurp(dir / "index.html");
  for (const char* png : {"gantt.png", "curve_0.png", "curve_1.png"}) {
    CHECK_THAT(html, Catch::Contains(std::string("src=\"") + png + "\""));
    CHECK(is_png(dir / png));
  }
  CHECK_THAT(html, Catch::Contains("spmv_opencl") && Catch::Contains("cross_large"));
  e2e::Run text = e2e::run(std::string(PEPPHER_REPORT_EXE) + " --text " + trace.string());
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.output, Catch::Contains("spmv: 6 calls, 6 tasks"));

  // What users see: Chromium renders the page; the Gantt chart's and the curves' colours
  // fill far more pixels than the page's small colour swatches could.
  const fs::path shot = out / "screenshot.png";
  fs::remove(shot);
  e2e::Run chromium = e2e::run(
      "chromium --headless --no-sandbox --disable-gpu "
      "--hide-scrollbars --window-size=1200,2600 --screenshot=" +
      shot.string() + " file://" + (dir / "index.html").string());
  INFO(chromium.output);
  REQUIRE(fs::exists(shot));
  unsigned width = 0, height = 0;
  const std::vector<unsigned char> px = rgb_pixels(shot, width, height);
  REQUIRE(width == 1200);
  REQUIRE(!px.empty());
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < px.size(); i += 3)
    colours.insert(px[i] << 16 | px[i + 1] << 8 | px[i + 2]);
  CHECK(colours.size() > 200);
  // A variant's colour is its index among all variant names, sorted (figures.cpp's list):
  // the curves' cross_large and cross_small, and the Gantt chart's spmv_opencl boxes.
  const char* const colours_of[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  std::set<std::string> variants = {"cross_large", "cross_small", "grid_cpu"};
  for (const json& t : tasks) variants.insert(t["args"]["variant"].get<std::string>());
  const auto colour_of = [&](const std::string& v) {
    return colours_of[std::distance(variants.begin(), variants.find(v)) % 10];
  };
  // The curves' regions where each wins are bands of 15 % of the winner's colour; the Gantt
  // chart's boxes are 90 % of the variant's (the page's swatches are 100 %).
  CHECK(pixels_near(px, colour_of("cross_large"), 0.15, 6) > 20000);
  CHECK(pixels_near(px, colour_of("cross_small"), 0.15, 6) > 20000);
  CHECK(pixels_near(px, colour_of("spmv_opencl"), 0.9, 9) > 100);

  // A truncated trace: a clear error, no crash.
  const std::string full = slurp(trace);
  std::ofstream(out / "truncated.json") << full.substr(0, full.size() / 3);
  e2e::Run bad =
      e2e::run(std::string(PEPPHER_REPORT_EXE) + " " + (out / "truncated.json").string() + " -o " +
               (out / "bad_report").string());
  INFO(bad.output);
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.output, Catch::Contains("truncated.json:") && Catch::Contains("truncated"));
  CHECK(!fs::exists(out / "bad_report" / "index.html"));
}

TEST_CASE("e2e trace: a partitioned call's blocks are one span each, with their block index") {
  const fs::path out = compose_and_build("trace_spmv", e2e::source_dir() / "apps/spmv/main.xml");
  const fs::path trace = out / "hybrid.json";
  // A STARPU_HOME of its own: the first call runs before any model. 40000 rows: y, the `?`
  // operand, is 160 KB, enough for a block per worker (docs/PARTITIONING.md: 64 KiB of `?`
  // operands a block at least).
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  e2e::Run r = e2e::run_program(out / "spmv", "40000 8 4 hybrid",
                                std::string(kCpuAndOpenCl) + " STARPU_HOME=" + home.string() +
                                    " PEPPHER_TRACE=" + trace.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  json doc = json::parse(slurp(trace));
  std::map<long, std::set<int>> blocks;  // call -> block indices
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "task") continue;
    const json& a = e["args"];
    CHECK(a["interface"] == "spmv_rows");
    REQUIRE(a.contains("block"));
    CHECK(e["dur"].get<double>() > 0);
    const std::string worker = a["worker"], variant = a["variant"];
    CHECK((worker.find("OpenCL") != std::string::npos) ==
          (variant.find("opencl") != std::string::npos));
    blocks[a["call"].get<long>()].insert(a["block"].get<int>());
  }
  // One call per iteration. The first, with no model, has one equal block per worker (CPU +
  // OpenCL): blocks 0 and 1. The later ones are sized by the model, which may give one worker
  // every row; their blocks are numbered from 0 all the same, one span each.
  REQUIRE(blocks.size() == 4);
  CHECK(blocks.begin()->second == std::set<int>{0, 1});
  for (const auto& [call, b] : blocks) {
    REQUIRE(!b.empty());
    CHECK(*b.begin() == 0);
    CHECK(*b.rbegin() == static_cast<int>(b.size()) - 1);
  }
}

TEST_CASE("e2e trace: compose --explain --format=html shows kept and left-out variants by curves") {
  const fs::path app = e2e::fresh_work_dir("trace_explain_html");
  fs::copy(e2e::cases() / "training", app, fs::copy_options::recursive);
  char host[256] = {};
  REQUIRE(gethostname(host, sizeof host - 1) == 0);
  fs::copy_file(e2e::source_dir() / "test/report/cases/peppher_perf.crossing.xml",
                app / (std::string("peppher_perf.") + host + ".xml"));
  const fs::path page = app / "explain.html";
  // Diagnostics stay on stderr: the page on stdout is HTML only.
  e2e::Run r = e2e::run("{ " + std::string(PEPPHER_COMPOSE_EXE) + " --explain --format=html " +
                        (app / "main.xml").string() + " -disableImpls=cross_large 2>" +
                        (app / "explain.err").string() + " > " + page.string() + "; }");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string html = slurp(page);
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  CHECK_THAT(html, Catch::Contains("left out: -disableImpls names it"));
  CHECK_THAT(html, Catch::Contains("<td>cross_small</td>") || Catch::Contains("cross_small</td>"));
  CHECK_THAT(html, Catch::Contains("trained (platform crossing)"));
  // The curve, drawn by gnuplot as inline SVG, with where each variant wins.
  CHECK_THAT(html, Catch::Contains("<svg") && Catch::Contains("cross_small wins") &&
                       Catch::Contains("cross_large wins"));
  CHECK(html.find("<img") == std::string::npos);  // self-contained: nothing to fetch

  e2e::Run bad = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --explain --format=pdf " +
                          (app / "main.xml").string());
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.output, Catch::Contains("invalid format 'pdf'"));
}

TEST_CASE("e2e trace: the StarPU history models of a calibrated run drawn by variant and device") {
  // spmv with a history model, calibrated by dmda over three matrix sizes on the CPU worker
  // alone, then on the OpenCL device alone (StarPU calibrates what runs), then a traced run
  // on the device (with CPU workers, the model's CPU choice would run on the calling thread:
  // spans without an implementation index, tested below).
  const fs::path out = compose_and_build(
      "trace_spmv_models", e2e::source_dir() / "apps/spmv/main.xml", "-useHistoryModels");
  const fs::path home = out / "starpu-home", trace = out / "run.json";
  const std::string env = " STARPU_HOME=" + home.string() +
                          " STARPU_HOSTNAME=peppher-models STARPU_SCHED=dmda STARPU_CALIBRATE=1";
  // StarPU samples the bus in the first run under a new STARPU_HOME: with both devices.
  e2e::Run first = e2e::run_program(out / "spmv", "1000 8 1", kCpuAndOpenCl + env);
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  for (const char* workers : {e2e::kCpuOnly, e2e::kOpenClOnly}) {
    for (const char* rows : {"1000", "4000", "16000"}) {
      e2e::Run r = e2e::run_program(out / "spmv", std::string(rows) + " 8 12", workers + env);
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
    }
  }
  e2e::Run r =
      e2e::run_program(out / "spmv", "4000 8 12",
                       std::string(e2e::kOpenClOnly) + env + " PEPPHER_TRACE=" + trace.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The trace names the model and which variant each implementation is; every task that
  // ran through the model's codelet agrees (its worker kind and implementation index).
  json doc = json::parse(slurp(trace));
  const json& models = doc["otherData"]["models"];
  REQUIRE(models.size() == 1);
  CHECK(models[0]["interface"] == "spmv");
  CHECK(models[0]["symbol"] == "peppher_spmv");
  CHECK(models[0]["type"] == "history");
  std::map<std::pair<std::string, int>, std::string> variant_of;
  for (const json& i : models[0]["implementations"])
    variant_of[{i["arch"].get<std::string>(), i["impl"].get<int>()}] = i["variant"];
  CHECK(variant_of[{"cpu", 0}] == "spmv_cpu");
  CHECK(variant_of[{"opencl", 0}] == "spmv_opencl");
  int checked = 0;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "task" || !e["args"].contains("impl")) continue;
    const std::string worker = e["args"]["worker"];
    const std::string arch = worker.find("OpenCL") != std::string::npos ? "opencl" : "cpu";
    CHECK(variant_of[{arch, e["args"]["impl"].get<int>()}] == e["args"]["variant"]);
    ++checked;
  }
  CHECK(checked == 12);

  // The report finds the model through the same STARPU_HOME and STARPU_HOSTNAME.
  const fs::path dir = out / "report";
  const std::string report_env =
      "STARPU_HOME=" + home.string() + " STARPU_HOSTNAME=peppher-models ";
  e2e::Run rep = e2e::run(report_env + PEPPHER_REPORT_EXE + " --text " + trace.string() + " -o " +
                          dir.string());
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  CHECK_THAT(rep.output, Catch::Contains("spmv: fastest variant by bytes of data (StarPU history "
                                         "model " +
                                         (home / ".starpu/sampling/codelets/45/"
                                                 "peppher_spmv.peppher-models")
                                             .string()));
  // Both devices' variants have curves over the three sizes (the figure's legend).
  CHECK_THAT(slurp(dir / "index.html"), Catch::Contains("src=\"curve_0.png\""));
  CHECK(is_png(dir / "curve_0.png"));
  CHECK_THAT(slurp(dir / "curve_0.gp"), Catch::Contains("title 'spmv_cpu on cpu'") &&
                                            Catch::Contains("title 'spmv_opencl on opencl0'"));
  const std::string data = slurp(dir / "curve_0.dat");
  std::istringstream blocks(data);
  std::set<double> sizes;
  for (std::string line; std::getline(blocks, line);) {
    std::istringstream l(line);
    double bytes = 0, us = 0;
    if (l >> bytes >> us) {
      CHECK(us > 0);
      sizes.insert(bytes);
    }
  }
  CHECK(sizes.size() == 3);

  // Without the model on this machine: a note, and the page without the curve.
  e2e::Run none = e2e::run("STARPU_HOME=" + (out / "elsewhere").string() + " " +
                           PEPPHER_REPORT_EXE + " --text " + trace.string());
  CHECK(none.exit_code == 0);
  CHECK_THAT(none.output, Catch::Contains("note: no StarPU model of 'spmv' on this machine"));
}

TEST_CASE("e2e trace: calls run on the calling thread are spans on its own track") {
  // here_learning's step on 2 CPU workers with a history model: each call's host choice runs
  // on the calling thread (e2e_inline_test), none a task.
  const fs::path out = compose_and_build("trace_here", e2e::cases() / "here_learning/main.xml");
  const fs::path home = out / "starpu-home", trace = out / "run.json";
  fs::remove_all(home);
  e2e::Run r = e2e::run_program(out / "here_learning", "20",
                                std::string(e2e::kTwoCpus) + " STARPU_HOME=" + home.string() +
                                    " PEPPHER_TRACE=" + trace.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("here_learning: ok"));
  json doc = json::parse(slurp(trace));
  int track = -1;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "calling thread")
      track = e["tid"].get<int>();
  REQUIRE(track >= 0);
  long spans = 0;
  double last_end = 0;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "task" || e["tid"].get<int>() != track) continue;
    ++spans;
    CHECK(e["args"]["interface"] == "step");
    CHECK(e["args"]["worker"] == "calling thread");
    CHECK(e["dur"].get<double>() > 1000);      // each step variant sleeps 5 or 30 ms
    CHECK(e["ts"].get<double>() >= last_end);  // one after the other, on one thread
    last_end = e["ts"].get<double>() + e["dur"].get<double>();
  }
  CHECK(spans == 20);
  // peppher-report counts them on a track of their own.
  e2e::Run rep = e2e::run(std::string(PEPPHER_REPORT_EXE) + " " + trace.string() + " --text");
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  CHECK_THAT(rep.output, Catch::Contains("calling thread"));
}

TEST_CASE("e2e trace: a forced variant's prefetched operands are transfer spans too") {
  // Forced onto the OpenCL variant, each call is pushed to the device's worker and StarPU
  // prefetches its operands as it pushes it: the trace still shows every transfer.
  const fs::path out = compose_and_build("trace_spmv", e2e::source_dir() / "apps/spmv/main.xml");
  const fs::path trace = out / "forced.json";
  const int nrows = 3000, calls = 6;
  const std::size_t nnz = (3000 - 429) * 8;
  e2e::Run r =
      e2e::run_program(out / "spmv", "3000 8 6",
                       std::string(kCpuAndOpenCl) +
                           " PEPPHER_VARIANT=spmv=spmv_opencl PEPPHER_TRACE=" + trace.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  json doc = json::parse(slurp(trace));
  std::map<long, std::multiset<std::size_t>> per_call;
  std::size_t traced_bytes = 0, bus_bytes = 0;
  int tasks = 0, prefetched = 0;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "task") {
      CHECK(e["args"]["variant"] == "spmv_opencl");
      ++tasks;
    } else if (e["ph"] == "X" && e["cat"] == "transfer") {
      const json& a = e["args"];
      CHECK(a["src_node"] == 0);
      CHECK(a["dst_node"] == 1);
      CHECK(e["dur"].get<double>() > 0);
      per_call[a["call"].get<long>()].insert(a["bytes"].get<std::size_t>());
      traced_bytes += a["bytes"].get<std::size_t>();
      if (a["prefetch"] == true) ++prefetched;
    } else if (e["ph"] == "i" && e["cat"] == "bus" && e["args"]["src"] == "NUMA 0") {
      bus_bytes += e["args"]["bytes"].get<std::size_t>();
    }
  }
  CHECK(tasks == calls);
  const std::multiset<std::size_t> operand_bytes = {nnz * 4, nnz * 4, (nrows + 1) * 4u, nrows * 4u};
  REQUIRE(per_call.size() == static_cast<std::size_t>(calls));
  for (const auto& [call, bytes] : per_call) CHECK(bytes == operand_bytes);
  CHECK(prefetched > 0);
  // Every byte StarPU's bus counters saw go to the device is in a span.
  CHECK(traced_bytes == bus_bytes);
}
