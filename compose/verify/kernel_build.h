// Variant verification, OpenCL builds: each OpenCL variant's kernel file is compiled for the
// machine's OpenCL platforms as the runtime will build it (the same source, the same options),
// by the helper peppher-opencl-check in a child process (the OpenCL implementation never
// loads into compose; a compiler that hangs is killed after a timeout). The build log's
// errors are reported at their kernel file line.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/facts/source_parser.h"
#include "compose/ir/ir.h"

namespace peppher::verify {

// One kernel file to build: `path` as the descriptor names it, `options` the runtime's build
// options (with "-I <the file's folder>" first, as StarPU adds it), for `variant`, whose
// sourceFile element is at `loc`; `clang` reads it with Clang instead (no OpenCL platform).
struct KernelBuildRequest {
  std::string path;
  std::string options;
  std::string variant;
  ir::SourceLoc loc;
  facts::ParseRequest clang;
};

// One diagnostic of a build log: "error: /tmp/x.cl:3:10: msg" (pocl) or "x.cl:3:10: error:
// msg" (Clang's own format, most platforms).
struct LoggedDiagnostic {
  std::string file;
  int line = 0;
  int col = 0;
  std::string severity;  // "error", "fatal error", "warning", "note"
  std::string message;
};

/// The located diagnostics of a build log, in order (lines without a location are left out).
std::vector<LoggedDiagnostic> parse_build_log(const std::string& log);

/// Where a build log's `logged` file is, for a build of `kernel_path`: the kernel file itself
/// when the platform compiled a copy (a temporary file, or a name that is no file), else the
/// header it names.
std::string logged_file(const std::string& logged, const std::string& kernel_path);

/// The build check of one compose: kernel files are sent to the helper as verification finds
/// them (the helper starts with the first, so that the OpenCL platform loads while Clang
/// parses the other variants), and finish() reports the results.
class KernelBuilder {
 public:
  /// `checker`: the helper ("": Clang's front end only); a build is killed after `timeout_s`.
  KernelBuilder(std::string checker, int timeout_s);
  ~KernelBuilder();  // kills a helper still running
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;

  /// Queues `request` (once per file and options).
  void add(const KernelBuildRequest& request);
  size_t size() const { return requests_.size(); }

  /// Waits for the helper and reports each failed build's errors at their kernel file line,
  /// with a note at the sourceFile naming the variant and the device. Where the helper finds
  /// no OpenCL platform (or there is none), the files are compiled by Clang's OpenCL C front
  /// end with `parser` instead (bodies included); a note (with -v) when neither can run.
  void finish(int verbosity, facts::SourceParser& parser, diag::Diagnostics& diags);

 private:
  enum class Outcome { Checked, NoPlatform, Failed };
  Outcome wait_for_helper(diag::Diagnostics& diags);
  void start_helper();
  void send(const KernelBuildRequest& request);

  std::string checker_;
  int timeout_s_;
  std::vector<KernelBuildRequest> requests_;
  std::vector<std::pair<std::string, std::string>> keys_;  // (absolute file, options)
  int pid_ = -1;
  int to_helper_ = -1;    // its stdin
  int from_helper_ = -1;  // its stdout
  std::string start_problem_;
};

}  // namespace peppher::verify
