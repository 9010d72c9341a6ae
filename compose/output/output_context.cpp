// The atomic writer behind OutputContext. Every changed file is first written, fsync'd,
// into a fresh staging folder (mkdtemp) beside its target, opened with O_EXCL|O_NOFOLLOW;
// then each target is renamed into place, the file it replaces kept in the staging folder
// until all renames succeeded, so a failure rolls every replaced file back. Staging
// folders of runs that were killed are removed by the next run.
#include "compose/output/output_context.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace peppher::output {

namespace fs = std::filesystem;

namespace {

constexpr const char* kStagePrefix = ".compose-stage-";
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

// Removes what killed runs left in `dir`: staging folders `.compose-stage-<pid>-XXXXXX` and
// old temp files `*.compose-tmp.<pid>` whose process is gone.
void remove_stale(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    long pid = 0;
    if (name.rfind(kStagePrefix, 0) == 0) {
      pid = std::strtol(name.c_str() + std::strlen(kStagePrefix), nullptr, 10);
    } else if (size_t at = name.find(kOldTempMarker); at != std::string::npos) {
      pid = std::strtol(name.c_str() + at + std::strlen(kOldTempMarker), nullptr, 10);
    } else {
      continue;
    }
    if (pid_alive(pid)) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
  }
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
  fs::path target;
  fs::path staged;  // the new content, in the staging folder
  fs::path backup;  // where the replaced file goes until the commit is done
  const std::string* text = nullptr;
  bool had_target = false;
};

}  // namespace

bool write_atomically(const OutputContext& out, const std::string& dir, diag::Diagnostics& diag,
                      const WriteOptions& options) {
  const fs::path root = fs::path(dir.empty() ? "." : dir);
  std::vector<Change> changes;
  // 1. Decide: which files change, and may they be replaced?
  for (const auto& [rel, text] : out.files()) {
    if (options.confine && !confined(rel)) {
      diag.error("internal error: generated path '" + rel + "' would leave the output folder '" +
                 root.generic_string() + "'; nothing was written");
      return false;
    }
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
    c.target = target;
    c.text = &text;
    c.had_target = fs::exists(st);
    changes.push_back(c);
  }
  if (diag.has_errors()) return false;
  if (changes.empty()) return true;

  // 2. Stage: one fresh folder per target folder, every file written and fsync'd there.
  std::map<fs::path, fs::path> stage_of;  // target folder -> its staging folder
  auto cleanup = [&] {
    std::error_code ec;
    for (const auto& [folder, stage] : stage_of) fs::remove_all(stage, ec);
  };
  size_t index = 0;
  for (Change& c : changes) {
    const fs::path folder = c.target.parent_path().empty() ? fs::path(".") : c.target.parent_path();
    auto it = stage_of.find(folder);
    if (it == stage_of.end()) {
      std::error_code ec;
      fs::create_directories(folder, ec);
      if (ec) {
        diag.error("cannot create folder '" + folder.generic_string() + "': " + ec.message());
        cleanup();
        return false;
      }
      remove_stale(folder);
      std::string tmpl =
          (folder / (kStagePrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
      std::vector<char> buf(tmpl.begin(), tmpl.end());
      buf.push_back('\0');
      if (::mkdtemp(buf.data()) == nullptr) {
        diag.error("cannot create a staging folder in '" + folder.generic_string() +
                   "': " + std::strerror(errno));
        cleanup();
        return false;
      }
      it = stage_of.emplace(folder, fs::path(buf.data())).first;
    }
    c.staged = it->second / ("new-" + std::to_string(index));
    c.backup = it->second / ("old-" + std::to_string(index));
    ++index;
    const std::string why = write_new_file(c.staged, *c.text);
    if (!why.empty()) {
      diag.error("cannot write '" + c.target.generic_string() + "': " + why);
      cleanup();
      return false;
    }
  }

  // 3. Commit: rename each into place, keeping what it replaces; roll back on failure.
  for (size_t i = 0; i < changes.size(); ++i) {
    Change& c = changes[i];
    std::error_code ec;
    if (c.had_target) fs::rename(c.target, c.backup, ec);
    if (!ec && i == options.fail_commit_at) ec = std::make_error_code(std::errc::io_error);
    if (!ec) fs::rename(c.staged, c.target, ec);
    if (ec) {
      diag.error("cannot write '" + c.target.generic_string() + "': " + ec.message() +
                 "; the previous output was restored");
      std::error_code undo;
      if (c.had_target && fs::exists(c.backup, undo)) fs::rename(c.backup, c.target, undo);
      for (size_t j = i; j-- > 0;) {
        const Change& done = changes[j];
        if (done.had_target)
          fs::rename(done.backup, done.target, undo);
        else
          fs::remove(done.target, undo);
      }
      cleanup();
      return false;
    }
  }
  for (const auto& [folder, stage] : stage_of) fsync_path(folder, O_RDONLY | O_DIRECTORY);
  cleanup();
  return true;
}

}  // namespace peppher::output
