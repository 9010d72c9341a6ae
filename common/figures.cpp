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
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) throw ReportError(path + ": error: cannot write");
}

// Runs gnuplot on `script` in `dir` (its working folder, so the script names its files
// plainly): started with an argument vector by posix_spawnp, never through a shell, so
// nothing in the folder's name or in the script's strings is a command. Its output goes to
// <script>.log, kept and shown when it fails.
void run_gnuplot(const std::string& dir, const std::string& script) {
  const std::string log = script + ".log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::string program = "gnuplot";
  std::string argument = script;
  char* argv[] = {program.data(), argument.data(), nullptr};
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
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
    std::ifstream in(dir + "/" + log);
    std::getline(in, text, '\0');
    throw ReportError(dir + "/" + script + ": error: gnuplot failed:\n" + text);
  }
  std::remove((dir + "/" + log).c_str());
}

std::string header(const std::string& file, int width, int height, bool svg = false) {
  return std::string("set terminal ") + (svg ? "svg" : "pngcairo") + " size " +
         std::to_string(width) + "," + std::to_string(height) + " font 'sans,10'\nset output " +
         gp_quote(file) + "\nset grid\n";
}

}  // namespace

std::string colour(std::size_t index) {
  return kColours[index % (sizeof kColours / sizeof kColours[0])];
}

std::string draw_gantt(const Trace& trace, const std::vector<std::string>& palette,
                       const std::string& dir) {
  // Rows: workers from the top, then bus links. One data block per variant (its colour and
  // key entry), one for transfers.
  std::vector<Track> rows = trace.workers;
  rows.insert(rows.end(), trace.links.begin(), trace.links.end());
  std::map<int, std::size_t> row_of;
  for (std::size_t r = 0; r < rows.size(); ++r) row_of[rows[r].tid] = rows.size() - 1 - r;
  std::map<std::size_t, std::string> blocks;  // palette index -> data
  double end = 0;
  for (const TaskSpan& t : trace.tasks) {
    const double y = static_cast<double>(row_of[t.tid]);
    char line[128];
    std::snprintf(line, sizeof line, "%.6f %.6f %.1f\n", t.ts / 1000, (t.ts + t.dur) / 1000, y);
    blocks[index_of(palette, t.variant)] += line;
    end = std::max(end, (t.ts + t.dur) / 1000);
  }
  std::string transfers;
  for (const TransferSpan& x : trace.transfers) {
    char line[128];
    std::snprintf(line, sizeof line, "%.6f %.6f %.1f\n", x.ts / 1000, (x.ts + x.dur) / 1000,
                  static_cast<double>(row_of[x.tid]));
    transfers += line;
  }
  std::string data, plot;
  int block = 0;
  for (const auto& [index, text] : blocks) {
    data += text + "\n\n";
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + "'gantt.dat' index " +
            std::to_string(block++) +
            " using (($1+$2)/2):3:(($2-$1)/2):(0.35) with boxxyerror fs solid 0.9 noborder lc "
            "rgb '" +
            colour(index) + "' title " + title(index < palette.size() ? palette[index] : "unknown");
  }
  if (!transfers.empty()) {
    data += transfers + "\n\n";
    plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + "'gantt.dat' index " +
            std::to_string(block++) +
            " using (($1+$2)/2):3:(($2-$1)/2):(0.2) with boxxyerror fs solid 0.6 noborder lc "
            "rgb '#555555' title 'transfer'";
  }
  if (plot.empty()) plot = "plot 1/0 notitle";
  // Row labels without the device description StarPU appends ("OpenCL 0 (pthread-...)").
  std::string ytics;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string label = rows[r].name.substr(0, rows[r].name.find(" ("));
    ytics += (r ? ", " : "") + gp_quote(label) + " " + std::to_string(rows.size() - 1 - r);
  }
  const int height = 140 + 40 * static_cast<int>(std::max<std::size_t>(rows.size(), 2));
  std::string script = header("gantt.png", 1000, height);
  script += "set title 'Tasks per worker, coloured by variant; data transfers per bus link'\n";
  script += "set xlabel 'time (ms)'\nset ytics (" + ytics + ") noenhanced\n";
  script += "set yrange [-0.6:" + std::to_string(rows.size() - 0.4) + "]\n";
  script += "set xrange [0:" + std::to_string(end > 0 ? end * 1.01 : 1) + "]\n";
  script += "set key outside right top\nset grid noytics\n" + plot + "\n";
  write(dir + "/gantt.dat", data);
  write(dir + "/gantt.gp", script);
  run_gnuplot(dir, "gantt.gp");
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
  std::string script = header(figure, 800, 450, svg);
  script += "set title " +
            title(curve.iface + ": time per call by variant (" + curve.source + ")") + "\n";
  script += "set xlabel " + title(curve.axis) + "\nset ylabel 'microseconds per call'\n";
  if (lo > 0 && hi > lo) script += "set logscale x\n";
  script += "set logscale y\nset key left top\n" + regions + plot + "\n";
  write(dir + "/" + base + ".dat", data);
  write(dir + "/" + base + ".gp", script);
  run_gnuplot(dir, base + ".gp");
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
