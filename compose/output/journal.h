// The commit journal of write_atomically: before its first rename, a write records in each
// of its staging folders which files it replaces and where their new and previous texts
// are. A journal left behind means the write was killed midway: the generated Makefile
// and peppher.cmake refuse to build while one is there, and the next write into the
// folder rolls it back (every file its previous text) before it writes anything.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace peppher::output::journal {

// `.compose-stage-<pid>-XXXXXX`: a staging folder (new texts `new-<k>`, replaced files
// `old-<k>`, and, from the commit on, the journal).
inline constexpr const char* kStagePrefix = ".compose-stage-";
// The journal's name inside a staging folder; the Makefile's guard and peppher.cmake's
// look for `.compose-stage-*/journal` beside them.
inline constexpr const char* kFileName = "journal";

// One replaced or created file.
struct Entry {
  std::filesystem::path target;  // the file the write replaces or creates
  std::filesystem::path staged;  // its new text, renamed onto target by the commit
  std::filesystem::path backup;  // where target's previous text waits until the commit ends
  bool had_target = false;       // false: the write creates target
  std::uint64_t new_hash = 0;    // content_hash of the new text
};

// FNV-1a, 64 bits: tells whether a target still holds the text the write put there.
std::uint64_t content_hash(const std::string& text);

// Writes the journal of `entries` as `<stage>/journal`, its paths relative to the folder
// holding `stage`, complete or not at all (a temporary file, fsync'd, renamed). Returns ""
// or why it could not.
std::string write(const std::filesystem::path& stage, const std::vector<Entry>& entries);

// Reads `<stage>/journal`, the paths joined to the folder holding `stage`; nullopt when
// there is none or it is not a complete journal (a killed write never got to its renames).
std::optional<std::vector<Entry>> read(const std::filesystem::path& stage);

// Undoes `entries`, last first: a target with a backup gets its previous text back, a
// target the write created is removed; each step is done at most once however often this
// runs (a killed roll-back is finished by the next). A target whose text is no longer the
// write's (changed since) is left as it is, named in `kept`. Returns the steps that failed
// (empty: every file is its previous text).
std::vector<std::string> roll_back(const std::vector<Entry>& entries,
                                   std::vector<std::string>* kept = nullptr);

// The staging folders `entries` use (the folders of their staged texts), each once.
std::vector<std::filesystem::path> stages_of(const std::vector<Entry>& entries);

}  // namespace peppher::output::journal
