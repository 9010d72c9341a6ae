// init()/shutdown() and Config: scheduler choice (STARPU_SCHED wins), explicit worker
// counts, clear errors when StarPU cannot start, and the execution report.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "peppher/detail/cpu_cap.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;

namespace {

std::string current_scheduler() {
  starpu_sched_policy* policy = starpu_sched_ctx_get_sched_policy(0) /* the global context */;
  return policy != nullptr && policy->policy_name != nullptr ? policy->policy_name : "";
}

}  // namespace

TEST_CASE("init starts StarPU with dmda by default; STARPU_SCHED wins", "[init]") {
  ScopedEnv no_sched("STARPU_SCHED", nullptr);
  {
    peppher::Runtime rt;
    CHECK(peppher::is_running());
    CHECK(current_scheduler() == "dmda");
    CHECK_THROWS_WITH(peppher::init(), Catch::Contains("already running"));
  }
  CHECK_FALSE(peppher::is_running());
  peppher::shutdown();  // a second shutdown does nothing
  {
    peppher::Config config;
    config.scheduler = "eager";
    peppher::Runtime rt(config);
    CHECK(current_scheduler() == "eager");
  }
  {
    ScopedEnv sched("STARPU_SCHED", "ws");
    peppher::Config config;
    config.scheduler = "eager";
    peppher::Runtime rt(config);
    CHECK(current_scheduler() == "ws");
  }
  PEPPHER_INITIALIZE();
  CHECK(peppher::is_running());
  PEPPHER_SHUTDOWN();
  CHECK_FALSE(peppher::is_running());
}

TEST_CASE("explicit worker counts beat the environment", "[init]") {
  peppher::Config config;
  config.ncpus = 2;
  config.nopencl = 0;
  peppher::Runtime rt(config);
  CHECK(starpu_cpu_worker_get_count() == 2);
  CHECK(starpu_opencl_worker_get_count() == 0);
}

TEST_CASE("init failure names the cause", "[init]") {
  peppher::Config config;
  config.ncpus = 0;
  config.nopencl = 0;
  config.ncuda = 0;
  CHECK_THROWS_WITH(peppher::init(config), Catch::Contains("-ENODEV"));
  CHECK_FALSE(peppher::is_running());
  peppher::Runtime rt;  // and a later init still works
  CHECK(peppher::is_running());
}

namespace {

// buffers: 0 RW vector: v[i] = v[i] * 3 + 1.
void triple_plus_one(void* b[], void* /*cl_arg*/) {
  auto* v = reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(b[0]));
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) v[i] = v[i] * 3 + 1;
}

peppher::Config no_worker() {
  peppher::Config config;
  config.ncpus = 0;
  config.nopencl = 0;
  config.ncuda = 0;
  return config;
}

}  // namespace

TEST_CASE("a background start returns at once; the first call waits for it", "[init]") {
  starpu_codelet cl = make_codelet("triple", triple_plus_one, nullptr, {STARPU_RW});
  SECTION("a container made and a call made while StarPU starts") {
    peppher::init_in_background();
    CHECK(peppher::is_running());
    CHECK_THROWS_WITH(peppher::init(), Catch::Contains("already running"));
    peppher::Vector<std::uint32_t> v(1000, 0u);  // perhaps made as before init()
    for (std::uint32_t i = 0; i < 1000; ++i) v[i] = i;
    {
      peppher::TaskBuilder task(&cl, "triple");  // waits for the start
      CHECK(starpu_cpu_worker_get_count() > 0);
      task.use(0, v);
      task.submit(true);
    }
    CHECK(v[999] == 999u * 3 + 1);
    peppher::shutdown();
    CHECK_FALSE(peppher::is_running());
    CHECK(v[0] == 1u);  // a plain container again
  }
  SECTION("wait_until_started: StarPU is up when it returns") {
    peppher::init_in_background();
    peppher::wait_until_started();
    CHECK(starpu_cpu_worker_get_count() > 0);
    peppher::wait_until_started();  // nothing under way: returns at once
    peppher::shutdown();
  }
  SECTION("its error is the first call's, said again by the later ones") {
    peppher::init_in_background(no_worker());
    CHECK(peppher::is_running());
    CHECK_THROWS_WITH(peppher::TaskBuilder(&cl, "triple"), Catch::Contains("-ENODEV"));
    CHECK_FALSE(peppher::is_running());
    CHECK_THROWS_WITH(peppher::TaskBuilder(&cl, "triple"),
                      Catch::Contains("triple called while the runtime is not running (its "
                                      "start failed: ") &&
                          Catch::Contains("-ENODEV"));
    CHECK_NOTHROW(peppher::shutdown());  // said already
  }
  SECTION("PEPPHER_START=foreground: the start is init()'s, its error thrown at once") {
    ScopedEnv foreground("PEPPHER_START", "foreground");
    CHECK_THROWS_WITH(peppher::init_in_background(no_worker()), Catch::Contains("-ENODEV"));
    CHECK_FALSE(peppher::is_running());
    peppher::init_in_background();
    CHECK(starpu_cpu_worker_get_count() > 0);  // started before it returned
    peppher::shutdown();
  }
  SECTION("PEPPHER_START with another value is an error that names it") {
    ScopedEnv odd("PEPPHER_START", "later");
    CHECK_THROWS_WITH(
        peppher::init_in_background(),
        Catch::Contains("PEPPHER_START: 'later' is neither foreground nor background"));
    CHECK_FALSE(peppher::is_running());
  }
  SECTION("with no call, shutdown says it; a later start works") {
    peppher::init_in_background(no_worker());
    CHECK_THROWS_WITH(peppher::shutdown(), Catch::Contains("-ENODEV"));
    CHECK_FALSE(peppher::is_running());
    peppher::init_in_background();
    peppher::shutdown();  // right after the start: waits for it, then stops
    CHECK_FALSE(peppher::is_running());
  }
}

