// Checking StarPU's model files before StarPU reads them, and keeping a copy of each history
// model while StarPU rewrites it at shutdown (model_files.h). The parsers follow StarPU's
// readers (perfmodel_history.c, perfmodel_bus.c; 1.3 and 1.4 read the same formats) line by line:
// whatever they would assert on, or read as a negative, infinite or absurd value, is damage here.
#include "lifecycle/model_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <starpu.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>

#include "common/files.h"

namespace peppher::detail {
namespace {

constexpr int kHistoryVersion = 45;  // _STARPU_PERFMODEL_VERSION of StarPU 1.3 and 1.4
// The largest device type a history model may name: StarPU 1.3 asserts type <= 5, 1.4
// type < STARPU_NARCH.
constexpr unsigned long long kMaxDeviceType =
    STARPU_MAJOR_VERSION == 1 && STARPU_MINOR_VERSION == 3 ? 5 : STARPU_NARCH - 1;
constexpr const char* kCopySuffix = ".peppher-previous";
constexpr std::uintmax_t kMaxModelBytes = std::uintmax_t{1} << 30;

// One line of a model file: its number, its text (without the line break), whether a line
// break ended it.
struct Line {
  int number = 0;
  std::string text;
  bool ended = false;
};

// The lines StarPU reads values from: not the comments ('#' first) nor the blank ones.
class DataLines {
 public:
  explicit DataLines(const std::string& text) {
    std::size_t start = 0;
    int number = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      Line line;
      line.number = ++number;
      line.ended = end != std::string::npos;
      line.text = text.substr(start, (line.ended ? end : text.size()) - start);
      start = line.ended ? end + 1 : text.size();
      if (!line.text.empty() && line.text[0] == '#') continue;
      if (line.text.find_first_not_of(" \t\r") == std::string::npos) continue;
      lines_.push_back(std::move(line));
    }
  }
  // The next line's whitespace-separated words, or false at the end (then `problem` says so).
  bool next(std::vector<std::string>& words, std::string& problem, const char* what) {
    if (at_ == lines_.size()) {
      problem = "ends before " + std::string(what) + " (truncated)";
      return false;
    }
    current_ = &lines_[at_++];
    words.clear();
    std::istringstream in(current_->text);
    for (std::string word; in >> word;) words.push_back(word);
    return true;
  }
  const Line& current() const { return *current_; }
  std::size_t count() const { return lines_.size(); }
  const std::vector<Line>& all() const { return lines_; }

