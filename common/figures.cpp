// Gnuplot figures (see figures.h).
#include "common/figures.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/files.h"
#include "common/gantt_boxes.h"
#include "common/report_error.h"

namespace peppher::perfdata {
namespace {

const char* const kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

std::size_t index_of(const std::vector<std::string>& palette, const std::string& name) {
  auto it = std::find(palette.begin(), palette.end(), name);
  return it == palette.end() ? palette.size() : static_cast<std::size_t>(it - palette.begin());
}

// A string from a trace, a training table or a model as a gnuplot single-quoted literal:
// data, never a command. Inside '...' gnuplot expands nothing ('' is a quote), but a line
// break would end the command and start another (`system("...")` would run): every control
// character becomes '?'.
std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\'')
      out += "''";
    else if (u < 0x20 || u == 0x7f)
      out += '?';
    else
      out += c;
  }
  return out + "'";
}

// gnuplot's enhanced-text markup off: names keep their underscores.
std::string title(const std::string& s) {
  return gp_quote(s) + " noenhanced";
}

void write(const std::string& path, const std::string& text) {
  if (std::string problem = files::write_file(path, text); !problem.empty())
    throw ReportError(path + ": error: " + problem);
}

// Runs gnuplot on `script` in `dir` (its working folder, so the script names its files
// plainly): started with an argument vector by posix_spawnp, never through a shell, so
// nothing in the folder's name or in the script's strings is a command. Its output goes to
// a fresh file of ours (shown, then removed, when it fails).
void run_gnuplot(const std::string& dir, const std::string& script) {
  std::string log;
  if (std::string problem = files::create_temporary(dir + "/" + script + ".log", log);
      !problem.empty())
    throw ReportError(dir + "/" + script + ".log: error: " + problem);
  const int log_fd = ::open(log.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  ::unlink(log.c_str());  // read through log_fd only
  if (log_fd < 0)
    throw ReportError(log + ": error: cannot open gnuplot's log: " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 2);
  std::string program = "gnuplot";
  std::string argument = script;
  char* argv[] = {program.data(), argument.data(), nullptr};
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) ::close(log_fd);
  // ENOENT is also what a missing folder gives; the folder was made just before.
  if (started == ENOENT && std::filesystem::is_directory(dir)) {
    throw ReportError(
        "peppher-report: error: gnuplot is not installed (Debian package "
        "gnuplot-nox); --text needs no gnuplot");
  }
  if (started != 0) {
    throw ReportError(dir + "/" + script +
                      ": error: cannot run gnuplot: " + std::strerror(started));
  }
  int status = 0;
  pid_t waited = 0;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string text;
    char buffer[4096];
    ssize_t n = 0;
    ::lseek(log_fd, 0, SEEK_SET);
    while ((n = ::read(log_fd, buffer, sizeof buffer)) > 0 && text.size() < (1 << 16))
      text.append(buffer, static_cast<std::size_t>(n));
    ::close(log_fd);
    throw ReportError(dir + "/" + script + ": error: gnuplot failed:\n" + text);
  }
  ::close(log_fd);
}

// Runs gnuplot on `script`, which writes its figure to `output_var`'s value: a fresh file
// of ours in `dir` (files::create_temporary), moved onto `figure` only where that names a
// regular file or nothing, so a link or FIFO planted at the figure's name is never followed.
// `script` is gnuplot text with "@OUTPUT@" where the output's quoted name goes.
void draw(const std::string& dir, const std::string& figure, const std::string& base,
          std::string script) {
  const std::string path = dir + "/" + figure;
  std::string tmp;
  if (std::string problem = files::create_temporary(path, tmp); !problem.empty())
    throw ReportError(path + ": error: " + problem);
  const std::size_t at = script.find("@OUTPUT@");
  script.replace(at, 8, gp_quote(std::filesystem::path(tmp).filename().string()));
  try {
    write(dir + "/" + base + ".gp", script);
    run_gnuplot(dir, base + ".gp");
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (std::string problem = files::replace_with(tmp, path); !problem.empty())
    throw ReportError(path + ": error: " + problem);
}

// The script's opening; draw() puts the output's name at @OUTPUT@.
std::string header(int width, int height, bool svg = false) {
  return std::string("set terminal ") + (svg ? "svg" : "pngcairo") + " size " +
         std::to_string(width) + "," + std::to_string(height) +
         " font 'sans,10'\nset output @OUTPUT@\nset grid\n";
}

}  // namespace

