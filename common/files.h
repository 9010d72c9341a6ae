// The files compose is given, whatever a path names: descriptors and the performance table
// (also peppher-report's) are read here, and every other input (sources, kernels, headers:
// Clang reads those) is classified here first. A FIFO, a device, a folder or a link to one is
// reported as what it is, never opened to block or read without end. Outputs (the runtime's
// trace, training table and bus measurements) are written whole here, never through a link.
#pragma once

#include <cstdint>
#include <string>

namespace peppher::files {

/// The most bytes compose reads from one descriptor or performance table: 16 MiB, thousands
/// of times the largest descriptor written by hand or by -generateCompFiles (a few KB),
/// and read in well under a second (docs/FORMAT.md).
inline constexpr std::uintmax_t kMaxDescriptorBytes = std::uintmax_t{16} << 20;

/// not_a_file's words for a path that names nothing.
inline constexpr const char* kDoesNotExist = "does not exist";

/// What `path` is when it is not a regular file, said after its name: "does not exist",
/// "is a folder", "is not a regular file (a FIFO)", "is not a regular file (a link to
/// '/dev/zero', a character device)"; "" for a regular file (or a link to one). Only looks
/// at the path (stat), so it never blocks.
std::string not_a_file(const std::string& path);

/// Reads the regular file `path` whole into `text`, at most `max_bytes` of it. Returns ""
/// or why not, said after the file's name: not_a_file's words, "cannot be read (...)", or
/// "has N bytes, more than the 16 MiB compose reads from one file". Opens without blocking
/// (O_NONBLOCK) and checks what it opened, so a path replaced meanwhile is no different.
std::string read_file(const std::string& path, std::uintmax_t max_bytes, std::string& text);

/// Writes `text` to `path` whole or not at all: into a fresh temporary in path's folder
/// (created with O_EXCL under a unique name, so nothing planted there is followed), then
/// renamed onto `path`, only where `path` names a regular file or nothing. Returns "" or
/// why not, said after the path's name: "is a folder", "is not a regular file (a link to
/// '/dev/null', a character device)", "cannot be written (No space left on device)". A
/// failed write leaves no temporary behind and `path` as it was.
std::string write_file(const std::string& path, const std::string& text);

/// For a program that writes an output by name itself (gnuplot's `set output`): creates an
/// empty file in path's folder under a fresh name no one else holds (O_EXCL, never through a
/// link); `tmp` gets its name. Returns "" or why not, said after the path's name.
std::string create_temporary(const std::string& path, std::string& tmp);

/// Renames `tmp` onto `path`, only where `path` names a regular file or nothing (as
/// write_file does); otherwise removes `tmp`. Returns "" or why not, said after the path's
/// name: "is a link to 'x' (outputs are not written through links)", "is not a regular file
/// (a FIFO)".
std::string replace_with(const std::string& tmp, const std::string& path);

}  // namespace peppher::files
