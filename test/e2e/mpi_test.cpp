// Distributed execution over StarPU-MPI end to end (issue 16): compose --mpi (and
// mpi="true"), the generated Makefile (mpicxx, make run NP=..), programs under mpirun with
// 1, 2 and 4 ranks and started alone, and the compose errors when MPI is missing.
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace {

namespace fs = std::filesystem;

// Open MPI refuses to run as root unless told twice (CI runs as root); --oversubscribe
// lets 4 ranks share this 2-core machine. Each rank gets one CPU worker and no device;
// StarPU-MPI counts the bytes each rank sends (the program asserts what moves).
const std::string kMpiEnv =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 "
    "STARPU_NCPU=1 STARPU_NOPENCL=0 STARPU_SILENT=1 STARPU_COMM_STATS=1";

e2e::Run mpirun(int np, const fs::path& exe, const std::string& args = "",
                const std::string& env = "") {
  return e2e::run(
      "mpirun --oversubscribe -np " + std::to_string(np) + " " + exe.string() + " " + args,
      kMpiEnv + " EXPECT_RANKS=" + std::to_string(np) + " " + env);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Composed once for every test of this file.
const fs::path& mpi_case() {
  static const fs::path kOut =
      e2e::compose_and_build("mpi_case", e2e::cases() / "mpi" / "main.xml");
  return kOut;
}

}  // namespace

TEST_CASE("a program composed with mpi=\"true\" builds with mpicxx and StarPU-MPI", "[mpi]") {
  const std::string makefile = read_file(mpi_case() / "Makefile");
  CHECK(makefile.find("MPICXX ?= mpicxx") != std::string::npos);
  CHECK(makefile.find("pkg-config --libs $(subst starpu-,starpumpi-,$(PEPPHER_STARPU))") !=
        std::string::npos);
  CHECK(makefile.find("$(PEPPHER_MPI_LIBS)") != std::string::npos);
  CHECK(makefile.find("$(MPIRUN) $(MPIRUN_FLAGS) -np $(NP)") != std::string::npos);
  const std::string header = read_file(mpi_case() / "peppher.h");
  CHECK(header.find("::peppher::mpi::init(") != std::string::npos);
  // The program relinks when the runtime's StarPU-MPI layer changes (a stand-in newer than
  // the program, so the shared build's library is left alone).
  CHECK(e2e::run("make -s -q -C " + mpi_case().string()).exit_code == 0);
  const fs::path newer = mpi_case() / "newer_libpeppher_mpi.a";
  std::ofstream(newer) << "stand-in\n";
  CHECK(e2e::run("make -s -q -C " + mpi_case().string() + " PEPPHER_MPI_LIB_FILE=" + newer.string())
            .exit_code != 0);
  fs::remove(newer);
}

TEST_CASE("every rank sees the sequential results, on 1, 2 and 4 ranks", "[mpi]") {
  const fs::path exe = mpi_case() / "mpi_case";
  for (int np : {1, 2, 4}) {
    DYNAMIC_SECTION(np << " ranks") {
      e2e::Run r = mpirun(np, exe);
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      CHECK(count(r.output, ": ok") == static_cast<size_t>(np) * 25);
      CHECK(count(r.output, "WRONG") == 0);
      for (int k = 0; k < np; ++k) {
        CHECK(r.output.find("rank " + std::to_string(k) + " of " + std::to_string(np) +
                            ": 0 wrong") != std::string::npos);
      }
    }
  }
}

TEST_CASE("a program composed with --mpi but started without mpirun is one rank", "[mpi]") {
  e2e::Run r = e2e::run((mpi_case() / "mpi_case").string(), kMpiEnv + " EXPECT_RANKS=1");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("rank 0 of 1: 0 wrong") != std::string::npos);
}

TEST_CASE("make run NP=2 starts the program under mpirun", "[mpi]") {
  e2e::Run r =
      e2e::run("make -s -C " + mpi_case().string() + " run NP=2", kMpiEnv + " EXPECT_RANKS=2");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("rank 1 of 2: 0 wrong") != std::string::npos);
}