std::string colour(std::size_t index) {
  return kColours[index % (sizeof kColours / sizeof kColours[0])];
}

namespace {

// "%.6f %.6f %.1f" lines of @p boxes, one data block of gantt.dat.
std::string box_lines(const std::vector<GanttBox>& boxes) {
  std::string text;
  for (const GanttBox& b : boxes) {
    char line[128];
    std::snprintf(line, sizeof line, "%.6f %.6f %.1f\n", b.from, b.to, static_cast<double>(b.row));
    text += line;
  }
  return text;
}

}  // namespace

std::string draw_gantt(const Trace& trace, const std::vector<std::string>& palette,
                       const std::string& dir) {
  // Rows: workers from the top, then bus links. One data block per variant (its colour and
  // key entry), one for transfers; drawn at the time axis's resolution (pixel_boxes).
  std::vector<Track> rows = trace.workers;
  rows.insert(rows.end(), trace.links.begin(), trace.links.end());
  std::map<int, std::size_t> row_of;
  for (std::size_t r = 0; r < rows.size(); ++r) row_of[rows[r].tid] = rows.size() - 1 - r;
  const auto row = [&](int tid) {
    auto it = row_of.find(tid);
    return it == row_of.end() ? std::size_t{0} : it->second;
  };
  std::vector<GanttSpan> spans;
  spans.reserve(trace.tasks.size());
  double end = 0;
  for (const TaskSpan& t : trace.tasks) {
    spans.push_back({t.ts / 1000, (t.ts + t.dur) / 1000, row(t.tid), index_of(palette, t.variant)});
    end = std::max(end, (t.ts + t.dur) / 1000);
  }
  std::vector<GanttBox> moves;
  for (const TransferSpan& x : trace.transfers)
    moves.push_back({x.ts / 1000, (x.ts + x.dur) / 1000, row(x.tid)});
  const double xmax = end > 0 ? end * 1.01 : 1;
  const double pixel = xmax / kGanttWidthPixels;
  std::string data, plot;
  int block = 0;
  for (const auto& [index, boxes] : pixel_boxes(std::move(spans), pixel)) {
    data += box_lines(boxes) + "\n\n";
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + "'gantt.dat' index " +
            std::to_string(block++) +
            " using (($1+$2)/2):3:(($2-$1)/2):(0.35) with boxxyerror fs solid 0.9 noborder lc "
            "rgb '" +
            colour(index) + "' title " + title(index < palette.size() ? palette[index] : "unknown");
  }
  if (!moves.empty()) {
    data += box_lines(coalesce(std::move(moves), pixel)) + "\n\n";
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + "'gantt.dat' index " +
            std::to_string(block++) +
            " using (($1+$2)/2):3:(($2-$1)/2):(0.2) with boxxyerror fs solid 0.6 noborder lc "
            "rgb '#555555' title 'transfer'";
  }
  if (plot.empty()) plot = "plot 1/0 notitle";
  // Row labels without the device description StarPU appends ("OpenCL 0 (pthread-...)");
  // with more rows than fit, every label_every-th.
  const GanttRows fit = fit_rows(rows.size());
  std::string ytics;
  for (std::size_t r = 0; r < rows.size(); r += fit.label_every) {
    const std::string label = rows[r].name.substr(0, rows[r].name.find(" ("));
    ytics += (r ? ", " : "") + gp_quote(label) + " " + std::to_string(rows.size() - 1 - r);
  }
  std::string heading = "Tasks per worker, coloured by variant; data transfers per bus link";
  if (fit.compressed) {
    char note[160];
    std::snprintf(note, sizeof note, " (%zu rows, compressed to %.2f px each", rows.size(),
                  fit.row_pixels);
    heading += note;
    if (fit.label_every > 1)
      heading += "; one label per " + std::to_string(fit.label_every) + " rows";
    heading += ")";
  }
  std::string script = header(kGanttWidthPixels, fit.height);
  script += "set title " + gp_quote(heading) + "\n";
  script += "set xlabel 'time (ms)'\nset ytics (" + ytics + ") noenhanced\n";
  script += "set yrange [-0.6:" + std::to_string(rows.size() - 0.4) + "]\n";
  script += "set xrange [0:" + std::to_string(xmax) + "]\n";
  script += "set key outside right top\nset grid noytics\n" + plot + "\n";
  write(dir + "/gantt.dat", data);
  draw(dir, "gantt.png", "gantt", script);
  return "gantt.png";
}