 private:
  std::vector<Line> lines_;
  std::size_t at_ = 0;
  const Line* current_ = nullptr;
};

bool parse_unsigned(const std::string& word, unsigned long long max, unsigned long long& value) {
  if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  value = std::strtoull(word.c_str(), nullptr, 10);
  return errno == 0 && value <= max;
}

bool parse_double(const std::string& word, double& value) {
  char* end = nullptr;
  value = std::strtod(word.c_str(), &end);
  return !word.empty() && end == word.c_str() + word.size();
}

std::string at_line(const DataLines& lines, const std::string& what) {
  return "line " + std::to_string(lines.current().number) + ": " + what;
}

// One count on a line of its own ("%u\n"), at most @p max.
bool read_count(DataLines& lines, const char* what, unsigned long long max,
                unsigned long long& value, std::string& problem) {
  std::vector<std::string> words;
  if (!lines.next(words, problem, what)) return false;
  if (words.size() != 1 || !parse_unsigned(words[0], max, value)) {
    problem = at_line(lines, std::string("expected ") + what + " (a whole number up to " +
                                 std::to_string(max) + ")");
    return false;
  }
  return true;
}

// A measured time or sum: a number, not negative, not infinite, below @p max.
bool in_range(double value, double max) {
  return std::isfinite(value) && value >= 0 && value <= max;
}

// One implementation's model (parse_per_arch_model_file): entries count, regression lines,
// then one history entry per line.
bool read_per_arch(DataLines& lines, std::string& problem) {
  unsigned long long entries = 0, value = 0;
  if (!read_count(lines, "the number of entries", 100000000, entries, problem)) return false;
  std::vector<std::string> words;
  double number = 0;
  if (!lines.next(words, problem, "the linear regression")) return false;
  bool ok = words.size() == 9;
  for (std::size_t i = 0; ok && i < 6; ++i) ok = parse_double(words[i], number);
  for (std::size_t i = 6; ok && i < 9; ++i) ok = parse_unsigned(words[i], ~0ull, value);
  if (!ok) {
    problem = at_line(lines, "expected the linear regression's 9 numbers");
    return false;
  }
  if (!lines.next(words, problem, "the non-linear regression")) return false;
  ok = words.size() == 3;
  for (std::size_t i = 0; ok && i < 3; ++i) ok = parse_double(words[i], number);
  if (!ok) {
    problem = at_line(lines, "expected the non-linear regression's 3 numbers");
    return false;
  }
  if (!lines.next(words, problem, "the multiple regression")) return false;
  unsigned long long coefficients = 0;
  ok = !words.empty() && parse_unsigned(words[0], 1024, coefficients) &&
       words.size() == 1 + coefficients;
  for (std::size_t i = 1; ok && i < words.size(); ++i) ok = parse_double(words[i], number);
  if (!ok) {
    problem = at_line(lines, "expected the multiple regression's coefficients");
    return false;
  }
  for (unsigned long long e = 0; e < entries; ++e) {
    if (!lines.next(words, problem, "the history entries it announces")) return false;
    const Line& line = lines.current();
    if (!line.ended || line.text.size() >= 255) {  // StarPU reads an entry with fgets(256)
      problem = at_line(lines, line.ended ? "an entry longer than StarPU reads"
                                          : "the last entry has no line break (truncated)");
      return false;
    }
    // hash size [flops] mean deviation sum sum2 n
    if (words.size() != 8 && words.size() != 7) {
      problem = at_line(lines,
                        "expected a history entry (hash, size, flops, mean, "
                        "deviation, sum, sum2, count)");
      return false;
    }
    const bool flops = words.size() == 8;
    ok = words[0].size() <= 8 &&
         words[0].find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    ok = ok && parse_unsigned(words[1], ~0ull, value);
    if (ok && flops)
      ok = parse_double(words[2], number) && (std::isnan(number) || in_range(number, 1e30));
    // mean and deviation in us (at most 11 days), their sums over the samples
    const double max[] = {1e12, 1e12, 1e20, 1e40};
    for (std::size_t i = 0; ok && i < 4; ++i)
      ok = parse_double(words[(flops ? 3 : 2) + i], number) && in_range(number, max[i]);
    ok = ok && parse_unsigned(words.back(), 0xffffffffull, value);
    if (!ok) {
      problem = at_line(lines,
                        "a history entry with a value that is not a number, negative, "
                        "infinite or absurd");
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

// StarPU ends every model and bus file with a line break: a file that does not was cut.
std::string empty_or_cut(const std::string& text) {
  if (text.empty()) return "is empty";
  if (text.back() != '\n') return "ends without a line break (truncated)";
  return "";
}

}  // namespace

std::string history_model_problem(const std::string& text) {
  if (std::string problem = empty_or_cut(text); !problem.empty()) return problem;
  DataLines lines(text);
  std::string problem;
  unsigned long long version = 0, combs = 0;
  if (!read_count(lines, "the model version", 1000000, version, problem)) return problem;
  if (version != kHistoryVersion)
    return at_line(lines, "model version " + std::to_string(version) + ", not this StarPU's " +
                              std::to_string(kHistoryVersion));
  if (!read_count(lines, "the number of combinations", 4096, combs, problem)) return problem;
  for (unsigned long long comb = 0; comb < combs; ++comb) {
    unsigned long long devices = 0, value = 0, impls = 0;
    if (!read_count(lines, "the number of devices", 64, devices, problem)) return problem;
    if (devices == 0) return at_line(lines, "a combination of no device");
    for (unsigned long long d = 0; d < devices; ++d) {
      if (!read_count(lines, "a device type", kMaxDeviceType, value, problem) ||
          !read_count(lines, "a device id", 1u << 20, value, problem) ||
          !read_count(lines, "a core count", 1u << 20, value, problem))
        return problem;
    }
    if (!read_count(lines, "the number of implementations", 4096, impls, problem)) return problem;
    if (impls == 0) return at_line(lines, "no implementation");
    for (unsigned long long impl = 0; impl < impls; ++impl)
      if (!read_per_arch(lines, problem)) return problem;
  }
  return "";
}

std::string bus_file_problem(const std::string& kind, const std::string& text) {
  if (std::string problem = empty_or_cut(text); !problem.empty()) return problem;
  DataLines lines(text);
  std::string problem;
  std::vector<std::string> words;
  unsigned long long value = 0;
  if (kind == "config") {  // one count per line, then a comment: at least StarPU 1.3's six
    while (lines.next(words, problem, "")) {
      if (words.empty() || !parse_unsigned(words[0], 1u << 20, value) ||
          (words.size() > 1 && words[1][0] != '#'))
        return at_line(lines, "expected a count");
    }
    if (lines.count() < 6)
      return "ends after " + std::to_string(lines.count()) +
             " counts, before StarPU 1.3's six (truncated)";
    return "";
  }
  if (kind == "affinity") {  // per device, its NUMA nodes by preference
    while (lines.next(words, problem, "")) {
      for (const std::string& word : words)
        if (!parse_unsigned(word, 1u << 20, value)) return at_line(lines, "expected a node number");
    }
    return "";
  }
  // latency (us) or bandwidth (bytes/us): a STARPU_MAXNODES square, nan where no link is
  const bool latency = kind == "latency";
  if (lines.count() != STARPU_MAXNODES)
    return "has " + std::to_string(lines.count()) + " rows, not StarPU's " +
           std::to_string(STARPU_MAXNODES) +
           (lines.count() < STARPU_MAXNODES ? " (truncated)" : "");
  while (lines.next(words, problem, "")) {
    if (words.empty() || words.size() > STARPU_MAXNODES)
      return at_line(lines, "expected up to " + std::to_string(STARPU_MAXNODES) + " numbers");
    for (const std::string& word : words) {
      double number = 0;
      if (!parse_double(word, number)) return at_line(lines, "'" + word + "' is not a number");
      if (std::isnan(number)) continue;
      const bool ok = latency ? in_range(number, 1e7)                              // 10 s
                              : number == 0 || (number >= 1e-3 && number <= 1e9);  // 1 KB/s..1 PB/s
      if (!ok)
        return at_line(lines, "the " + kind + " " + word + " is negative, infinite or absurd");
    }
  }
  return "";
}

std::string sampling_folder() {
  if (const char* dir = std::getenv("STARPU_PERF_MODEL_DIR"); dir != nullptr && *dir != '\0')
    return std::string(dir) + "/";
  for (const char* name : {"STARPU_HOME", "HOME", "USERPROFILE"})
    if (const char* home = std::getenv(name); home != nullptr && *home != '\0')
      return std::string(home) + "/.starpu/sampling/";
  return "";
}

std::string starpu_host_name() {
  if (const char* forced = std::getenv("STARPU_HOSTNAME"); forced != nullptr && *forced != '\0')
    return forced;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  std::string host = name;
  return host.substr(0, host.find('.'));
}

namespace {

// The entries of @p folder whose names end with @p suffix (none when it cannot be read).
std::vector<std::string> entries_ending(const std::string& folder, const std::string& suffix) {
  std::vector<std::string> found;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return found;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found.push_back(folder + name);
  }
  closedir(dir);
  return found;
}

// Reads the model file @p path into @p text: "" or why it is no file StarPU can read. Under
// a read lock, as StarPU reads it (fcntl, _starpu_frdlock): a program writing it at this
// moment holds the write lock, and its write is read whole, never half.
std::string read_model(const std::string& path, std::string& text) {
  text.clear();
  struct stat own {};
  struct stat target {};
  if (::lstat(path.c_str(), &own) == 0 && S_ISLNK(own.st_mode) &&
      ::stat(path.c_str(), &target) != 0)
    return "is a link to a file that does not exist";
  if (std::string problem = files::not_a_file(path); !problem.empty()) return problem;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return std::string("cannot be read (") + std::strerror(errno) + ")";
  struct flock lock {};
  lock.l_type = F_RDLCK;
  lock.l_whence = SEEK_SET;
  while (::fcntl(fd, F_SETLKW, &lock) != 0 && errno == EINTR) {
  }  // no locks (NFS): read as StarPU does, unlocked
  std::string problem;
  if (::fstat(fd, &target) != 0 || !S_ISREG(target.st_mode)) problem = "is not a regular file";
  char buffer[1 << 16];
  while (problem.empty()) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = std::string("cannot be read (") + std::strerror(errno) + ")";
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxModelBytes) problem = "is larger than 1 GiB";
  }
  ::close(fd);  // releases the lock
  return problem;
}

std::string now_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return std::string(stamp) + "-" + std::to_string(getpid());
}

