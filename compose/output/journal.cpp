// The commit journal: a line per file (whether it existed, the hash of its new text, the
// target, staged and backup paths), between a header and a trailer that counts the lines,
// so a journal cut short is no journal. Paths are relative to the folder holding the
// staging folder: a moved output folder still finds its files.
#include "compose/output/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace peppher::output::journal {

namespace fs = std::filesystem;

namespace {

constexpr const char* kHeader = "compose journal 1";
constexpr const char* kTrailer = "end ";

// `%`, tab, CR and LF as %XX: a path is any bytes but NUL, a journal line has three.
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%' || c == '\t' || c == '\n' || c == '\r') {
      static const char* kHex = "0123456789ABCDEF";
      out += '%';
      out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      out += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const std::string hex = s.substr(i + 1, 2);
    if (hex.find_first_not_of("0123456789ABCDEF") != std::string::npos) return std::nullopt;
    out += static_cast<char>(std::stoi(hex, nullptr, 16));
    i += 2;
  }
  return out;
}

// `p` relative to `base`, through the folders as they really are (symbolic links
// resolved), so the kernel finds the same file from `base` however the paths were spelled.
fs::path relative_to(const fs::path& p, const fs::path& base) {
  const fs::path folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  return fs::weakly_canonical(folder).lexically_relative(fs::weakly_canonical(base)) / p.filename();
}

bool exists_no_follow(const fs::path& p) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(p, ec));
}

// Whether `p` is a regular file holding text of hash `hash`.
bool holds(const fs::path& p, std::uint64_t hash) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(p, ec))) return false;
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  return content_hash(ss.str()) == hash;
}

}  // namespace

std::uint64_t content_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string write(const fs::path& stage, const std::vector<Entry>& entries) {
  const fs::path base = stage.parent_path().empty() ? fs::path(".") : stage.parent_path();
  std::string text = std::string(kHeader) + "\n";
  for (const Entry& e : entries) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(e.new_hash));
    text += std::string(e.had_target ? "1 " : "0 ") + hash + " " +
            escape(relative_to(e.target, base).string()) + "\t" +
            escape(relative_to(e.staged, base).string()) + "\t" +
            escape(relative_to(e.backup, base).string()) + "\n";
  }
  text += kTrailer + std::to_string(entries.size()) + "\n";
  const fs::path temp = stage / (std::string(kFileName) + ".tmp");
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return std::strerror(errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string why = std::strerror(errno);
      ::close(fd);
      return why;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) return std::strerror(errno);
  std::error_code ec;
  fs::rename(temp, stage / kFileName, ec);
  if (ec) return ec.message();
  if (int dir = ::open(stage.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return "";
}

std::optional<std::vector<Entry>> read(const fs::path& stage) {
  const fs::path base = stage.parent_path().empty() ? fs::path(".") : stage.parent_path();
  std::ifstream in(stage / kFileName, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line) || line != kHeader) return std::nullopt;
  std::vector<Entry> entries;
  while (std::getline(in, line)) {
    if (line.rfind(kTrailer, 0) == 0) {
      if (line != kTrailer + std::to_string(entries.size())) return std::nullopt;
      return entries;
    }
    // "<0|1> <16 hex digits> <target>\t<staged>\t<backup>"
    if (line.size() < 20 || (line[0] != '0' && line[0] != '1') || line[1] != ' ' || line[18] != ' ')
      return std::nullopt;
    const std::string hash = line.substr(2, 16);
    if (hash.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
    std::vector<std::string> paths;
    std::istringstream fields(line.substr(19));
    for (std::string field; std::getline(fields, field, '\t');) {
      std::optional<std::string> path = unescape(field);
      if (!path || path->empty()) return std::nullopt;
      paths.push_back(*path);
    }
    if (paths.size() != 3) return std::nullopt;
    Entry e;
    e.had_target = line[0] == '1';
    e.new_hash = std::stoull(hash, nullptr, 16);
    e.target = base / paths[0];
    e.staged = base / paths[1];
    e.backup = base / paths[2];
    entries.push_back(e);
  }
  return std::nullopt;  // no trailer: cut short
}

std::vector<std::string> roll_back(const std::vector<Entry>& entries,
                                   std::vector<std::string>* kept) {
  std::vector<std::string> failed;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    const Entry& e = *it;
    std::error_code ec;
    const bool has_target = exists_no_follow(e.target);
    if (exists_no_follow(e.backup)) {
      // The previous text waits in the backup: the target is missing or the write's.
      if (has_target && !holds(e.target, e.new_hash)) {
        if (kept) kept->push_back(e.target.generic_string());
        continue;
      }
      fs::rename(e.backup, e.target, ec);
    } else if (!e.had_target && has_target && !exists_no_follow(e.staged)) {
      // Created by the write (its staged text was renamed onto it): remove it, unless it
      // changed since.
      if (!holds(e.target, e.new_hash)) {
        if (kept) kept->push_back(e.target.generic_string());
        continue;
      }
      fs::remove(e.target, ec);
    }
    // Otherwise the write never got to this file, or an earlier roll-back undid it.
    if (ec) failed.push_back("'" + e.target.generic_string() + "': " + ec.message());
  }
  return failed;
}

std::vector<fs::path> stages_of(const std::vector<Entry>& entries) {
  std::vector<fs::path> stages;
  for (const Entry& e : entries) {
    const fs::path stage = e.staged.parent_path();
    if (std::find(stages.begin(), stages.end(), stage) == stages.end()) stages.push_back(stage);
  }
  return stages;
}

}  // namespace peppher::output::journal
