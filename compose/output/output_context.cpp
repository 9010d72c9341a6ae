// The all-or-nothing writer behind OutputContext: stage every changed file, journal the
// commit, rename, remove the journal; a failure, SIGINT or SIGTERM rolls back at once, a
// SIGKILL's journal is rolled back by the next write (see output_context.h and journal.h).
#include "compose/output/output_context.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "compose/output/journal.h"

namespace peppher::output {

namespace fs = std::filesystem;

namespace {

using journal::kStagePrefix;
constexpr const char* kOldTempMarker = ".compose-tmp.";  // earlier versions' temp files

bool same_content(const fs::path& p, const std::string& text) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str() == text;
}

// Whether the file at `p` carries compose's mark in its first lines.
bool generated_by_compose(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string head(1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.find(kGeneratedMark) != std::string::npos;
}

bool pid_alive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

bool fsync_path(const fs::path& p, int flags) {
  int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// Writes `text` into a new file `p` (never an existing one, never through a symlink).
std::string write_new_file(const fs::path& p, const std::string& text) {
  int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return std::strerror(errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string why = std::strerror(errno);
      ::close(fd);
      return why;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    std::string why = std::strerror(errno);
    ::close(fd);
    return why;
  }
  if (::close(fd) != 0) return std::strerror(errno);
  return "";
}

// Whether `rel` stays inside its output folder: relative, no `..`, no empty name.
bool confined(const std::string& rel) {
  fs::path p(rel);
  if (rel.empty() || p.is_absolute()) return false;
  for (const fs::path& part : p) {
    if (part == ".." || part == "." || part.empty()) return false;
  }
  return true;
}

struct Change {
  journal::Entry entry;
  const std::string* text = nullptr;
};

// SIGINT, SIGTERM, SIGHUP and SIGQUIT, held while a write runs: the first one is noted and
// the write checks for it between steps; when the write is over, the previous handlers are
// back and the noted signal is raised again, so it takes its usual course. A signal the
// process ignores (nohup) stays ignored.
volatile sig_atomic_t g_noted_signal = 0;

extern "C" void note_signal(int sig) {
  if (g_noted_signal == 0) g_noted_signal = sig;
}

class HeldSignals {
 public:
  HeldSignals() {
    g_noted_signal = 0;
    for (size_t i = 0; i < kCount; ++i) {
      struct sigaction held {};
      held.sa_handler = note_signal;
      sigemptyset(&held.sa_mask);
      held.sa_flags = SA_RESTART;
      installed_[i] = ::sigaction(kSignals[i], nullptr, &previous_[i]) == 0 &&
                      previous_[i].sa_handler != SIG_IGN &&
                      ::sigaction(kSignals[i], &held, nullptr) == 0;
    }
  }
  ~HeldSignals() {
    for (size_t i = 0; i < kCount; ++i) {
      if (installed_[i]) ::sigaction(kSignals[i], &previous_[i], nullptr);
    }
    if (const int sig = g_noted_signal; sig != 0) {
      g_noted_signal = 0;
      ::raise(sig);
    }
  }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

  int noted() const { return g_noted_signal; }
  static std::string name(int sig) {
    switch (sig) {
      case SIGINT:
        return "SIGINT";
      case SIGTERM:
        return "SIGTERM";
      case SIGHUP:
        return "SIGHUP";
      case SIGQUIT:
        return "SIGQUIT";
      default:
        return "signal " + std::to_string(sig);
    }
  }

 private:
  static constexpr size_t kCount = 4;
  static constexpr int kSignals[kCount] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  struct sigaction previous_[kCount] {};
  bool installed_[kCount] = {};
};

// An exclusive flock on a folder while this object lives: one compose writes it at a
// time, so every staging folder in it belongs to a run that is over. `held()` is false
// where the filesystem has no flock for folders (then a staging folder whose process is
// alive is left alone, as before).
class FolderLock {
 public:
  FolderLock(const fs::path& folder, diag::Diagnostics& diag) {
    fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return;
    // Another compose writing the same folder holds it for as long as its write takes.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool waiting = false;
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) return;  // no flock here
      if (g_noted_signal != 0) {         // stopped while waiting: nothing written
        busy_ = true;
        return;
      }
      if (std::chrono::steady_clock::now() > give_up) {
        busy_ = true;
        diag.error("another compose is still writing into '" + folder.generic_string() +
                   "' (it holds a lock on the folder); nothing was written");
        return;
      }
      if (!waiting)
        diag.note("waiting for another compose writing into '" + folder.generic_string() + "'");
      waiting = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    held_ = true;
  }
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

  bool held() const { return held_; }
  bool busy() const { return busy_; }

 private:
  int fd_ = -1;
  bool held_ = false;
  bool busy_ = false;
};

// The staging folders and earlier versions' temp files that runs which are over left in
// `folder` (with `locked`, every one; otherwise those whose process is gone).
std::vector<fs::path> leftovers(const fs::path& folder, bool locked) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    long pid = 0;
    if (name.rfind(kStagePrefix, 0) == 0) {
      pid = std::strtol(name.c_str() + std::strlen(kStagePrefix), nullptr, 10);
    } else if (size_t at = name.find(kOldTempMarker); at != std::string::npos) {
      pid = std::strtol(name.c_str() + at + std::strlen(kOldTempMarker), nullptr, 10);
    } else {
      continue;
    }
    if (!locked && pid_alive(pid)) continue;
    found.push_back(it->path());
  }
  return found;
}

