// Runs a probe program of the runtime tests (one that may die, by a signal or a kill) with
// extra environment variables, collecting its stdout and stderr; optionally SIGKILLs it a
// given time after it printed a given text.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace peppher_test {

struct ProbeRun {
  int status = 0;       ///< as waitpid gives it
  std::string output;   ///< stdout and stderr together
  bool killed = false;  ///< the kill was sent
};

/// @brief Runs @p exe with @p env added to this process's environment; when @p kill_at is
///        not empty, SIGKILLs it @p kill_after after its output first contains @p kill_at.
inline ProbeRun run_probe(const std::string& exe, const std::vector<std::string>& env,
                          const std::string& kill_at = "",
                          std::chrono::microseconds kill_after = {}) {
  std::vector<std::string> all(env);  // these first: getenv takes the first of a name
  for (char** e = environ; *e != nullptr; ++e) all.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : all) envp.push_back(e.data());
  envp.push_back(nullptr);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("run_probe: pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::string program = exe;
  char* argv[] = {program.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  ProbeRun run;
  char buffer[4096];
  for (ssize_t n; spawned == 0 && (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) continue;  // EINTR
    run.output.append(buffer, static_cast<std::size_t>(n));
    if (!kill_at.empty() && !run.killed && run.output.find(kill_at) != std::string::npos) {
      std::this_thread::sleep_for(kill_after);
      kill(pid, SIGKILL);
      run.killed = true;
    }
  }
  close(pipe_fds[0]);
  if (spawned != 0) throw std::runtime_error("run_probe: cannot start " + exe);
  waitpid(pid, &run.status, 0);
  return run;
}

}  // namespace peppher_test