TEST_CASE("compose --mpi composes an application unchanged for StarPU-MPI", "[mpi]") {
  fs::path out = e2e::compose_and_build("mpi_vector_scale",
                                        e2e::source_dir() / "apps/vector_scale/main.xml", "--mpi");
  e2e::Run r = mpirun(2, out / "vector_scale");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
}

// apps/spmv composed with --mpi, once for every test of this file.
const fs::path& mpi_spmv() {
  static const fs::path kOut =
      e2e::compose_and_build("mpi_spmv", e2e::source_dir() / "apps/spmv/main.xml", "--mpi");
  return kOut;
}

TEST_CASE("apps/spmv with --mpi: raw-pointer results on every rank, bytes in the report", "[mpi]") {
  const fs::path& out = mpi_spmv();
  e2e::Run r = mpirun(2, out / "spmv", "2000 8 4", "PEPPHER_REPORT=1");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // Both ranks check every result of their own arrays.
  CHECK(count(r.output, "4 calls: all results correct") == 2);
  // Rank 0 runs the calls (it owns what they write) and sends y to rank 1 after each:
  // 4 calls x 2000 floats.
  CHECK(r.output.find("rank 0: 32000 bytes sent, 0 bytes received") != std::string::npos);
  CHECK(r.output.find("rank 1: 0 bytes sent, 32000 bytes received") != std::string::npos);
  CHECK(r.output.find("rank 1 of 2: PEPPHER execution report") != std::string::npos);
}

// The checksum in an app's verdict line ("checksum=0123abcd..."), or "" when absent.
std::string checksum_of(const std::string& line) {
  const size_t at = line.find("checksum=");
  return at == std::string::npos ? "" : line.substr(at + 9, 16);
}

TEST_CASE(
    "apps/spmv hybrid (partition=\"?\") with --mpi: rows on every rank, bitwise the "
    "one-process result on 1, 2 and 4 ranks",
    "[mpi]") {
  const std::string args = "1500 8 3 hybrid";
  fs::path single = e2e::compose_and_build("spmv_single", e2e::source_dir() / "apps/spmv/main.xml");
  e2e::Run one = e2e::run((single / "spmv").string() + " " + args, kMpiEnv);
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const std::string expected = checksum_of(one.output);
  REQUIRE(expected.size() == 16);
  for (int np : {1, 2, 4}) {
    DYNAMIC_SECTION(np << " ranks") {
      e2e::Run r = mpirun(np, mpi_spmv() / "spmv", args, "PEPPHER_REPORT=1");
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      // Every rank holds every result, the one process's bit for bit.
      CHECK(count(r.output, "3 calls: all results correct checksum=" + expected) ==
            static_cast<size_t>(np));
      // One block per worker of every rank: each rank's report shows its CPU worker ran
      // spmv_rows (one CPU worker per rank here).
      CHECK(count(r.output, "spmv_rows_cpu") == static_cast<size_t>(np));
      // Only results move: each rank sends its rows of y (1500 / np floats) to every other
      // rank after each of the 3 calls. The matrix and x, raw arrays every rank's program
      // filled alike, are read where they are (before: sent from rank 0 on every call).
      const int sent = 1500 / np * 4 * (np - 1) * 3;
      for (int k = 0; k < np; ++k) {
        CHECK(count(r.output, "rank " + std::to_string(k) + ": " + std::to_string(sent) +
                                  " bytes sent, " + std::to_string(sent) + " bytes received") == 1);
      }
    }
  }
}