// A damaged model file: restored from the copy a shutdown kept, or set aside. One warning.
void repair(const std::string& path, const std::string& problem, bool history) {
  const std::string copy = path + kCopySuffix;
  std::string text;
  if (history && files::not_a_file(copy).empty() && read_model(copy, text).empty() &&
      history_model_problem(text).empty() && std::rename(copy.c_str(), path.c_str()) == 0) {
    std::cerr << "peppher: warning: StarPU model file '" << path << "' " << problem
              << ": restored from the copy kept before the last shutdown rewrote it\n";
    return;
  }
  const std::string aside = path + ".damaged-" + now_stamp();
  if (std::rename(path.c_str(), aside.c_str()) == 0) {
    std::cerr << "peppher: warning: StarPU model file '" << path << "' " << problem
              << ": set aside as '" << aside << "'; StarPU "
              << (history ? "learns this model again" : "calibrates the bus again") << "\n";
  } else {
    std::cerr << "peppher: warning: StarPU model file '" << path << "' " << problem
              << ", and it cannot be set aside (" << std::strerror(errno)
              << "): StarPU may stop on it; remove it\n";
  }
}

}  // namespace

std::string model_folder_problem() {
  const std::string sampling = sampling_folder();
  if (sampling.empty()) return "";  // StarPU says so itself, without aborting
  const std::vector<std::string> folders = {
      sampling + "bus", sampling + "codelets/" + std::to_string(kHistoryVersion)};
  for (const std::string& folder : folders) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (!ec && !std::filesystem::is_directory(folder, ec))
      ec = std::make_error_code(std::errc::not_a_directory);
    if (!ec && ::access(folder.c_str(), W_OK | X_OK) != 0)
      ec = std::error_code(errno, std::generic_category());
    if (ec)
      return "StarPU cannot keep its performance models in '" + folder + "' (" + ec.message() +
             "): set STARPU_HOME (or STARPU_PERF_MODEL_DIR) to a folder it may write";
  }
  return "";
}

