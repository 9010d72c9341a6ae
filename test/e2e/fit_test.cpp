// End to end, blocks that fit (issue 43, docs/PARTITIONING.md): calls whose operands (4 MB
// each) exceed pocl's device memory limited by STARPU_LIMIT_OPENCL_MEM=1 (1 MiB). Fixed and
// `?` splits get more, smaller blocks that fit and give the bits of an unlimited run; the
// unpartitioned call runs on the CPU worker, and forced onto the device it fails, naming
// the bytes it needs and the device's limit.
#include <regex>
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::kCpuAndOpenCl;
using e2e::kOpenClOnly;
using e2e::report_count;

namespace {

const char* const kLimit = " STARPU_LIMIT_OPENCL_MEM=1";

const fs::path& fit_program() {
  static const fs::path kExe = e2e::compose_and_build("fit", e2e::cases() / "fit/main.xml") / "fit";
  return kExe;
}

std::string checksum_of(const std::string& output) {
  std::smatch m;
  return std::regex_search(output, m, std::regex("fit: checksum ([0-9a-f]+)")) ? m[1].str() : "";
}

long tasks_of(const std::string& output, const std::string& iface) {
  return report_count(output, iface + "_cpu", "CPU") +
         report_count(output, iface + "_opencl", "OpenCL");
}

}  // namespace

TEST_CASE("e2e fit: blocks that fit a 1 MiB device give the unlimited run's bits") {
  const e2e::Run whole = e2e::run_program(fit_program(), "all", kCpuAndOpenCl);
  INFO(whole.output);
  REQUIRE(whole.exit_code == 0);
  const e2e::Run fit = e2e::run_program(fit_program(), "all", std::string(kCpuAndOpenCl) + kLimit);
  INFO(fit.output);
  REQUIRE(fit.exit_code == 0);
  CHECK_THAT(fit.output, !Catch::Contains("WRONG"));
  CHECK(!checksum_of(fit.output).empty());
  CHECK(checksum_of(fit.output) == checksum_of(whole.output));

  // Fixed blocks of 500000 floats (4 MB of x and y a block) become 16 blocks of 62500: a
  // task may hold half the device's 1 MiB (the next task's data is fetched meanwhile), 8
  // bytes a row: at most 65536 rows. 3 calls, 16 tasks each.
  CHECK(tasks_of(whole.output, "pmap_vec") == 3 * 2);
  CHECK(tasks_of(fit.output, "pmap_vec") == 3 * 16);
  // The same blocks in every call: none gathered between them.
  CHECK_THAT(fit.output, Catch::Contains("fit: fixed blocks: 0 gathers between the calls"));
  // `?` without a model: one block per worker, then 16 that fit.
  CHECK(tasks_of(whole.output, "fit_affine") == 2);
  CHECK(tasks_of(fit.output, "fit_affine") == 16);
  // `?` with a model: the device's share (if the model gives it one) in blocks that fit;
  // counted on the device alone below.
  // The unpartitioned call (4 MB, read and written) cannot fit the device: the CPU runs it.
  CHECK(report_count(fit.output, "scale_vec_opencl", "OpenCL") == 0);
  CHECK(report_count(fit.output, "scale_vec_cpu", "CPU") == 1);
}

TEST_CASE("e2e fit: a 1 MiB device alone runs every partitioned call in blocks that fit") {
  const e2e::Run r = e2e::run_program(fit_program(), "device", std::string(kOpenClOnly) + kLimit);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, !Catch::Contains("WRONG"));
  CHECK_THAT(r.output, Catch::Contains("fit: ? blocks sized from a model: ok"));
  CHECK(report_count(r.output, "pmap_vec_opencl", "OpenCL") == 3 * 16);
  CHECK(report_count(r.output, "fit_affine_opencl", "OpenCL") == 16);
  // One worker: the model gives it everything, in pieces of at most 65536 floats.
  CHECK(report_count(r.output, "fit_learned_opencl", "OpenCL") == 12 * 16);
}

// Raw pointers split into blocks (partition plans, kept across calls like a container's):
// the unlimited run's bits, the host's writes seen between calls, each call partitioning
// and gathering each array once.
TEST_CASE("e2e fit: raw blocks under a 1 MiB device give the unlimited run's bits") {
  const e2e::Run whole = e2e::run_program(fit_program(), "raw", kCpuAndOpenCl);
  INFO(whole.output);
  REQUIRE(whole.exit_code == 0);
  const e2e::Run fit = e2e::run_program(fit_program(), "raw", std::string(kCpuAndOpenCl) + kLimit);
  INFO(fit.output);
  REQUIRE(fit.exit_code == 0);
  CHECK_THAT(fit.output, Catch::Contains("fit: raw blocks: ok"));
  CHECK(!checksum_of(fit.output).empty());
  CHECK(checksum_of(fit.output) == checksum_of(whole.output));
  // One block of each whole array (and coef, 8 bytes, read whole by each) into 16, 3 calls.
  CHECK(tasks_of(whole.output, "pmap_raw") == 3 * 1);
  CHECK(tasks_of(fit.output, "pmap_raw") == 3 * 16);
  // x and y split and gathered by each of the 3 calls (a call returns with its arrays
  // whole, at home).
  CHECK_THAT(fit.output, Catch::Contains("fit: raw blocks: 6 partitions, 6 gathers between"));
  CHECK_THAT(whole.output, Catch::Contains("fit: raw blocks: 6 partitions, 6 gathers between"));
}

// Issue 43: raw blocks split with StarPU's synchronous starpu_data_partition stalled about
// one run in two under the schedulers of per-worker queues (dm, dmda) with the device's
// memory limited: of 40 runs of one call, 17 stalled under dm and 22 under dmda in blocks
// made to fit, 15 and 20 in blocks that fit from the start. Three runs of each, every one
// bounded in time (a run takes about a second): a stall is exit code 124.
TEST_CASE("e2e fit: raw blocks never stall under dm and dmda with a 1 MiB device") {
  const std::string exe = fit_program().string();
  for (const char* sched : {"dm", "dmda"}) {
    for (const char* mode : {"raw", "raw-small"}) {
      for (int run = 0; run < 3; ++run) {
        const e2e::Run r = e2e::run(
            "timeout 20 " + exe + " " + mode,
            std::string("PEPPHER_REPORT=1 ") + kCpuAndOpenCl + kLimit + " STARPU_SCHED=" + sched);
        INFO(sched << " " << mode << " run " << run << "\n" << r.output);
        REQUIRE(r.exit_code != 124);  // stalled: killed by timeout
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.output, Catch::Contains("fit: raw blocks: ok"));
      }
    }
  }
}

TEST_CASE("e2e fit: an unpartitioned call forced onto a device it does not fit fails clearly") {
  const e2e::Run r = e2e::run_program(fit_program(), "forced", std::string(kCpuAndOpenCl) + kLimit);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("fit: error: peppher: scale_vec: a task of this call needs "
                                       "4000000 bytes of device memory at once"));
  CHECK_THAT(r.output, Catch::Contains("memory node 1: 1048576 bytes, 524288 for one task"));
  CHECK_THAT(r.output, !Catch::Contains("fit: unpartitioned call"));
  CHECK(report_count(r.output, "scale_vec_opencl", "OpenCL") == 0);
  // Without the limit the forced call runs on the device.
  const e2e::Run whole = e2e::run_program(fit_program(), "forced", kCpuAndOpenCl);
  INFO(whole.output);
  CHECK_THAT(whole.output, Catch::Contains("fit: unpartitioned call: ok"));
  CHECK(report_count(whole.output, "scale_vec_opencl", "OpenCL") == 1);
}