// Removes the journals of `entries`' staging folders (`last`'s last), then the folders.
void remove_stages(const std::vector<journal::Entry>& entries, const fs::path& last) {
  std::vector<fs::path> stages = journal::stages_of(entries);
  if (!last.empty() && std::find(stages.begin(), stages.end(), last) == stages.end())
    stages.push_back(last);
  std::stable_partition(stages.begin(), stages.end(), [&](const fs::path& s) { return s != last; });
  std::error_code ec;
  for (const fs::path& s : stages) fs::remove(s / journal::kFileName, ec);
  for (const fs::path& s : stages) fs::remove_all(s, ec);
}

// What killed runs left in `folders`: first every journal is rolled back (its files get
// their previous texts back; the backups of one run lie in several folders, so nothing
// is removed before all are rolled back), then the staging folders go.
bool recover(const std::vector<fs::path>& folders, bool locked, diag::Diagnostics& diag) {
  std::vector<fs::path> stale;
  for (const fs::path& folder : folders) {
    for (const fs::path& p : leftovers(folder, locked)) {
      stale.push_back(p);
      std::optional<std::vector<journal::Entry>> entries = journal::read(p);
      if (!entries) continue;
      std::vector<std::string> kept;
      const std::vector<std::string> failed = journal::roll_back(*entries, &kept);
      for (const std::string& k : kept) {
        diag.warning("'" + k +
                     "' changed after a compose was interrupted while writing it; "
                     "left as it is");
      }
      if (!failed.empty()) {
        std::string list;
        for (const std::string& f : failed) list += (list.empty() ? "" : ", ") + f;
        diag.error("a compose was interrupted while writing '" + folder.generic_string() +
                   "', and its previous files cannot be restored (" + list +
                   "); the journal and the previous texts are in '" + p.generic_string() +
                   "'; nothing was written");
        return false;
      }
      diag.note("a compose was interrupted while writing '" + folder.generic_string() + "': its " +
                std::to_string(entries->size()) + " files have their previous texts again");
      remove_stages(*entries, p);
    }
  }
  std::error_code ec;
  for (const fs::path& p : stale) fs::remove_all(p, ec);
  return true;
}

// Tests only: COMPOSE_TEST_COMMIT_DELAY_US=<n> widens the commit to hit it with a signal.
std::chrono::microseconds commit_delay() {
  const char* v = std::getenv("COMPOSE_TEST_COMMIT_DELAY_US");
  return std::chrono::microseconds(v ? std::strtol(v, nullptr, 10) : 0);
}

// The folder of a target.
fs::path folder_of(const fs::path& target) {
  return target.parent_path().empty() ? fs::path(".") : target.parent_path();
}

// The folders of `targets` and `first` (the output folder), each once.
std::vector<fs::path> folders_of(const std::vector<fs::path>& targets, const fs::path& first) {
  std::vector<fs::path> folders;
  if (!first.empty()) folders.push_back(first);
  for (const fs::path& t : targets) {
    const fs::path f = folder_of(t);
    if (std::find(folders.begin(), folders.end(), f) == folders.end()) folders.push_back(f);
  }
  return folders;
}

// Whether `folder` lies in `outer` (or is it), both absolute, normal, no trailing '/'.
bool lies_in(const fs::path& folder, const fs::path& outer) {
  auto f = folder.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++f) {
    if (f == folder.end() || *f != *o) return false;
  }
  return true;
}