std::string draw_curve(const Curve& curve, int k, const std::vector<std::string>& palette,
                       const std::string& dir, bool svg) {
  const std::string base = "curve_" + std::to_string(k);
  const std::string figure = base + (svg ? ".svg" : ".png");
  std::string data, plot, regions;
  int block = 0;
  double lo = INFINITY, hi = 0;
  for (const auto& [variant, points] : curve.us) {
    for (const auto& [size, us] : points) {
      data += std::to_string(size) + " " + std::to_string(us) + "\n";
      lo = std::min(lo, size);
      hi = std::max(hi, size);
    }
    data += "\n\n";
    const std::size_t index = index_of(palette, variant);
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + gp_quote(base + ".dat") +
            " index " + std::to_string(block++) + " using 1:2 with linespoints lw 2 pt 7 lc rgb '" +
            colour(index) + "' title " + title(variant);
  }
  // The winner's region: a light band of its colour over the whole height.
  int object = 1;
  for (const WinRegion& r : win_regions(curve)) {
    double from = r.from, to = r.to;
    if (from == to) {  // a single trained size: a narrow band around it
      from /= 1.05;
      to *= 1.05;
    }
    regions += "set object " + std::to_string(object++) + " rect from " + std::to_string(from) +
               ", graph 0 to " + std::to_string(to) + ", graph 1 behind fc rgb '" +
               colour(index_of(palette, r.variant)) + "' fs transparent solid 0.15 noborder\n";
    regions += "set label " + std::to_string(object) + " " + title(r.variant + " wins") + " at " +
               std::to_string(std::sqrt(from * to)) + ", graph 0.95 center font ',9' tc rgb '" +
               colour(index_of(palette, r.variant)) + "'\n";
  }
  std::string script = header(800, 450, svg);
  script += "set title " +
            title(curve.iface + ": time per call by variant (" + curve.source + ")") + "\n";
  script += "set xlabel " + title(curve.axis) + "\nset ylabel 'microseconds per call'\n";
  if (lo > 0 && hi > lo) script += "set logscale x\n";
  script += "set logscale y\nset key left top\n" + regions + plot + "\n";
  write(dir + "/" + base + ".dat", data);
  draw(dir, figure, base, script);
  return figure;
}

std::string curve_svg(const Curve& curve, const std::vector<std::string>& palette) {
  std::string pattern = (std::filesystem::temp_directory_path() / "peppher-figure-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw ReportError("peppher: error: cannot create a temporary folder for a figure");
  std::string svg;
  try {
    const std::string name = draw_curve(curve, 0, palette, pattern, true);
    std::ifstream in(pattern + "/" + name, std::ios::binary);
    std::getline(in, svg, '\0');
  } catch (...) {
    std::filesystem::remove_all(pattern);
    throw;
  }
  std::filesystem::remove_all(pattern);
  // The page carries it inline: drop the XML prologue and the DOCTYPE before <svg.
  const std::size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

}  // namespace peppher::perfdata
