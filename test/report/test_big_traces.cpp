// peppher-report on traces larger than any test case by hand: a million tasks drawn in
// bounded memory with a figure bounded by rows x pixels, 20,000 worker rows drawn within
// Cairo's limit, and no output of the report written through a link or into a FIFO.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/figures.h"
#include "common/gantt_boxes.h"
#include "common/summary.h"
#include "peppher_catch.h"
#include "report/report.h"
#include "report/trace_reader.h"

namespace fs = std::filesystem;
using namespace peppher::perfdata;
using namespace peppher::report;

namespace {

bool have_gnuplot() {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path != nullptr ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && ::access((fs::path(folder) / "gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

// Writes a trace as the runtime does: @p workers CPU workers, one bus link, @p tasks tasks
// of three variants dealt round the workers (each 1-6 us, 0.5 us apart), a transfer every
// tenth task.
void write_trace(const fs::path& file, long tasks, int workers) {
  std::FILE* f = std::fopen(file.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fprintf(f,
               "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
               "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"big\"}}");
  for (int w = 0; w < workers; ++w)
    std::fprintf(f,
                 ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
                 "\"name\":\"CPU %d\"}}",
                 w, w);
  std::fprintf(f,
               ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
               "\"name\":\"bus NUMA 0 -> OpenCL 0\"}}",
               workers);
  std::vector<double> free_at(static_cast<std::size_t>(workers), 0.0);
  const char* const variants[] = {"f_cpu", "f_omp", "f_opencl"};
  for (long i = 0; i < tasks; ++i) {
    const int w = static_cast<int>(i % workers);
    const char* v = variants[i % 3];
    const double ts = free_at[static_cast<std::size_t>(w)];
    const double dur = 1 + static_cast<double>((i * 7919) % 50) / 10;
    free_at[static_cast<std::size_t>(w)] = ts + dur + 0.5;
    std::fprintf(
        f,
        ",\n{\"ph\":\"X\",\"cat\":\"task\",\"pid\":1,\"tid\":%d,\"name\":\"%s\",\"ts\":%.3f,"
        "\"dur\":%.3f,\"args\":{\"interface\":\"f\",\"variant\":\"%s\",\"backend\":"
        "\"cpu\",\"worker\":\"CPU %d\",\"call\":%ld,\"submit_us\":%.3f,\"fetch_us\":0,"
        "\"bytes_in\":4000}}",
        w, v, ts, dur, v, w, i, ts);
    if (i % 10 == 0)
      std::fprintf(f,
                   ",\n{\"ph\":\"X\",\"cat\":\"transfer\",\"pid\":1,\"tid\":%d,\"name\":\"4000 B "
                   "for f\",\"ts\":%.3f,\"dur\":0.5,\"args\":{\"bytes\":4000,\"src_node\":0,"
                   "\"dst_node\":1,\"src\":\"NUMA 0\",\"dst\":\"OpenCL 0\",\"interface\":\"f\","
                   "\"call\":%ld,\"buffer\":0}}",
                   workers, ts, i);
  }
  std::fprintf(f, "\n]}\n");
  REQUIRE(std::fclose(f) == 0);
}

// The report of @p trace in @p dir, made in a child process (so that its peak memory is
// its own); returns the child's peak resident set in KiB, or -1 when it failed.
long report_in_child(const fs::path& trace, const fs::path& dir) {
  std::cout.flush();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    try {
      Trace t = read_trace(trace.string());
      PageInput in;
      in.trace = &t;
      in.summary = summarize(t);
      in.palette = variant_palette(&t, in.curves);
      write_report(in, dir.string());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  struct rusage usage {};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? usage.ru_maxrss : -1;
}

// Lines of @p file that hold data (gantt.dat's blocks are separated by blank lines).
long data_lines(const fs::path& file) {
  std::ifstream in(file);
  long n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

// Width and height of the PNG @p file (its IHDR chunk).
std::pair<long, long> png_size(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  unsigned char b[24] = {};
  in.read(reinterpret_cast<char*>(b), sizeof b);
  const auto at = [&](int k) {
    return (long{b[k]} << 24) | (long{b[k + 1]} << 16) | (long{b[k + 2]} << 8) | b[k + 3];
  };
  return {at(16), at(20)};
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The small trace of two workers every planted-file case draws.
Trace small_trace() {
  Trace t;
  t.file = "run.json";
  t.workers = {{0, "CPU 0"}, {1, "CPU 1"}};
  for (int k = 0; k < 4; ++k)
    t.tasks.push_back(
        {"f", k % 2 ? "f_cpu" : "f_omp", "cpu", "CPU 0", k % 2, 10.0 * k, 8, 0, k, -1, 0});
  return t;
}

}  // namespace

TEST_CASE("report: a million tasks are drawn in bounded memory, the figure bounded by pixels") {
  if (!have_gnuplot()) {
    WARN("gnuplot is not installed: nothing to draw");
    return;
  }
  const fs::path work = fs::path(PEPPHER_REPORT_WORK) / "big_trace";
  fs::remove_all(work);
  fs::create_directories(work);
  const int workers = 8;
  const long tasks = 1000000;
  write_trace(work / "trace.json", tasks, workers);
  const auto file_kib = static_cast<long>(fs::file_size(work / "trace.json") / 1024);
  const long peak_kib = report_in_child(work / "trace.json", work / "page");
  fs::remove(work / "trace.json");
  REQUIRE(peak_kib > 0);
  // The figure: at most one box per pixel of the time axis, per row and colour (3 variants
  // and the transfers), whatever the number of tasks.
  const long rows = workers + 1, colours = 4;
  CHECK(data_lines(work / "page" / "gantt.dat") <= rows * colours * (kGanttWidthPixels + 1));
  // The summary still counts every task.
  CHECK_THAT(text_of(work / "page" / "index.html"), Catch::Contains("1000000 tasks"));
  // A whole-file JSON value takes over ten times the file; events read one at a time leave
  // the tasks' records, a fraction of their text.
  INFO("peak " << peak_kib << " KiB for a " << file_kib << " KiB trace");
#if defined(__SANITIZE_ADDRESS__)
  // ASan's shadow memory and redzones add about as much again: the bound is the normal
  // build's (the figure's bound above holds in both).
  WARN("ASan build: peak memory not compared with the trace's size");
#else
  CHECK(peak_kib < file_kib * 2);
#endif
}

TEST_CASE("report: 20,000 worker rows are drawn within Cairo's limit, the title says so") {
  if (!have_gnuplot()) {
    WARN("gnuplot is not installed: nothing to draw");
    return;
  }
  const fs::path dir = fs::path(PEPPHER_REPORT_WORK) / "many_rows";
  fs::remove_all(dir);
  Trace t;
  t.file = "rows.json";
  for (int w = 0; w < 20000; ++w) {
    const std::string name = "CPU " + std::to_string(w);
    t.workers.push_back({w, name});
    t.tasks.push_back(
        {"f", w % 2 ? "f_cpu" : "f_omp", "cpu", name, w, 5.0 * (w % 7), 4, 0, w, -1, 0});
  }
  PageInput in;
  in.trace = &t;
  in.summary = summarize(t);
  in.palette = variant_palette(&t, in.curves);
  write_report(in, dir.string());
  const auto [width, height] = png_size(dir / "gantt.png");
  CHECK(width == kGanttWidthPixels);
  CHECK(height <= kCairoMaxPixels);
  CHECK_THAT(text_of(dir / "gantt.gp"),
             Catch::Contains("20000 rows, compressed to") && Catch::Contains("one label per"));
  // A trace with few rows keeps 40 pixels a row and says nothing of compression.
  const GanttRows few = fit_rows(8);
  CHECK_FALSE(few.compressed);
  CHECK(few.row_pixels == 40);
}

TEST_CASE("report: a link or FIFO planted at an output's name is an error naming it") {
  if (!have_gnuplot()) {
    WARN("gnuplot is not installed: nothing to draw");
    return;
  }
  const fs::path work = fs::path(PEPPHER_REPORT_WORK) / "planted";
  const Trace t = small_trace();
  PageInput in;
  in.trace = &t;
  in.summary = summarize(t);
  in.palette = variant_palette(&t, in.curves);
  for (const char* name : {"gantt.png", "gantt.dat", "gantt.gp", "index.html"}) {
    for (const bool fifo : {false, true}) {
      INFO(name << (fifo ? " (FIFO)" : " (link)"));
      fs::remove_all(work);
      fs::create_directories(work / "page");
      const fs::path target = work / "precious.txt";
      std::ofstream(target) << "keep";
      const fs::path planted = work / "page" / name;
      if (fifo) {
        REQUIRE(::mkfifo(planted.c_str(), 0600) == 0);
      } else {
        fs::create_symlink(target, planted);
      }
      CHECK_THROWS_WITH(write_report(in, (work / "page").string()),
                        Catch::Contains(planted.string() + ": error:") &&
                            Catch::Contains(fifo ? "a FIFO" : "is a link to"));
      CHECK(text_of(target) == "keep");
      CHECK(fs::is_symlink(fs::symlink_status(planted)) == !fifo);
      // No temporary is left behind.
      for (const auto& entry : fs::directory_iterator(work / "page"))
        CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
    }
  }
}

TEST_CASE("report: spans narrower than a pixel become one box per pixel, of its main colour") {
  const std::size_t a = 0, b = 1;
  // Pixel 0 of row 0: mostly a; then a span of b three pixels wide, kept exact; then a lone
  // narrow a, more than a pixel after the first box of a.
  const std::vector<GanttSpan> spans = {{0.0, 0.3, 0, a}, {0.3, 0.4, 0, b}, {0.5, 0.9, 0, a},
                                        {2.0, 5.0, 0, b}, {5.1, 5.2, 0, a}, {0.0, 0.2, 1, b}};
  const std::map<std::size_t, std::vector<GanttBox>> boxes = pixel_boxes(spans, 1.0);
  REQUIRE(boxes.at(a).size() == 2);
  CHECK(boxes.at(a)[0].from == 0.0);
  CHECK(boxes.at(a)[0].to == 0.9);
  CHECK(boxes.at(a)[1].from == 5.1);
  REQUIRE(boxes.at(b).size() == 2);
  CHECK(boxes.at(b)[0].row == 0);
  CHECK(boxes.at(b)[0].from == 2.0);
  CHECK(boxes.at(b)[0].to == 5.0);
  CHECK(boxes.at(b)[1].row == 1);
  // One colour: boxes closer than a pixel merge.
  const std::vector<GanttBox> merged = coalesce({{0, 1, 0}, {1.5, 3, 0}, {4.5, 5, 0}}, 1.0);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].to == 3);
}
