// Runs peppher-opencl-check over the OpenCL variants' kernel files (see kernel_build.h) and
// turns its build logs into diagnostics at the kernel files' lines. A child process with an
// argument vector (no shell), fed through its stdin, its output read until a deadline.
#include "compose/verify/kernel_build.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

extern char** environ;

namespace peppher::verify {
namespace {

namespace fs = std::filesystem;

// Writes all of `data` to `fd`; false when the reader is gone (EPIPE: its SIGPIPE is
// blocked and consumed, so that compose is not killed by it).
bool write_all(int fd, const std::string& data) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  bool ok = true;
  for (size_t done = 0; done < data.size();) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      if (errno == EPIPE) {
        const timespec zero{};
        sigtimedwait(&pipe_set, nullptr, &zero);
      }
      break;
    }
    done += static_cast<size_t>(n);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

// One item of the helper's output.
struct ItemResult {
  bool ok = false;
  std::string error_name;  // CL_COMPILE_PROGRAM_FAILURE
  std::string device;
  std::string log;
};

// The helper's output, item by item (those it finished).
std::vector<ItemResult> parse_items(const std::string& out) {
  std::vector<ItemResult> items;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word, status;
    size_t index = 0;
    if (!(words >> word >> index >> status) || word != "item") continue;
    ItemResult item;
    item.ok = status == "ok";
    if (!item.ok) {
      words >> item.error_name;
      std::getline(words >> std::ws, item.device);
    }
    bool ended = false;
    while (std::getline(in, line)) {
      if (line == "end") {
        ended = true;
        break;
      }
      item.log += line + "\n";
    }
    if (!ended || index != items.size()) break;  // cut short: killed in this item
    items.push_back(std::move(item));
  }
  return items;
}

// The first lines of a log, for a build that failed without a located error.
std::string head(const std::string& log, int lines) {
  std::string out;
  std::istringstream in(log);
  std::string line;
  for (int i = 0; i < lines && std::getline(in, line); ++i) out += (i ? "\n  " : "") + line;
  return out;
}

}  // namespace