TEST_CASE(
    "apps/sgemm_tiles (C in 2-D tiles, A in row blocks, B in column blocks) with --mpi: "
    "bitwise the one-process result on 1, 2 and 4 ranks, every rank computing tiles",
    "[mpi]") {
  // 96 x 73 times 73 x 99 in tiles of 25 (a 4 x 4 grid), then E = C * F (4 x 2), 2 rounds.
  const std::string args = "96 2";
  fs::path single =
      e2e::compose_and_build("sgemm_single", e2e::source_dir() / "apps/sgemm_tiles/main.xml");
  // One CPU worker and no device: the same CPU variant computes every tile, as on each rank.
  e2e::Run one = e2e::run((single / "sgemm_tiles").string() + " " + args, kMpiEnv);
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const std::string expected = checksum_of(one.output);
  REQUIRE(expected.size() == 16);
  const fs::path mpi =
      e2e::compose_and_build("mpi_sgemm", e2e::source_dir() / "apps/sgemm_tiles/main.xml", "--mpi");
  for (int np : {1, 2, 4}) {
    DYNAMIC_SECTION(np << " ranks") {
      e2e::Run r = mpirun(np, mpi / "sgemm_tiles", args, "PEPPHER_REPORT=1");
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      CHECK(count(r.output, "4 calls, rank ") == static_cast<size_t>(np));
      CHECK(count(r.output, "all results correct checksum=" + expected) == static_cast<size_t>(np));
      // The tiles are distributed: each rank's report shows its CPU worker ran some (with
      // the sequential or the OpenMP variant, which compute alike).
      CHECK(count(r.output, "sgemm_tiles_cpu") + count(r.output, "sgemm_tiles_openmp") >=
            static_cast<size_t>(np));
      CHECK(count(r.output, "execution report") == static_cast<size_t>(np));
    }
  }
}

TEST_CASE("apps/hotspot_mpi (halo rows): 1, 2 and 4 ranks give the single-process result",
          "[mpi]") {
  const std::string args = "96 64 12 12";  // 96 x 64 cells, 12 steps, 8 blocks of 12 rows
  fs::path single =
      e2e::compose_and_build("hotspot_single", e2e::source_dir() / "apps/hotspot_mpi/main.xml");
  e2e::Run one = e2e::run((single / "hotspot_mpi").string() + " " + args,
                          "STARPU_NCPU=2 STARPU_NOPENCL=0 STARPU_SILENT=1");
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  REQUIRE(count(one.output, "all results correct") == 1);
  const std::string want = checksum_of(one.output);
  REQUIRE(want.size() == 16);

  fs::path out = e2e::compose_and_build("mpi_hotspot",
                                        e2e::source_dir() / "apps/hotspot_mpi/main.xml", "--mpi");
  for (int np : {1, 2, 4}) {
    DYNAMIC_SECTION(np << " ranks") {
      e2e::Run r = mpirun(np, out / "hotspot_mpi", args);
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      // Every rank checks the whole grid bit for bit against the host reference and
      // prints the checksum of its copy: the single-process one.
      CHECK(count(r.output, "all results correct checksum=" + want) == static_cast<size_t>(np));
      CHECK(count(r.output, "WRONG") == 0);
    }
  }
}

TEST_CASE("--mpi where StarPU-MPI or the MPI compiler is missing is a located error", "[mpi]") {
  const fs::path main_xml = e2e::source_dir() / "apps/vector_scale/main.xml";
  fs::path out = e2e::fresh_work_dir("mpi_missing");
  SECTION("no mpicxx") {
    e2e::Run r = e2e::compose(main_xml, out, "--mpi", "MPICXX=/nonexistent/mpicxx");
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("main.xml:5:3: error: --mpi cannot be composed here: the MPI C++ "
                        "compiler '/nonexistent/mpicxx' was not found") != std::string::npos);
  }
  SECTION("no StarPU-MPI") {
    e2e::Run r = e2e::compose(main_xml, out, "--mpi", "PKG_CONFIG_LIBDIR=/nonexistent");
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("main.xml:5:3: error: --mpi cannot be composed here: StarPU-MPI was "
                        "not found") != std::string::npos);
  }
  SECTION("the attribute is located") {
    e2e::Run r =
        e2e::compose(e2e::cases() / "mpi" / "main.xml", out, "", "MPICXX=/nonexistent/mpicxx");
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("main.xml:36:31: error: mpi=\"true\" cannot be composed here") !=
          std::string::npos);
  }
  CHECK_FALSE(fs::exists(out / "Makefile"));  // nothing written
}

