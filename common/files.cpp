// Reading and classifying input files (see files.h).
#include "common/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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

}  // namespace

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
