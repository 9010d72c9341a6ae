// End to end, partitioned calls (issue 7): compose -> build (-Werror) -> run on StarPU with
// a CPU worker and pocl's OpenCL device. Correctness of 1-D, uneven, 2-D, row and raw-pointer
// splits; the tasks of one call on both worker kinds; the '?' split sized from the model.
// Two interfaces' `?` calls on the same matrices agreeing on one split (issue 21).
// Reductions into a Vector and a Matrix on every variant kind (issue 43).
#include <sstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using e2e::kCpuOnly;
using e2e::kOpenClOnly;
using e2e::kTwoCpus;
using e2e::run_program;

namespace {

// The partition case, composed and built once for the test cases that run it.
const fs::path& partition_program() {
  static const fs::path kExe =
      compose_and_build("partition", cases() / "partition/main.xml") / "partition";
  return kExe;
}

}  // namespace

TEST_CASE("e2e partition: every split is correct on every worker set") {
  for (const char* workers : {kCpuOnly, kOpenClOnly, kTwoCpus}) {
    e2e::Run r = run_program(partition_program(), "1", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("partition: 0 wrong"));
  }
}

TEST_CASE("e2e partition: the blocks of one call run on both worker kinds") {
  e2e::Run r =
      run_program(partition_program(), "6", std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("partition: 0 wrong"));
  CHECK(e2e::report_count(r.output, "pmap_vec_cpu", "CPU") > 0);
  CHECK(e2e::report_count(r.output, "pmap_vec_opencl", "OpenCL") > 0);
  CHECK(e2e::report_count(r.output, "pmap_raw_cpu", "CPU") +
            e2e::report_count(r.output, "pmap_raw_opencl", "OpenCL") ==
        8);  // 777 by 100
  CHECK(e2e::report_count(r.output, "prow_raw_cpu", "CPU") +
            e2e::report_count(r.output, "prow_raw_opencl", "OpenCL") ==
        8);  // 37 rows by 5
  CHECK(e2e::report_count(r.output, "pmat_scale_cpu", "CPU") +
            e2e::report_count(r.output, "pmat_scale_opencl", "OpenCL") ==
        2 * 16);
}

TEST_CASE("e2e partition: sgemm in 2-D tiles (row blocks x column blocks) on CPU and pocl") {
  // apps/sgemm_tiles: 96 x 73 times 73 x 99 in tiles of 25 (4 x 4 tasks), then E = C * F
  // (4 x 2), 2 rounds: 48 tasks. B's column blocks start 25 floats apart (unaligned for an
  // OpenCL sub-buffer), so OpenCL tasks get them through the runtime's unaligned path.
  const fs::path exe =
      compose_and_build("sgemm_tiles", e2e::source_dir() / "apps/sgemm_tiles/main.xml") /
      "sgemm_tiles";
  {
    e2e::Run r = run_program(exe, "96 2", kOpenClOnly);
    INFO("OpenCL only: every tile on pocl\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("4 calls, rank 0 of 1: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_tiles_opencl", "OpenCL") == 48);
  }
  {
    e2e::Run r = run_program(exe, "96 2", std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager");
    INFO("CPU worker and pocl: the tiles of a call on both kinds\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("4 calls, rank 0 of 1: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_tiles_cpu", "CPU") +
              e2e::report_count(r.output, "sgemm_tiles_openmp", "CPU") +
              e2e::report_count(r.output, "sgemm_tiles_opencl", "OpenCL") ==
          48);
  }
}

TEST_CASE("e2e partition: '?' splits per worker, sized from the performance model") {
  fs::path out = compose_and_build("partition_auto", cases() / "partition_auto/main.xml");
  // Few samples make a history entry usable, so a short run calibrates.
  e2e::Run r = run_program(
      out / "partition_auto", "200000 20 20",
      std::string(kCpuAndOpenCl) +
          " STARPU_SCHED=dmda STARPU_CALIBRATE_MINIMUM=3 STARPU_HISTORY_MAX_ERROR=1000");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("partition_auto: 0 wrong"));
  CHECK(e2e::report_count(r.output, "pauto_cpu", "CPU") > 0);
  CHECK(e2e::report_count(r.output, "pauto_opencl", "OpenCL") > 0);
  // "split: <size>@CPU <size>@OpenCL" (in worker order): two blocks summing to n, the
  // OpenCL block (iters rounds per element, the CPU 4x that) the larger.
  std::istringstream in(r.output.substr(r.output.find("split:") + 6));
  long cpu = 0, opencl = 0;
  for (std::string word; in >> word && word.find('@') != std::string::npos;) {
    long size = std::stol(word.substr(0, word.find('@')));
    (word.find("OpenCL") != std::string::npos ? opencl : cpu) += size;
  }
  CHECK(cpu + opencl == 200000);
  CHECK(cpu > 0);
  CHECK(opencl > cpu);
}

// The split is sized from the models and the bus model (issue 29): the CSR arrays are raw
// pointers shared whole by the blocks, so a block on pocl's device first receives all of
// them where they are not there yet (about 1 ms by the bus model, against 0.2 ms for either
// worker's whole product here). Depending on where StarPU holds them, one worker alone or
// both get rows; before, the split counted the kernels only and always gave pocl half.
TEST_CASE("e2e partition: SpMV hybrid mode sizes its CSR rows split from the models") {
  fs::path out = compose_and_build("spmv_hybrid", e2e::source_dir() / "apps/spmv/main.xml");
  e2e::Run r = run_program(
      out / "spmv", "20000 16 16 hybrid",
      std::string(kCpuAndOpenCl) +
          " STARPU_SCHED=dmda STARPU_CALIBRATE_MINIMUM=3 STARPU_HISTORY_MAX_ERROR=1000");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("all results correct"));
  CHECK(e2e::report_count(r.output, "spmv_rows_cpu", "CPU") +
            e2e::report_count(r.output, "spmv_rows_opencl", "OpenCL") >=
        16);
  // "hybrid split: <n> rows@<worker> ...": model-sized (not the equal blocks), all rows.
  REQUIRE(r.output.find("hybrid split:") != std::string::npos);
  std::istringstream in(r.output.substr(r.output.find("hybrid split:") + 13));
  long rows = 0, n = 0;
  for (std::string at; in >> n >> at && at.rfind("rows@", 0) == 0;) rows += n;
  CHECK(rows == 20000);
}