TEST_CASE("PEPPHER_TRACE under mpirun: one trace per rank, each with its own tasks", "[mpi]") {
  const fs::path dir = mpi_case() / "traces";
  fs::remove_all(dir);
  fs::create_directories(dir);
  e2e::Run r =
      mpirun(2, mpi_case() / "mpi_case", "", "PEPPHER_TRACE=" + (dir / "run.json").string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(fs::exists(dir / "run.json"));  // no two ranks writing one file
  for (int k = 0; k < 2; ++k) {
    const std::string trace = read_file(dir / ("run.rank" + std::to_string(k) + ".json"));
    INFO("rank " << k << ": " << trace.substr(0, 400));
    CHECK(trace.find("\"traceEvents\"") != std::string::npos);
    CHECK(trace.find("\"cat\":\"task\"") != std::string::npos);  // each rank ran blocks
  }
}

TEST_CASE("a host read after partitioned calls leaves the cores to the workers", "[mpi]") {
  // StarPU-MPI's progress thread polls without sleeping while a receive is posted: the
  // host read's gather must wait for this rank's own blocks (docs/MPI.md). The program
  // compares the CPU time the thread used with its worker's (not wall-clock time).
  const fs::path out = e2e::compose_and_build("mpi_poll", e2e::cases() / "mpi_poll" / "main.xml");
  e2e::Run r = mpirun(2, out / "mpi_poll");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.output, "ticks while computing: ok") == 2);
  CHECK(count(r.output, "results ok") == 2);
}

namespace {

// The bytes all ranks sent, from each rank's PEPPHER_REPORT line ("rank 1: 144 bytes sent").
std::size_t bytes_sent_by_all(const std::string& output) {
  std::size_t total = 0;
  const std::string marker = " bytes sent,";
  for (size_t at = output.find(marker); at != std::string::npos; at = output.find(marker, at + 1)) {
    size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(output[digits - 1])) != 0)
      --digits;
    if (digits < at) total += std::stoull(output.substr(digits, at - digits));
  }
  return total;
}

}  // namespace

TEST_CASE(
    "apps/ode (halo, max reduction) on 1, 2 and 4 ranks, and 2 with devices: the "
    "single-process result, halo points and partials between steps",
    "[mpi]") {
  const int points = 128;
  fs::path single = e2e::compose_and_build("ode_single", e2e::source_dir() / "apps/ode/main.xml");
  e2e::Run one = e2e::run((single / "ode").string() + " " + std::to_string(points) + " 8",
                          "STARPU_NCPU=1 STARPU_NOPENCL=0 STARPU_SILENT=1");
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  REQUIRE(count(one.output, "all results correct") == 1);
  const std::string want = checksum_of(one.output);
  REQUIRE(want.size() == 16);

  fs::path out =
      e2e::compose_and_build("mpi_ode", e2e::source_dir() / "apps/ode/main.xml", "--mpi");
  struct Ranks {
    int np;
    std::string env;  // added to kMpiEnv
    int workers;      // per rank, hence np * workers blocks
  };
  // One CPU worker per rank; and 2 ranks with pocl's OpenCL device each, where the
  // diffusion (CPU only) keeps the other components' two blocks per rank.
  for (const Ranks& ranks : {Ranks{1, "", 1}, Ranks{2, "", 1}, Ranks{4, "", 1},
                             Ranks{2, "STARPU_NOPENCL=1 STARPU_OPENCL_ON_CPUS=1", 2}}) {
    const int np = ranks.np;
    DYNAMIC_SECTION(np << " ranks " << ranks.env) {
      // 4 and 8 steps: the difference is what 4 steps send (the first distribution of the
      // state from rank 0 and the final host reads are the same in both runs).
      std::size_t sent[2];
      for (int run = 0; run < 2; ++run) {
        const int steps = run == 0 ? 4 : 8;
        e2e::Run r = mpirun(np, out / "ode", std::to_string(points) + " " + std::to_string(steps),
                            "PEPPHER_REPORT=1 " + ranks.env);
        INFO(r.output);
        REQUIRE(r.exit_code == 0);
        CHECK(count(r.output, "WRONG") == 0);
        sent[run] = bytes_sent_by_all(r.output);
        if (steps != 8) continue;
        // Every rank holds the whole state: the one process's bits (u, v and the change).
        CHECK(count(r.output, "all results correct checksum=" + want) == static_cast<size_t>(np));
        // Every rank's CPU worker ran the stencil on its blocks.
        CHECK(count(r.output, "bruss_diffusion_cpu") >= static_cast<size_t>(np));
      }
      // Per step, across each of the np - 1 boundaries between the ranks' blocks: the 8
      // diffusion calls send one halo point (8 bytes) each way; the 2 maxdiff calls send
      // rank 0 the partials of the other ranks' blocks (8 bytes each). No whole vector (1 KiB).
      const auto others = static_cast<std::size_t>((np - 1) * ranks.workers);
      const std::size_t per_step = 8 * 2 * 8 * static_cast<std::size_t>(np - 1) + 2 * 8 * others;
      INFO("bytes sent in 4 and 8 steps: " << sent[0] << ", " << sent[1]);
      CHECK(sent[1] - sent[0] == 4 * per_step);
    }
  }
}

