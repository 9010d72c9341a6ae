// Path helpers for exploration: descriptor-relative resolution, lexically normalised and
// printed with '/' so diagnostics and the IR are the same on every run.
#pragma once

#include <string>

namespace peppher::explore {

// `rel` resolved against the folder holding `including_file`.
std::string resolve_relative(const std::string& including_file, const std::string& rel);
std::string normalize(const std::string& path);
std::string parent_dir(const std::string& file);  // "" for a bare file name

// `flags` (compile or link flags, words split at blanks) for a compiler run in `out_dir`
// where the original tool ran it in `main_dir` (its Makefile sat beside main.xml): every
// relative path of -I, -isystem, -iquote, -idirafter, -L, -include, -imacros (attached or
// as the next word) and every other word naming an existing file (a library archive) is
// taken from `main_dir`, or from `own_dir` (the descriptor's folder) when only there it
// exists, and rewritten relative to `out_dir`. Paths that need no change stay as written,
// and so do paths that start with a variable (`-L$(PREFIX)/lib`).
std::string rebase_flags(const std::string& flags, const std::string& main_dir,
                         const std::string& own_dir, const std::string& out_dir);

}  // namespace peppher::explore