TEST_CASE("the execution report says which variant ran on which worker", "[init][report]") {
  {
    Session session;
    peppher::Vector<std::uint32_t> v(16);
    fill(v.handle_for_task(), 0, 1, Where::Cpu);
    fill(v.handle_for_task(), 0, 1, Where::Cpu);
    affine(v.handle_for_task(), 1, 1, Where::Cpu);
    if (has_opencl()) fill(v.handle_for_task(), 0, 2, Where::OpenCl);
    CHECK(v[3] == (has_opencl() ? 6u : 4u));
  }
  const std::string report = peppher::report_string();
  INFO(report);
  CHECK_THAT(report, Catch::Contains("interface") && Catch::Contains("worker"));
  CHECK_THAT(report, Catch::Matches("(.|\n)*fill +fill_cpu +cpu +CPU 0 +2\n(.|\n)*"));
  CHECK_THAT(report, Catch::Matches("(.|\n)*affine +affine_cpu +cpu +CPU 0 +1\n(.|\n)*"));
  if (report.find("fill_opencl") != std::string::npos)
    CHECK_THAT(report,
               Catch::Matches("(.|\n)*fill +fill_opencl +opencl +OpenCL[^\n]* +1\n(.|\n)*"));
  Session next;  // init resets the counts
  CHECK(peppher::report_string().find("fill_cpu") == std::string::npos);
}

TEST_CASE("PEPPHER_REPORT=1 prints the report to stderr at shutdown", "[init][report]") {
  ScopedEnv report("PEPPHER_REPORT", "1");
  char path[] = "/tmp/peppher_report_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(fd, 2);
  {
    Session session;
    peppher::Vector<std::uint32_t> v(8);
    fill(v.handle_for_task(), 1, 1, Where::Cpu);
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  CHECK_THAT(text.str(),
             Catch::Contains("PEPPHER execution report") && Catch::Contains("fill_cpu"));
}

TEST_CASE("a StarPU that caps CPU workers below the machine's cores is named once", "[init]") {
  using peppher::detail::cpu_cap_note;
  const std::string note = cpu_cap_note(16, 4, -1);  // Debian 12's StarPU on a 16-core node
  CHECK_THAT(note, Catch::Contains("at most 4 CPU workers"));
  CHECK_THAT(note, Catch::Contains("16 cores"));
  CHECK_THAT(note, Catch::Contains("tools/starpu"));
  CHECK(cpu_cap_note(16, 4, 8) == note);  // asked for more than it can give
  CHECK(cpu_cap_note(16, 4, 4).empty());  // asked for what it gives
  CHECK(cpu_cap_note(16, 4, 2).empty());
  CHECK(cpu_cap_note(4, 4, -1).empty());  // every core has its worker
  CHECK(cpu_cap_note(2, 32, -1).empty());
}