namespace {

// The bytes StarPU's bus counters saw in a whole run of one rank, between that rank's own
// memory nodes (main memory and its OpenCL device): the "bus total" events of the rank's
// PEPPHER_TRACE file, one per link.
std::size_t bus_bytes_in_trace(const fs::path& trace) {
  const std::string text = read_file(trace);
  std::size_t total = 0;
  const std::string event = "\"name\":\"bus total\"", bytes = "\"bytes\":";
  for (size_t at = text.find(event); at != std::string::npos; at = text.find(event, at + 1)) {
    const size_t value = text.find(bytes, at);
    if (value != std::string::npos) total += std::stoull(text.substr(value + bytes.size()));
  }
  return total;
}

}  // namespace

TEST_CASE(
    "apps/hotspot_mpi's OpenCL variant on 2 ranks with pocl's device each: the "
    "single-process result, and only the halo rows cross each rank's bus",
    "[mpi]") {
  const int cols = 64;
  const std::string grid = "96 " + std::to_string(cols);  // 8 blocks of 12 rows, 4 per rank
  fs::path single =
      e2e::compose_and_build("hotspot_single", e2e::source_dir() / "apps/hotspot_mpi/main.xml");
  e2e::Run one = e2e::run((single / "hotspot_mpi").string() + " " + grid + " 8 12",
                          "STARPU_NCPU=2 STARPU_NOPENCL=0 STARPU_SILENT=1");
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const std::string want = checksum_of(one.output);
  REQUIRE(want.size() == 16);
  fs::path out = e2e::compose_and_build("mpi_hotspot",
                                        e2e::source_dir() / "apps/hotspot_mpi/main.xml", "--mpi");

  // Each rank: one CPU worker and pocl's OpenCL device. `forced` is each rank's
  // PEPPHER_VARIANT ("" for the scheduler's choice); `rows_over_bus` the rows that cross
  // that rank's bus per step once the blocks stay where they are computed.
  struct Placement {
    std::string name;
    std::string forced[2];
    int rows_over_bus[2];  // -1: not counted (the scheduler may move blocks)
  };
  const std::string opencl = "hotspot_block_opencl", cpu = "hotspot_block_cpu";
  for (const Placement& p : {Placement{"OpenCL on both ranks", {opencl, opencl}, {2, 2}},
                             Placement{"CPU on rank 0, OpenCL on rank 1", {cpu, opencl}, {0, 2}},
                             Placement{"chosen freely", {"", ""}, {-1, -1}}}) {
    DYNAMIC_SECTION(p.name) {
      // 4 and 8 steps: the difference is what 4 steps move (the first distribution of the
      // grids, their first trip to the device and the final host read are in both runs).
      std::size_t bus[2][2] = {}, sent[2] = {};
      for (int run = 0; run < 2; ++run) {
        const int steps = run == 0 ? 4 : 8;
        const fs::path traces = out / ("bus_traces_" + std::to_string(steps));
        fs::remove_all(traces);
        fs::create_directories(traces);
        // One command on both ranks, each rank setting its own PEPPHER_VARIANT from its
        // rank (not mpirun's colon syntax, on which Open MPI 5.0.7's mpirun crashes); ranks
        // that wait for each other forever fail the test (124) instead of hanging it.
        const std::string command =
            "timeout -k 10 300 mpirun --oversubscribe -np 2 sh -c '"
            "case $OMPI_COMM_WORLD_RANK in 0) v=" +
            p.forced[0] + ";; *) v=" + p.forced[1] +
            ";; esac; "
            "if [ -n \"$v\" ]; then export PEPPHER_VARIANT=$v; fi; exec " +
            (out / "hotspot_mpi").string() + " " + grid + " " + std::to_string(steps) + " 12'";
        e2e::Run r = e2e::run(
            command, kMpiEnv + " STARPU_NOPENCL=1 STARPU_OPENCL_ON_CPUS=1 " +
                         "PEPPHER_REPORT=1 PEPPHER_TRACE=" + (traces / "run.json").string());
        INFO(steps << " steps:\n" << r.output);
        CHECK(r.exit_code != 124);
        REQUIRE(r.exit_code == 0);
        CHECK(count(r.output, "WRONG") == 0);
        // Every rank checked the whole grid bit for bit against the host reference.
        CHECK(count(r.output, "all results correct") == 2);
        if (steps == 8) CHECK(count(r.output, "all results correct checksum=" + want) == 2);
        // Each rank ran its 4 blocks a step, with the variant forced there.
        const long on_device = e2e::report_count(r.output, opencl, "OpenCL");
        const long on_cpu = e2e::report_count(r.output, cpu, "CPU");
        CHECK(on_device + on_cpu == 8L * steps);
        if (!p.forced[0].empty()) {
          const long forced_opencl = (p.forced[0] == opencl) + (p.forced[1] == opencl);
          CHECK(on_device == 4L * steps * forced_opencl);
        }
        sent[run] = bytes_sent_by_all(r.output);
        for (int k = 0; k < 2; ++k)
          bus[run][k] = bus_bytes_in_trace(traces / ("run.rank" + std::to_string(k) + ".json"));
      }
      // Between the ranks, a step sends one row each way across the boundary (as on CPUs).
      const std::size_t row = cols * sizeof(float);
      INFO("bytes sent by all ranks in 4 and 8 steps: " << sent[0] << ", " << sent[1]);
      CHECK(sent[1] - sent[0] == 4 * 2 * row);
      for (int k = 0; k < 2; ++k) {
        INFO("rank " << k << ": bus bytes in 4 and 8 steps: " << bus[0][k] << ", " << bus[1][k]);
        // Chosen freely, the scheduler may move blocks in one run and not in the other (a
        // 4-step run has moved more than an 8-step one): only the results are checked then.
        if (p.rows_over_bus[k] < 0) continue;
        CHECK(bus[1][k] >= bus[0][k]);
        // On a rank whose blocks stay on its device, a step moves over the bus the row its
        // last block sends (device to main memory, for StarPU-MPI) and the row it receives
        // for that block (main memory to the device): a halo row each way, never a block
        // (12 rows). A rank computing on its CPU moves nothing over it.
        CHECK(bus[1][k] - bus[0][k] == 4 * static_cast<std::size_t>(p.rows_over_bus[k]) * row);
      }
    }
  }
}