std::vector<LoggedDiagnostic> parse_build_log(const std::string& log) {
  // "error: FILE:L:C: message" (pocl), or "FILE:L:C: error: message".
  static const std::regex kBefore(
      R"(^(fatal error|error|warning|note): (.+?):([0-9]+):([0-9]+): (.*)$)");
  static const std::regex kAfter(
      R"(^(.+?):([0-9]+):([0-9]+): (fatal error|error|warning|note): (.*)$)");
  std::vector<LoggedDiagnostic> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    LoggedDiagnostic d;
    if (std::regex_match(line, m, kBefore)) {
      d = {m[2], std::stoi(m[3]), std::stoi(m[4]), m[1], m[5]};
    } else if (std::regex_match(line, m, kAfter)) {
      d = {m[1], std::stoi(m[2]), std::stoi(m[3]), m[4], m[5]};
    } else {
      continue;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string logged_file(const std::string& logged, const std::string& kernel_path) {
  const fs::path p(logged);
  const std::string name = p.filename().string();
  // pocl compiles a copy in its cache (kcache/tempfile_XXXX.cl); others name the source
  // "<source>", "<kernel>", "input.cl", ...: none of those is the user's header.
  std::error_code ec;
  const bool temporary = name.rfind("tempfile", 0) == 0 || p.parent_path().filename() == "kcache" ||
                         !fs::is_regular_file(p, ec);
  if (temporary) return kernel_path;
  if (fs::equivalent(p, kernel_path, ec)) return kernel_path;
  // A header: from the current folder when under it, as Clang's own diagnostics say.
  const fs::path relative = p.lexically_relative(fs::current_path(ec));
  if (!ec && !relative.empty() && *relative.begin() != "..") return relative.string();
  return logged;
}

KernelBuilder::KernelBuilder(std::string checker, int timeout_s)
    : checker_(std::move(checker)), timeout_s_(timeout_s) {}

KernelBuilder::~KernelBuilder() {
  if (to_helper_ >= 0) close(to_helper_);
  if (from_helper_ >= 0) close(from_helper_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

void KernelBuilder::add(const KernelBuildRequest& request) {
  std::pair<std::string, std::string> key{fs::absolute(request.path).lexically_normal().string(),
                                          request.options};
  if (std::find(keys_.begin(), keys_.end(), key) != keys_.end()) return;
  keys_.push_back(std::move(key));
  requests_.push_back(request);
  if (checker_.empty()) return;
  if (requests_.size() == 1) start_helper();
  send(request);
}

// The helper, reading FILE '\0' OPTIONS '\0' records from its stdin; its stderr (the
// platform's own "4 errors generated.") goes to /dev/null.
void KernelBuilder::start_helper() {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) {
    start_problem_ = std::string("cannot make a pipe: ") + std::strerror(errno);
    return;
  }
  if (pipe2(out, O_CLOEXEC) != 0) {
    start_problem_ = std::string("cannot make a pipe: ") + std::strerror(errno);
    close(in[0]);
    close(in[1]);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::string dash = "-";
  char* argv[] = {checker_.data(), dash.data(), nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, checker_.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (spawned != 0) {
    close(in[1]);
    close(out[0]);
    start_problem_ = "cannot run " + checker_ + ": " + std::strerror(spawned);
    return;
  }
  pid_ = pid;
  to_helper_ = in[1];
  from_helper_ = out[0];
}

void KernelBuilder::send(const KernelBuildRequest& request) {
  if (to_helper_ < 0) return;
  std::string record = request.path;
  record += '\0';
  record += request.options;
  record += '\0';
  if (!write_all(to_helper_, record)) {  // it ended (no platform): finish() says why
    close(to_helper_);
    to_helper_ = -1;
  }
}

KernelBuilder::Outcome KernelBuilder::wait_for_helper(diag::Diagnostics& diags) {
  if (pid_ <= 0) {
    diags.warning(requests_.front().loc,
                  "OpenCL kernels not built at compose time: " + start_problem_);
    return Outcome::Failed;
  }
  if (to_helper_ >= 0) close(to_helper_);  // no more requests: it ends after the last
  to_helper_ = -1;
  std::string out;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s_);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{from_helper_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready <= 0) continue;  // EINTR, or nothing yet
    const ssize_t n = read(from_helper_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of its output: it is done
    out.append(buf, static_cast<size_t>(n));
  }
  close(from_helper_);
  from_helper_ = -1;
  if (timed_out) kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 3) return Outcome::NoPlatform;

  const std::vector<ItemResult> items = parse_items(out);
  std::set<std::tuple<std::string, int, int, std::string>> reported;  // one per copy of a kernel
  for (size_t i = 0; i < items.size() && i < requests_.size(); ++i) {
    const ItemResult& item = items[i];
    const KernelBuildRequest& r = requests_[i];
    if (item.ok) continue;
    bool located = false;
    for (const LoggedDiagnostic& d : parse_build_log(item.log)) {
      if (d.severity != "error" && d.severity != "fatal error") continue;
      located = true;
      const std::string file = logged_file(d.file, r.path);
      if (!reported.insert({file, d.line, d.col, d.message}).second) continue;
      diags.error(ir::SourceLoc{file, d.line, d.col}, d.message);
    }
    const std::string options = r.options.empty() ? "" : " with options '" + r.options + "'";
    const std::string what = "OpenCL variant '" + r.variant + "': '" + r.path +
                             "' does not compile for device '" + item.device + "' (" +
                             item.error_name + ")" + options;
    if (located) {
      diags.note(r.loc, what + "; the runtime could not build it either");
    } else {
      diags.error(r.loc, what + ": " + head(item.log, 20));
    }
  }
  if (items.size() >= requests_.size()) return Outcome::Checked;
  const KernelBuildRequest& r = requests_[items.size()];
  diags.warning(r.loc, timed_out
                           ? "OpenCL variant '" + r.variant + "': building '" + r.path +
                                 "' with the OpenCL platform did not finish in " +
                                 std::to_string(timeout_s_) +
                                 " s (killed; set PEPPHER_OPENCL_CHECK_TIMEOUT for more): its "
                                 "kernels and those after it are not checked"
                           : "OpenCL variant '" + r.variant + "': the OpenCL build check (" +
                                 checker_ + ") stopped while building '" + r.path +
                                 "': its kernels and those after it are not checked");
  return Outcome::Failed;
}

namespace {

// The Clang fallback: each request parsed as OpenCL C with its bodies; false when Clang has
// no OpenCL C header (its builtins would all be errors).
bool compile_with_clang(const std::vector<KernelBuildRequest>& requests,
                        facts::SourceParser& parser, diag::Diagnostics& diags) {
  std::error_code ec;
  if (!fs::exists(PEPPHER_CLANG_RESOURCE_DIR "/include/opencl-c.h", ec)) return false;
  std::set<std::tuple<std::string, int, int, std::string>> reported;
  for (const KernelBuildRequest& r : requests) {
    facts::ParseRequest request = r.clang;
    request.check_bodies = true;
    const facts::ParsedSource parsed = parser.parse(request);
    if (parsed.ok) continue;
    const std::string absolute = fs::absolute(r.path).lexically_normal().string();
    for (const auto& [loc, message] : parsed.errors) {
      const std::string file =
          loc.file.empty() || loc.file == absolute ? r.path : logged_file(loc.file, r.path);
      if (!reported.insert({file, loc.line, loc.col, message}).second) continue;
      diags.error(ir::SourceLoc{file, loc.line, loc.col}, message);
    }
    diags.note(r.loc, "OpenCL variant '" + r.variant + "': '" + r.path +
                          "' does not compile as OpenCL C 1.2 (Clang's front end: this machine "
                          "has no OpenCL platform to build it with)");
  }
  return true;
}

}  // namespace

void KernelBuilder::finish(int verbosity, facts::SourceParser& parser, diag::Diagnostics& diags) {
  if (requests_.empty()) return;
  if (!checker_.empty() && wait_for_helper(diags) != Outcome::NoPlatform) return;
  if (compile_with_clang(requests_, parser, diags)) return;
  if (verbosity >= 1) {
    diags.note(
        "OpenCL kernel files are not compiled at compose time: no OpenCL platform, and "
        "Clang has no OpenCL C header (" PEPPHER_CLANG_RESOURCE_DIR "/include/opencl-c.h)");
  }
}

}  // namespace peppher::verify