// Creates `folders` (outermost first) and a staging folder in each that lies in no other
// of them on the same filesystem: stage_of maps every folder to the staging folder that
// serves it (renames stay within one filesystem), `stages` lists them.
bool assign_stages(std::vector<fs::path> folders, std::map<fs::path, fs::path>& stage_of,
                   std::vector<fs::path>& stages, diag::Diagnostics& diag) {
  struct Outer {
    fs::path absolute;
    dev_t device;
    fs::path stage;
  };
  std::vector<Outer> outers;
  auto absolute = [](const fs::path& f) {
    fs::path a = fs::absolute(f).lexically_normal();
    return a.has_filename() ? a : a.parent_path();  // "out/" as "out"
  };
  std::stable_sort(folders.begin(), folders.end(), [&](const fs::path& a, const fs::path& b) {
    const fs::path pa = absolute(a), pb = absolute(b);
    return std::distance(pa.begin(), pa.end()) < std::distance(pb.begin(), pb.end());
  });
  for (const fs::path& folder : folders) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    struct stat st {};
    if (ec || ::stat(folder.c_str(), &st) != 0) {
      diag.error("cannot create folder '" + folder.generic_string() +
                 "': " + (ec ? ec.message() : std::string(std::strerror(errno))));
      return false;
    }
    const fs::path abs = absolute(folder);
    auto outer = std::find_if(outers.begin(), outers.end(), [&](const Outer& o) {
      return o.device == st.st_dev && lies_in(abs, o.absolute);
    });
    if (outer != outers.end()) {
      stage_of[folder] = outer->stage;
      continue;
    }
    std::string tmpl = (folder / (kStagePrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {
      diag.error("cannot create a staging folder in '" + folder.generic_string() +
                 "': " + std::strerror(errno));
      return false;
    }
    stages.push_back(buf.data());
    outers.push_back(Outer{abs, st.st_dev, stages.back()});
    stage_of[folder] = stages.back();
  }
  return true;
}

}  // namespace

bool recover_interrupted(const std::vector<std::string>& folders, diag::Diagnostics& diag) {
  std::vector<fs::path> existing;
  for (const std::string& name : std::set<std::string>(folders.begin(), folders.end())) {
    const fs::path f = name.empty() ? fs::path(".") : fs::path(name);
    std::error_code ec;
    if (fs::is_directory(f, ec)) existing.push_back(f);
  }
  return recover(existing, false, diag);
}