// test/e2e/cases/mpi_diverge, composed once for the tests below.
const fs::path& mpi_diverge_case() {
  static const fs::path kOut =
      e2e::compose_and_build("mpi_diverge", e2e::cases() / "mpi_diverge" / "main.xml");
  return kOut;
}

// One of mpi_diverge's programs on @p np ranks, under a time limit: ranks that wait for
// each other forever fail the test (timeout's exit status 124) instead of hanging it.
e2e::Run mpirun_diverge(int np, const std::string& program, const std::string& env = "") {
  return e2e::run("timeout -k 10 120 mpirun --oversubscribe -np " + std::to_string(np) + " " +
                      (mpi_diverge_case() / "mpi_diverge").string() + " " + program,
                  kMpiEnv + " " + env);
}

const std::string kDiffer =
    "peppher: the ranks' programs differ (under compose --mpi every rank makes the same "
    "component calls and creates the same containers, in the same order; containers are "
    "numbered in the order of their creation; docs/MPI.md): ";

// Every rank printed "rank R: error: <kDiffer + detail>" and the run failed, in time.
void check_error_on_every_rank(const e2e::Run& r, int np, const std::string& detail) {
  INFO(r.output);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 124);  // timeout: the ranks hung
  for (int k = 0; k < np; ++k)
    CHECK(count(r.output, "rank " + std::to_string(k) + ": error: " + kDiffer + detail + "\n") ==
          1);
}

