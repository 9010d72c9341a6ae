// StarPU history models as curves (see history.h).
#include "report/history.h"

#include <starpu.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include "common/report_error.h"
#include "runtime/include/peppher/detail/starpu_compat.h"

namespace peppher::report {
namespace {

struct ChildResult {
  int status = 0;                     // waitpid's
  std::vector<std::string> data;      // the lines it wrote with a "P " or "F " tag
  std::vector<std::string> messages;  // everything else (StarPU's messages)
};

// Runs @p body in a child process whose stdout and stderr both go to one pipe: StarPU's
// model parser aborts on a file it cannot read, which must not take peppher-report down.
ChildResult in_child(const std::function<int(FILE*)>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw perfdata::ReportError("peppher-report: error: cannot create a pipe");
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw perfdata::ReportError("peppher-report: error: cannot start a process");
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[1]);
    const int code = body(stdout);
    std::fflush(nullptr);
    _exit(code);
  }
  close(fds[1]);
  ChildResult r;
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  while (waitpid(pid, &r.status, 0) < 0 && errno == EINTR) {
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("P ", 0) == 0 || line.rfind("F ", 0) == 0) {
      r.data.push_back(line);
    } else if (!line.empty()) {
      r.messages.push_back(line);
    }
  }
  return r;
}

bool succeeded(const ChildResult& r) {
  return WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0;
}

std::string device_label(const HistoryPoint& p) {
  if (p.arch == "cpu") return p.ncores > 1 ? std::to_string(p.ncores) + " CPUs" : "cpu";
  return p.arch + std::to_string(p.devid);
}

}  // namespace

std::vector<HistoryPoint> load_history_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw perfdata::ReportError(path + ": error: no such performance model file");
  if (std::FILE* f = std::fopen(path.c_str(), "r")) {
    std::fclose(f);
  } else {
    throw perfdata::ReportError(
        path + ": error: cannot read the performance model file: " + std::strerror(errno));
  }
  const ChildResult r = in_child([&](FILE* out) {
    peppher::detail::starpu_drivers_without_init();  // the worker kinds' names
    starpu_perfmodel_initialize();
    starpu_perfmodel model;
    std::memset(&model, 0, sizeof model);  // starpu_perfmodel_load_file wants it all zero
    if (starpu_perfmodel_load_file(path.c_str(), &model) != 0) return 1;
    const int ncombs = starpu_perfmodel_get_narch_combs();
    for (int comb = 0; comb < ncombs; ++comb) {
      starpu_perfmodel_arch* arch = starpu_perfmodel_arch_comb_fetch(comb);
      if (arch == nullptr || arch->ndevices != 1) continue;  // one device per worker here
      const starpu_perfmodel_device& dev = arch->devices[0];
      const char* kind = starpu_perfmodel_get_archtype_name(dev.type);
      for (unsigned impl = 0; impl < STARPU_MAXIMPLEMENTATIONS; ++impl) {
        starpu_perfmodel_per_arch* per = starpu_perfmodel_get_model_per_arch(&model, arch, impl);
        if (per == nullptr) continue;
        for (starpu_perfmodel_history_list* l = per->list; l != nullptr; l = l->next) {
          const starpu_perfmodel_history_entry* e = l->entry;
          std::fprintf(out, "P %s %d %d %u %zu %.17g %.17g %u\n", kind, dev.devid, dev.ncores, impl,
                       e->size, e->mean, e->deviation, e->nsample);
        }
      }
    }
    starpu_perfmodel_unload_model(&model);
    return 0;
  });
  if (!succeeded(r)) {
    // StarPU's own words ("[starpu][parse_model_file][assert failure] Incorrect ..."), not
    // the backtrace it prints before them.
    std::string why;
    for (const std::string& m : r.messages) {
      if (m.rfind("[starpu]", 0) != 0) continue;
      const std::size_t end = m.find("] ");
      why += (why.empty() ? "" : "; ") + (end == std::string::npos ? m : m.substr(end + 2));
    }
    throw perfdata::ReportError(path + ": error: StarPU cannot read this performance model file" +
                                (why.empty() ? std::string() : " (" + why + ")"));
  }
  std::vector<HistoryPoint> points;
  for (const std::string& line : r.data) {
    std::istringstream in(line.substr(2));
    HistoryPoint p;
    in >> p.arch >> p.devid >> p.ncores >> p.impl >> p.bytes >> p.mean_us >> p.stddev_us >>
        p.samples;
    if (in) points.push_back(p);
  }
  return points;
}

std::string history_model_path(const std::string& symbol) {
  const ChildResult r = in_child([&](FILE* out) {
    starpu_perfmodel_initialize();
    char path[PATH_MAX] = {};
    starpu_perfmodel_get_model_path(symbol.c_str(), path, sizeof path);
    std::fprintf(out, "F %s\n", path);
    return 0;
  });
  for (const std::string& line : r.data)
    if (line.rfind("F ", 0) == 0)
      return std::filesystem::path(line.substr(2)).lexically_normal().string();
  throw perfdata::ReportError("peppher-report: error: StarPU cannot say where the model '" +
                              symbol + "' is kept");
}

perfdata::Curve history_curve(const perfdata::ModelRef& ref,
                              const std::vector<HistoryPoint>& points, const std::string& source) {
  perfdata::Curve c;
  c.iface = ref.iface;
  c.axis = "bytes of data";
  c.source = "StarPU history model " + source;
  // Entries of one size (several data layouts) are averaged over their samples.
  std::map<std::string, std::map<double, std::pair<double, double>>> sums;
  for (const HistoryPoint& p : points) {
    if (!(p.mean_us > 0) || !(p.bytes > 0) || p.samples == 0) continue;
    std::string variant = "impl " + std::to_string(p.impl);
    for (const perfdata::ModelImpl& m : ref.impls)
      if (m.arch == p.arch && m.impl == p.impl) variant = m.variant;
    auto& [sum, n] = sums[variant + " on " + device_label(p)][p.bytes];
    sum += p.mean_us * p.samples;
    n += p.samples;
  }
  for (const auto& [label, by_size] : sums)
    for (const auto& [bytes, s] : by_size) c.us[label][bytes] = s.first / s.second;
  return c;
}

std::vector<perfdata::Curve> history_curves(const perfdata::Trace& trace,
                                            std::vector<std::string>& notes) {
  std::vector<perfdata::Curve> curves;
  for (const perfdata::ModelRef& ref : trace.models) {
    const std::string path = history_model_path(ref.symbol);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      notes.push_back("no StarPU model of '" + ref.iface + "' on this machine (" + path +
                      "): run the program with the same STARPU_HOME and STARPU_HOSTNAME");
      continue;
    }
    perfdata::Curve c = history_curve(ref, load_history_file(path), path);
    if (c.us.empty()) {
      notes.push_back("the StarPU model of '" + ref.iface + "' (" + path + ") has no entries yet");
      continue;
    }
    curves.push_back(std::move(c));
  }
  return curves;
}

perfdata::Curve read_model_file_curve(const std::string& path, const perfdata::Trace* trace) {
  std::string symbol = std::filesystem::path(path).filename().string();
  symbol = symbol.substr(0, symbol.rfind('.'));
  perfdata::ModelRef ref{symbol, symbol, "history", {}};
  if (trace != nullptr)
    for (const perfdata::ModelRef& m : trace->models)
      if (m.symbol == symbol) ref = m;
  perfdata::Curve c = history_curve(ref, load_history_file(path), path);
  if (c.us.empty())
    throw perfdata::ReportError(path + ": error: the performance model has no entries");
  return c;
}

}  // namespace peppher::report