void check_model_files() {
  const std::string sampling = sampling_folder();
  const std::string host = starpu_host_name();
  if (sampling.empty() || host.empty()) return;
  const std::string models = sampling + "codelets/" + std::to_string(kHistoryVersion) + "/";
  for (const std::string& path : entries_ending(models, "." + host)) {
    std::string text;
    std::string problem = read_model(path, text);
    if (problem.empty()) problem = history_model_problem(text);
    // A copy beside a sound model is left alone: another program's shutdown may be about
    // to rewrite it (its copy goes when that write ended; a stale one, at the next shutdown).
    if (!problem.empty()) repair(path, problem, true);
  }
#ifndef STARPU_SIMGRID
  // Not under simulation: there the bus files are a recorded machine's, which StarPU cannot
  // calibrate again (it stops), and it reads them its own way (no config or affinity file;
  // StarPU's bundled sirocco has 16 rows where this build has STARPU_MAXNODES).
  for (const char* kind : {"config", "affinity", "latency", "bandwidth"}) {
    const std::string path = sampling + "bus/" + host + "." + kind;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;  // StarPU calibrates and writes it
    std::string text;
    std::string problem = read_model(path, text);
    if (problem.empty()) problem = bus_file_problem(kind, text);
    if (!problem.empty()) repair(path, problem, false);
  }
#endif
}

std::vector<std::string> keep_model_copies() {
  std::vector<std::string> copies;
  const std::string sampling = sampling_folder();
  const std::string host = starpu_host_name();
  if (sampling.empty() || host.empty()) return copies;
  const std::string models = sampling + "codelets/" + std::to_string(kHistoryVersion) + "/";
  for (const std::string& path : entries_ending(models, "." + host)) {
    std::string text;
    if (!read_model(path, text).empty() || !history_model_problem(text).empty()) continue;
    if (files::write_file(path + kCopySuffix, text).empty()) copies.push_back(path + kCopySuffix);
  }
  return copies;
}

void drop_model_copies(const std::vector<std::string>& copies) noexcept {
  for (const std::string& copy : copies) std::remove(copy.c_str());
}

int bus_model_opencl_devices() {
  const std::string folder = sampling_folder();
  const std::string host = starpu_host_name();
  if (folder.empty() || host.empty()) return -1;
  std::string text;
  if (!read_model(folder + "bus/" + host + ".config", text).empty()) return -1;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // "# Number of OpenCL devices" (StarPU 1.3), "# Number of OpenCL nodes" (1.4)
    if (line.find("# Number of OpenCL ") == std::string::npos) continue;
    char* end = nullptr;
    const long n = std::strtol(line.c_str(), &end, 10);
    return end != line.c_str() && n >= 0 ? static_cast<int>(n) : -1;
  }
  return -1;
}

}  // namespace peppher::detail