// Issue 21: an SRAD-like pair of interfaces (sgrad: C = f(J), supdate: J = g(C)) over the
// same two matrices, both '?'; sgrad is faster on OpenCL, supdate on the CPU, so each alone
// would size its split differently. They must agree on one split, sized from both models,
// and gather nothing between the calls once it is chosen.
TEST_CASE("e2e partition: '?' calls of two interfaces on the same matrices agree on one split") {
  fs::path out = compose_and_build("split_agree", cases() / "split_agree/main.xml");
  // StarPU keeps the history models between runs (STARPU_HOME of the build tree): a run
  // calibrates until both interfaces' splits are model-sized (at most 60 iterations), and
  // a later run starts from the saved models, as a user's second run would.
  e2e::Run r;
  for (int run = 0; run < 3; ++run) {
    r = run_program(out / "split_agree", "1024 64 60 10",
                    std::string(kCpuAndOpenCl) +
                        " STARPU_SCHED=dmda STARPU_CALIBRATE_MINIMUM=3 "
                        "STARPU_HISTORY_MAX_ERROR=1000");
    if (r.output.find("calibrated after 60 iterations") == std::string::npos) break;
  }
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("split_agree: 0 wrong"));
  CHECK_THAT(r.output, Catch::Contains("steady iterations: 10 gathers: 0 partitions: 0"));
  // "split <iface>: <rows>@CPU <rows>@OpenCL": the same, model-sized, both workers used.
  auto split_of = [&](const std::string& iface) {
    const std::string key = "split " + iface + ":";
    const std::size_t at = r.output.find(key);
    REQUIRE(at != std::string::npos);
    return r.output.substr(at + key.size(), r.output.find('\n', at) - at - key.size());
  };
  const std::string sgrad = split_of("sgrad"), supdate = split_of("supdate");
  CHECK(sgrad == supdate);
  CHECK_THAT(sgrad, Catch::Contains("@CPU") && Catch::Contains("@OpenCL"));
  CHECK(e2e::report_count(r.output, "sgrad_cpu", "CPU") > 0);
  CHECK(e2e::report_count(r.output, "supdate_opencl", "OpenCL") > 0);
}

