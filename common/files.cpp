// Reading and classifying input files, and writing outputs whole (see files.h).
#include "common/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace peppher::files {
namespace {

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

// What `st` (stat of `path`, links followed) says about a non-regular `path`.
std::string described(const std::string& path, const struct stat& st) {
  std::string link;
  struct stat own;
  if (::lstat(path.c_str(), &own) == 0 && S_ISLNK(own.st_mode)) {
    std::error_code ec;
    link = "a link to '" + std::filesystem::read_symlink(path, ec).string() + "'";
  }
  if (S_ISDIR(st.st_mode)) return link.empty() ? "is a folder" : "is a folder (" + link + ")";
  return "is not a regular file (" + (link.empty() ? "" : link + ", ") + kind_of(st.st_mode) + ")";
}

std::string missing_or(int error) {
  if (error == ENOENT || error == ENOTDIR) return kDoesNotExist;
  if (error == ELOOP) return "is a link that does not end (too many levels of links)";
  return std::string("cannot be read (") + std::strerror(error) + ")";
}

std::string too_large(std::uintmax_t size, std::uintmax_t max_bytes) {
  return "has " + std::to_string(size) + " bytes, more than the " +
         std::to_string(max_bytes >> 20) + " MiB compose reads from one file";
}

// Why `path` cannot be replaced by a written file ("" when it names a regular file or
// nothing); `mode` gets the permissions of the regular file it names.
std::string not_replaceable(const std::string& path, mode_t& mode) {
  struct stat own;
  if (::lstat(path.c_str(), &own) != 0) {
    if (errno == ENOENT) return "";
    return std::string("cannot be written (") + std::strerror(errno) + ")";
  }
  mode = own.st_mode & 07777;
  if (S_ISREG(own.st_mode)) return "";
  if (S_ISLNK(own.st_mode)) {
    std::error_code ec;
    return "is a link to '" + std::filesystem::read_symlink(path, ec).string() +
           "' (outputs are not written through links)";
  }
  if (S_ISDIR(own.st_mode)) return "is a folder";
  return "is not a regular file (" + kind_of(own.st_mode) + ")";
}

// Opens a new file next to `path` that no one else has (O_EXCL, never through a link);
// `tmp` gets its name. Returns the descriptor, or -1 with errno set.
int open_fresh_temporary(const std::string& path, std::string& tmp) {
  static thread_local std::mt19937_64 random{std::random_device{}() ^
                                             static_cast<std::uint64_t>(::getpid())};
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".tmp-%ld-%016llx", static_cast<long>(::getpid()),
                  static_cast<unsigned long long>(random()));
    tmp = path + suffix;
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

}  // namespace

std::string write_file(const std::string& path, const std::string& text) {
  mode_t mode = 0;
  if (std::string problem = not_replaceable(path, mode); !problem.empty()) return problem;
  std::string tmp;
  const int fd = open_fresh_temporary(path, tmp);
  if (fd < 0) return std::string("cannot be written (") + std::strerror(errno) + ")";
  int error = 0;
  if (mode != 0 && ::fchmod(fd, mode) != 0) error = errno;  // keeps the file's permissions
  for (std::size_t done = 0; error == 0 && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = errno;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return replace_with(tmp, path);
  ::unlink(tmp.c_str());
  return std::string("cannot be written (") + std::strerror(error) + ")";
}

std::string create_temporary(const std::string& path, std::string& tmp) {
  const int fd = open_fresh_temporary(path, tmp);
  if (fd < 0) return std::string("cannot be written (") + std::strerror(errno) + ")";
  ::close(fd);
  return "";
}

std::string replace_with(const std::string& tmp, const std::string& path) {
  // Looked at just before: what appeared at the path meanwhile is not replaced either.
  mode_t mode = 0;
  std::string problem = not_replaceable(path, mode);
  if (problem.empty() && ::rename(tmp.c_str(), path.c_str()) != 0)
    problem = std::string("cannot be written (") + std::strerror(errno) + ")";
  if (!problem.empty()) ::unlink(tmp.c_str());
  return problem;
}

std::string not_a_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return missing_or(errno);
  return S_ISREG(st.st_mode) ? "" : described(path, st);
}

std::string read_file(const std::string& path, std::uintmax_t max_bytes, std::string& text) {
  text.clear();
  // Look first: a device is not even opened (opening some has effects of its own).
  if (std::string problem = not_a_file(path); !problem.empty()) return problem;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return missing_or(errno);
  struct stat st;
  std::string problem;
  if (::fstat(fd, &st) != 0) {
    problem = missing_or(errno);
  } else if (!S_ISREG(st.st_mode)) {  // replaced since the look
    problem = described(path, st);
  } else if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    problem = too_large(static_cast<std::uintmax_t>(st.st_size), max_bytes);
  }
  char buffer[1 << 16];
  while (problem.empty()) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) problem = missing_or(errno);
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > max_bytes) problem = too_large(text.size(), max_bytes);  // it grew
  }
  ::close(fd);
  if (!problem.empty()) text.clear();
  return problem;
}

}  // namespace peppher::files