bool write_atomically(const OutputContext& out, const std::string& dir, diag::Diagnostics& diag,
                      const WriteOptions& options) {
  HeldSignals signals;
  const fs::path root = fs::path(dir.empty() ? "." : dir);
  std::vector<fs::path> targets;
  for (const auto& [rel, text] : out.files()) {
    if (options.confine && !confined(rel)) {
      diag.error("internal error: generated path '" + rel + "' would leave the output folder '" +
                 root.generic_string() + "'; nothing was written");
      return false;
    }
    targets.push_back(root / rel);
  }
  if (targets.empty()) return true;

  // 0. Lock the output folder and undo what killed runs left there. (Unconfined paths,
  //    utility mode's, lie in many folders: no lock, staging folders of live processes
  //    are left alone.)
  if (options.confine) {
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec) {
      diag.error("cannot create folder '" + root.generic_string() + "': " + ec.message());
      return false;
    }
  }
  std::optional<FolderLock> lock;
  if (options.confine) lock.emplace(root, diag);
  if (lock && lock->busy()) return false;
  std::vector<fs::path> folders = folders_of(targets, options.confine ? root : fs::path());
  folders.erase(std::remove_if(folders.begin(), folders.end(),
                               [](const fs::path& f) {
                                 std::error_code ec;
                                 return !fs::is_directory(f, ec);
                               }),
                folders.end());
  if (!recover(folders, lock && lock->held(), diag)) return false;

  // 1. Decide: which files change, and may they be replaced?
  std::vector<Change> changes;
  for (const auto& [rel, text] : out.files()) {
    fs::path target = root / rel;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(target, ec);
    if (fs::exists(st)) {
      if (fs::is_symlink(st) || !fs::is_regular_file(st)) {
        diag.error("cannot write '" + target.generic_string() + "': it is " +
                   (fs::is_symlink(st)     ? "a symbolic link"
                    : fs::is_directory(st) ? "a folder"
                                           : "not a regular file") +
                   "; nothing was written");
        return false;
      }
      if (same_content(target, text)) continue;
      if (!options.force && !generated_by_compose(target)) {
        diag.error("'" + target.generic_string() +
                   "' exists and was not generated by compose "
                   "(it lacks the '" +
                   std::string(kGeneratedMark) +
                   "' line); refusing to "
                   "overwrite it: move it away, write elsewhere with -o DIR, or pass --force");
        continue;
      }
    }
    Change c;
    c.entry.target = target;
    c.entry.had_target = fs::exists(st);
    c.entry.new_hash = journal::content_hash(text);
    c.text = &text;
    changes.push_back(c);
  }
  if (diag.has_errors()) return false;
  if (changes.empty()) return true;
  // The files whose guards refuse a half-written folder go first.
  auto rank = [&](const Change& c) {
    for (size_t i = 0; i < options.commit_first.size(); ++i)
      if (c.entry.target == root / options.commit_first[i]) return i;
    return options.commit_first.size();
  };
  std::stable_sort(changes.begin(), changes.end(),
                   [&](const Change& a, const Change& b) { return rank(a) < rank(b); });

  // 2. Stage: the changed files written and fsync'd into fresh staging folders (few: one
  //    serves every folder below its own on the same filesystem, so the output folder's
  //    serves all its subfolders, and its journal is the one the Makefile's guard sees).
  std::map<fs::path, fs::path> stage_of;  // target folder -> its staging folder
  std::vector<fs::path> stages;
  auto cleanup = [&] {
    std::error_code ec;
    for (const fs::path& stage : stages) fs::remove_all(stage, ec);
  };
  auto interrupted = [&](const std::string& what) {
    diag.error("interrupted by " + HeldSignals::name(signals.noted()) + " while writing " +
               (options.confine ? "'" + root.generic_string() + "'" : std::string("its files")) +
               "; " + what);
    return false;
  };
  std::vector<fs::path> changed;
  for (const Change& c : changes) changed.push_back(c.entry.target);
  if (!assign_stages(folders_of(changed, options.confine ? root : fs::path()), stage_of, stages,
                     diag)) {
    cleanup();
    return false;
  }
  std::vector<journal::Entry> entries;
  size_t index = 0;
  for (Change& c : changes) {
    if (signals.noted()) {
      cleanup();
      return interrupted("nothing was written");
    }
    journal::Entry& e = c.entry;
    const fs::path& stage = stage_of.at(folder_of(e.target));
    e.staged = stage / ("new-" + std::to_string(index));
    e.backup = stage / ("old-" + std::to_string(index));
    ++index;
    const std::string why = write_new_file(e.staged, *c.text);
    if (!why.empty()) {
      diag.error("cannot write '" + e.target.generic_string() + "': " + why);
      cleanup();
      return false;
    }
    entries.push_back(e);
  }

  // 3. Journal, in every staging folder: from here a killed run is rolled back by the next.
  for (const fs::path& stage : stages) {
    const std::string why = journal::write(stage, entries);
    if (!why.empty()) {
      diag.error("cannot write the journal in '" + stage.generic_string() + "': " + why +
                 "; nothing was written");
      cleanup();
      return false;
    }
  }
  const fs::path root_stage = options.confine ? stage_of.at(root) : fs::path();
  auto roll_back = [&](size_t done) {
    std::vector<journal::Entry> started(entries.begin(),
                                        entries.begin() + static_cast<std::ptrdiff_t>(done));
    journal::roll_back(started);
    remove_stages(entries, root_stage);
  };

  // 4. Commit: rename each into place, keeping what it replaces.
  const std::chrono::microseconds delay = commit_delay();
  for (size_t i = 0; i < entries.size(); ++i) {
    const journal::Entry& e = entries[i];
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    if (i == options.abandon_commit_at) return false;  // as if killed: the journal stays
    if (i == options.interrupt_commit_at) ::raise(SIGTERM);
    if (signals.noted()) {
      roll_back(i);
      return interrupted("the previous output was restored");
    }
    std::error_code ec;
    if (e.had_target) fs::rename(e.target, e.backup, ec);
    if (!ec && i == options.fail_commit_at) ec = std::make_error_code(std::errc::io_error);
    if (!ec) fs::rename(e.staged, e.target, ec);
    if (ec) {
      diag.error("cannot write '" + e.target.generic_string() + "': " + ec.message() +
                 "; the previous output was restored");
      roll_back(i + 1);
      return false;
    }
  }
  // 5. Done: the renames made durable, the journals removed (the output folder's last: the
  //    commit point), the previous texts with them. A signal noted now ends the process
  //    after this write is complete.
  for (const fs::path& folder : folders_of(targets, fs::path()))
    fsync_path(folder, O_RDONLY | O_DIRECTORY);
  remove_stages(entries, root_stage);
  if (options.confine) fsync_path(root, O_RDONLY | O_DIRECTORY);
  return true;
}

}  // namespace peppher::output