// Issue 29: static dispatch (and a forced variant) tested a variant's constraints on the
// whole call, so the blocks of 450 elements of a 900-element call ran pclip_large, whose
// constraint is n >= 500 (6 runs of it, 1 of pclip_small, before the fix). Each block's
// task gets its own n; the variant must accept every block.
TEST_CASE("e2e partition: static dispatch tests each block against the constraints") {
  const fs::path out = compose_and_build("static_partition", cases() / "static_partition/main.xml",
                                         "-staticDispatch");
  // 20: one block of 20; 900: two of 450 (pclip_small); 2000: four of 500 (pclip_large).
  e2e::Run r = run_program(out / "static_partition", "20 900 2000", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("static_partition: 0 wrong"));
  CHECK(e2e::report_count(r.output, "pclip_small", "CPU") == 3);
  CHECK(e2e::report_count(r.output, "pclip_large", "CPU") == 4);
  CHECK(e2e::report_count(r.output, "pclip_any", "CPU") == 0);
  // Forced: pclip_large refuses the 900-element call's blocks, with the values it tested.
  e2e::Run forced = run_program(out / "static_partition", "900",
                                std::string(kCpuOnly) + " PEPPHER_VARIANT=pclip=pclip_large");
  INFO(forced.output);
  // An error the program does not catch ends it with its message and status 1, not an abort.
  CHECK(forced.exit_code == 1);
  CHECK_THAT(forced.output, Catch::Contains("peppher: pclip: the forced variant 'pclip_large' "
                                            "(CPU) cannot run this call: its constraints reject "
                                            "it"));
  CHECK_THAT(forced.output, !Catch::Contains("terminate called"));
  // A name the program does not have, at PEPPHER_INITIALIZE(): every variant is listed.
  e2e::Run unknown = run_program(out / "static_partition", "900",
                                 std::string(kCpuOnly) + " PEPPHER_VARIANT=pclip_larg");
  INFO(unknown.output);
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.output,
             Catch::Contains("peppher: PEPPHER_VARIANT: 'pclip_larg' names no composed variant"));
  CHECK_THAT(unknown.output, Catch::Contains("pclip: pclip_any, pclip_large, pclip_small"));
  CHECK_THAT(unknown.output, !Catch::Contains("terminate called"));
}

// Issue 43: reductions into arrays. phist's counts (Vector<int>, sum), sums (Matrix<double>,
// sum) and maxima (Vector<float>, max) from 11 blocks of x (more private copies than one fold
// task takes) per call, 2 calls: each variant forced on its workers, then the scheduler's
// mix of CPU and pocl. Every run matches the host's block-order fold bit for bit, so the
// sums' bits are the same whatever ran where and on how many workers.
TEST_CASE("e2e partition: reductions into a Vector and a Matrix on CPU, OpenMP and pocl") {
  const fs::path exe =
      compose_and_build("reduce_array", cases() / "reduce_array/main.xml") / "reduce_array";
  const struct {
    std::string env;
    const char* variant;  // forced, and the worker kind it runs on ("" for the scheduler's)
    const char* kind;
  } runs[] = {
      {std::string(kCpuOnly) + " PEPPHER_VARIANT=phist=phist_cpu", "phist_cpu", "CPU"},
      {"STARPU_NCPU=3 STARPU_NOPENCL=0 PEPPHER_VARIANT=phist=phist_cpu", "phist_cpu", "CPU"},
      {std::string(kTwoCpus) + " PEPPHER_VARIANT=phist=phist_openmp", "phist_openmp", ""},
      {std::string(kCpuAndOpenCl) + " PEPPHER_VARIANT=phist=phist_opencl", "phist_opencl",
       "OpenCL"},
      {std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager", "", ""},
  };
  std::string first_bits;
  for (const auto& run : runs) {
    e2e::Run r = run_program(exe, "10007 1000", run.env);
    INFO(run.env << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("reduce_array: 0 wrong"));
    if (*run.variant != '\0') CHECK(e2e::report_count(r.output, run.variant, run.kind) == 22);
    const std::size_t at = r.output.find("sum bits: ");
    REQUIRE(at != std::string::npos);
    const std::string bits = r.output.substr(at, 26);
    if (first_bits.empty()) first_bits = bits;
    CHECK(bits == first_bits);
  }
}