TEST_CASE(
    "ranks that make the same calls run as before; rank() and nranks() keep their values "
    "after PEPPHER_SHUTDOWN()",
    "[mpi]") {
  for (int np : {1, 2, 4}) {
    DYNAMIC_SECTION(np << " ranks") {
      e2e::Run r = mpirun_diverge(np, "same");
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      // Host code may differ between ranks: a rank-0-only print of elements every rank read.
      CHECK(count(r.output, "rank 0 only: v[1]=2 y[0]=3\n") == 1);
      for (int k = 0; k < np; ++k) {
        const std::string rank = "rank " + std::to_string(k);
        CHECK(count(r.output,
                    rank + ": v[0]=2 y[999]=3 y[500]=3 (" + std::to_string(k + 1) + ")\n") == 1);
        CHECK(count(r.output, rank + " of " + std::to_string(np) + " done\n") == 1);
      }
    }
  }
}

TEST_CASE("a component call made on some ranks only is an error naming the call, on 2 and 4 ranks",
          "[mpi]") {
  // Rank 0 alone scales v, then every rank scales w: each rank's call 1 is another
  // container's (rank 1's w took rank 0's v's data before).
  const std::string rank0 = "rank 0 made call 1, scale_vec(container 1: Vector of 4 elements); ";
  const std::string others = " made call 1, scale_vec(container 2: Vector of 4 elements)";
  e2e::Run two = mpirun_diverge(2, "rank0_call");
  check_error_on_every_rank(two, 2, rank0 + "rank 1" + others);
  CHECK(two.output.find("w[0]=") == std::string::npos);
  e2e::Run four = mpirun_diverge(4, "rank0_call");
  check_error_on_every_rank(four, 4, rank0 + "ranks 1, 2 and 3" + others);
  CHECK(four.output.find("w[0]=") == std::string::npos);

  // The error left uncaught ends the program with its message (and status 1, no abort).
  e2e::Run uncaught = mpirun_diverge(2, "rank0_call", "NO_CATCH=1");
  INFO(uncaught.output);
  CHECK(uncaught.exit_code != 0);
  CHECK(uncaught.exit_code != 124);
  CHECK(uncaught.output.find(kDiffer + rank0 + "rank 1" + others) != std::string::npos);
  CHECK(uncaught.output.find("terminate called") == std::string::npos);
}

TEST_CASE(
    "an element read on one rank only is an error, not a hang; so is a container "
    "created on one rank only",
    "[mpi]") {
  // Rank 1's read would wait for a block rank 0 never sends; rank 0 meanwhile destroys y.
  const std::string read =
      "read an element of container 2 (in its block 0) on the host after call 1";
  check_error_on_every_rank(mpirun_diverge(2, "one_read"), 2,
                            "rank 0 destroyed container 2 after call 1; rank 1 " + read);
  check_error_on_every_rank(mpirun_diverge(4, "one_read"), 4,
                            "ranks 0, 2 and 3 destroyed container 2 after call 1; rank 1 " + read);
  check_error_on_every_rank(mpirun_diverge(2, "create"), 2,
                            "rank 0 created container 2 (Vector of 8 elements) after call 1; "
                            "rank 1 made call 2, scale_vec(container 1: Vector of 4 elements)");
}

TEST_CASE("reductions into a Vector and a Matrix under mpirun: folded on the owner, the same bits",
          "[mpi]") {
  // test/e2e/cases/reduce_array with --mpi: 11 blocks of x over the ranks' workers, each
  // block's private copies of the three arrays sent to the arrays' owner and folded there in
  // block order: every rank prints the sums' bits of the one-rank run.
  const fs::path out = e2e::compose_and_build("reduce_array_mpi",
                                              e2e::cases() / "reduce_array" / "main.xml", "--mpi");
  e2e::Run one = mpirun(1, out / "reduce_array", "10007 1000");
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const std::size_t at = one.output.find("sum bits: ");
  REQUIRE(at != std::string::npos);
  const std::string bits = one.output.substr(at, 26);
  e2e::Run two = mpirun(2, out / "reduce_array", "10007 1000");
  INFO(two.output);
  CHECK(two.exit_code == 0);
  CHECK(count(two.output, "reduce_array: 0 wrong") == 2);
  CHECK(count(two.output, bits) == 2);
}
