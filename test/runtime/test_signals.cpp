// The program's signals after init (issue 41): libpocl, loaded while StarPU starts, installs
// a SIGFPE handler that skips a faulting integer division; init() puts the program's own
// disposition back, so a division by zero in user code still kills it by SIGFPE.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher_catch.h"

extern char** environ;

namespace {

struct Outcome {
  int status = 0;
  std::string output;
};

// Runs the probe (divide_after_init.cpp) with @p env added to this process's environment.
Outcome run_probe(const std::vector<std::string>& env) {
  std::vector<std::string> all;
  for (char** e = environ; *e != nullptr; ++e) all.emplace_back(*e);
  all.insert(all.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : all) envp.push_back(e.data());
  envp.push_back(nullptr);
  char out_template[] = "/tmp/peppher-sigfpe-XXXXXX";
  const int out = mkstemp(out_template);
  REQUIRE(out >= 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, out, 2);
  char probe[] = PEPPHER_DIVIDE_PROBE;
  char* argv[] = {probe, nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, probe, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  Outcome outcome;
  if (spawned == 0) waitpid(pid, &outcome.status, 0);
  close(out);
  if (FILE* f = std::fopen(out_template, "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) outcome.output.append(buffer, n);
    std::fclose(f);
  }
  std::remove(out_template);
  REQUIRE(spawned == 0);
  return outcome;
}

}  // namespace

TEST_CASE("an integer division by zero after init raises SIGFPE", "[signals]") {
  SECTION("CPU workers only") {
    const Outcome o = run_probe({"STARPU_NOPENCL=0", "STARPU_NCPU=1"});
    INFO(o.output);
    REQUIRE(WIFSIGNALED(o.status));
    CHECK(WTERMSIG(o.status) == SIGFPE);
  }
  SECTION("a CPU worker beside pocl") {
    const Outcome o = run_probe({"STARPU_NOPENCL=1", "STARPU_OPENCL_ON_CPUS=1", "STARPU_NCPU=1"});
    INFO(o.output);
    CHECK(o.output.find("pocl loaded: yes") != std::string::npos);  // the case being tested
    REQUIRE(WIFSIGNALED(o.status));
    CHECK(WTERMSIG(o.status) == SIGFPE);
  }
}
