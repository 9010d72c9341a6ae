// The execution trace (PEPPHER_TRACE=run.json / Config::trace_file): every component call's
// tasks and the data transfers made for them (fetched by the worker, or prefetched by StarPU
// when the task was pushed to its worker), recorded with hooks on each task and StarPU's bus
// counters (no FxT), in the Chrome trace-event JSON format (Perfetto, chrome://tracing),
// written as the tasks end (a fresh temporary next to the file, renamed onto it at shutdown,
// so memory does not grow with the number of tasks): one track per worker, one per bus link, a flow
// from each transfer to the task it was made for. Times come from StarPU's clock
// (starpu_timing_now) taken in the task's own hooks, not from StarPU's profiling, which costs
// several microseconds per task (bus counters are kept by StarPU either way). The trace also names
// each interface's StarPU performance model and which variant each codelet implementation is, so
// peppher-report can plot the models.
#include "observe/trace.h"

#include <fcntl.h>
#include <starpu.h>
#include <starpu_profiling.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/files.h"
#include "observe/simulated_runs.h"
#include "observe/worker_names.h"
#include "peppher/detail/backends.h"
#include "peppher/detail/trace.h"
#include "peppher/execution_counter.h"
#include "peppher/nested_call.h"
#include "peppher/selection.h"
#include "select/regression_choice.h"

namespace peppher::detail {

std::atomic<bool> g_tracing{false};

namespace {

// One buffer moved to a task's worker's memory node for that task: fetched by the worker
// (the task waited for it between fetch_start and fetch_end), or prefetched by StarPU when
// the task was pushed to its worker (a forced or statically dispatched variant, dm*
// schedulers), somewhere between the push and the moment the worker found it there.
struct Transfer {
  int src_node = -1;
  int dst_node = -1;
  std::size_t bytes = 0;
  int buffer = 0;
  bool prefetch = false;
  double from = 0, to = 0;  // prefetch: the interval it happened in (us, StarPU's clock)
};

constexpr int kPushedBuffers = 16;  // buffers whose push-time whereabouts a record keeps

enum class RecordState { Free, Pending, Finished, Detached };

// One task of a component call, from submission to the end of its callback.
struct TaskRecord {
  starpu_task* task = nullptr;
  const starpu_codelet* cl = nullptr;  // names the interface's performance model
  const char* iface = nullptr;
  int block = -1;
  unsigned long call = 0;
  const ExecutionCounter* variant = nullptr;
  int impl = -1;  // the codelet implementation StarPU ran (its performance model's index)
  // The model's prediction for it (us): StarPU's scheduler's (task->predicted, when it had
  // one), else a regression model's for its worker (regression_us); NaN: none.
  double predicted = std::numeric_limits<double>::quiet_NaN();
  void (*user_callback)(void*) = nullptr;
  void* user_arg = nullptr;
  int worker = -1;
  double submit = 0, start = 0, end = 0, fetch_start = 0, fetch_end = 0;
  double pushed = 0;  // when StarPU pushed it to the scheduler (ready)
  // Per read buffer (the first kPushedBuffers): the nodes with a valid copy then.
  std::array<std::uint64_t, kPushedBuffers> valid{};
  bool pushed_seen = false;
  std::vector<Transfer> transfers;
  // Pending once given out (submit is set by then), Finished when its callback ran (every
  // field is final: the trace may write and free it), Detached when its task went without
  // running. Stored with release, loaded with acquire.
  std::atomic<RecordState> state{RecordState::Free};
};

// Records are carved out of chunks each submitting thread takes for itself (no malloc, no
// lock per task: per-task allocations contended with StarPU's own in glibc's arena). A
// chunk all of whose records were given out (retired) and whose tasks all ended is written
// to the trace and freed when a thread retires its chunk, the rest at trace_stop: the trace
// holds the records of the tasks in flight, not of every task (issue 41, item 7).
constexpr std::size_t kChunkRecords = 512;
struct Chunk {
  std::array<TaskRecord, kChunkRecords> records;
  bool retired = false;  // its thread gave out every record and took another chunk
};

struct Link {
  int src, dst;
  bool operator<(const Link& o) const { return std::tie(src, dst) < std::tie(o.src, o.dst); }
};

// An interface's StarPU performance model, as the trace's otherData.models names it.
struct Model {
  std::string symbol;
  starpu_perfmodel_type type;
};

struct Recorder {
  std::mutex mutex;               // guards everything below but the atomics and the claims
  std::string path;               // the trace's file
  std::string tmp;                // its temporary while recording
  std::FILE* out = nullptr;       // the temporary, open
  int error = 0;                  // why a write to it failed (the first errno)
  bool any_event = false;         // an event was written (the next one follows a comma)
  double origin = 0;              // trace_start's time: the trace's time 0 (StarPU's clock, us)
  double last = 0;                // the latest end of a written task
  unsigned long flow = 0;         // the last transfer flow's id
  std::map<Link, int> link_tid;   // each bus link's track, given at its first transfer
  std::map<pid_t, int> here_tid;  // each calling thread's track, given at its first run there
  std::map<std::string, Model> models;         // the modelled interfaces of the written tasks
  std::vector<std::unique_ptr<Chunk>> chunks;  // not written yet
  std::atomic<unsigned> session{0};  // a thread's chunk from an earlier session is not reused
  std::atomic<unsigned long> next_call{0};
  bool several_nodes = false;  // the machine has memory nodes data can move between
  // When a task last took a transfer of (handle, node) as its own: a task pushed before that
  // which also finds the data arrived did not cause another transfer. Claims older than the
  // oldest task in flight decide nothing more and are forgotten when chunks are written.
  std::mutex claims_mutex;
  std::map<std::pair<starpu_data_handle_t, int>, double> claims;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

thread_local unsigned long t_call = 0;  // the call whose blocks this thread is submitting
thread_local Chunk* t_chunk = nullptr;  // this thread's chunk of records,
thread_local std::size_t t_used = 0;    // how many of them it gave out,
thread_local unsigned t_session = 0;    // and in which session

void write_finished_chunks(Recorder& r);

TaskRecord* new_record() {
  Recorder& r = recorder();
  const unsigned session = r.session.load(std::memory_order_relaxed);
  if (t_chunk == nullptr || t_used == kChunkRecords || t_session != session) {
    auto chunk = std::make_unique<Chunk>();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (t_chunk != nullptr && t_session == session) t_chunk->retired = true;
    t_chunk = r.chunks.emplace_back(std::move(chunk)).get();
    t_used = 0;
    t_session = session;
    write_finished_chunks(r);
  }
  TaskRecord* rec = &t_chunk->records[t_used++];
  rec->submit = starpu_timing_now();
  rec->state.store(RecordState::Pending, std::memory_order_release);
  return rec;
}

constexpr int kMaxTrackedNodes = 64;  // nodes in the push-time bit masks

// The distinct read buffers of @p task (the same data twice in one task moves once).
template <typename F>
void for_each_read_buffer(starpu_task* task, F&& f) {
  const int nbuffers = static_cast<int>(STARPU_TASK_GET_NBUFFERS(task));
  for (int i = 0; i < nbuffers; ++i) {
    if ((STARPU_TASK_GET_MODE(task, i) & STARPU_R) == 0) continue;
    starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || STARPU_TASK_GET_HANDLE(task, j) == h;
    if (!seen) f(i, h);
  }
}

bool valid_on(starpu_data_handle_t h, int node) {
  int allocated = 0, valid = 0, requested = 0;
  starpu_data_query_status(h, node, &allocated, &valid, &requested);
  return valid != 0;
}

// Push prologue, when the task is ready and StarPU pushes it to the scheduler (before any
// prefetch for it): which nodes hold a valid copy of each read buffer.
void task_pushed(void* arg) {
  auto* rec = static_cast<TaskRecord*>(arg);
  rec->pushed = starpu_timing_now();
  starpu_task* task = rec->task;
  const int nodes = std::min(static_cast<int>(starpu_memory_nodes_get_count()), kMaxTrackedNodes);
  rec->pushed_seen = true;
  for_each_read_buffer(task, [&](int i, starpu_data_handle_t h) {
    if (i >= kPushedBuffers) return;
    for (int node = 0; node < nodes; ++node)
      if (valid_on(h, node)) rec->valid[i] |= std::uint64_t{1} << node;
  });
}

// Takes the transfer of @p h to @p node as @p rec's own, unless a task took it since @p rec
// was pushed (then it is that task's transfer, which this one found done or under way).
bool claim(const TaskRecord& rec, starpu_data_handle_t h, int node, double now) {
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.claims_mutex);
  auto [it, fresh] = r.claims.try_emplace({h, node}, now);
  if (!fresh && it->second >= rec.pushed) return false;
  it->second = now;
  return true;
}

// Pop prologue, on the worker that will run the task, before it fetches the task's data.
// A read buffer with neither a valid copy nor a pending request on the worker's node is
// fetched now, for this task; one that was not on that node when the task was pushed but is
// there (or on its way) now was prefetched for it.
void task_popped(void* arg) {
  auto* rec = static_cast<TaskRecord*>(arg);
  const int worker = starpu_worker_get_id();
  if (worker < 0) return;
  const double now = starpu_timing_now();
  rec->fetch_start = now;  // the worker fetches the task's data right after this
  const int node = static_cast<int>(starpu_worker_get_memory_node(static_cast<unsigned>(worker)));
  const int nodes = static_cast<int>(starpu_memory_nodes_get_count());
  for_each_read_buffer(rec->task, [&](int i, starpu_data_handle_t h) {
    int allocated = 0, valid = 0, requested = 0;
    starpu_data_query_status(h, node, &allocated, &valid, &requested);
    const std::uint64_t before = i < static_cast<int>(rec->valid.size()) ? rec->valid[i] : 0;
    const bool was_there =
        node >= kMaxTrackedNodes || rec->valid.empty() || (before >> node & 1) != 0;
    if ((valid != 0 || requested != 0) && was_there) return;  // no transfer for this task
    if (!claim(*rec, h, node, now)) return;
    Transfer t;
    t.dst_node = node;
    t.bytes = starpu_data_get_size(h);
    t.buffer = i;
    if (valid != 0 || requested != 0) {  // prefetched: its source was valid at the push
      t.prefetch = true;
      t.from = rec->pushed;
      t.to = valid != 0 ? now : -1;  // -1: still on its way, done by the end of the fetch
      for (int src = 0; src < nodes && src < kMaxTrackedNodes && t.src_node < 0; ++src)
        if (src != node && (before >> src & 1) != 0) t.src_node = src;
    } else {
      for (int src = 0; src < nodes && t.src_node < 0; ++src)
        if (src != node && valid_on(h, src)) t.src_node = src;
    }
    rec->transfers.push_back(t);
  });
}

// Completion callback, on the worker, right after the task ended and released its data.
void task_done(void* arg) {
  auto* rec = static_cast<TaskRecord*>(arg);
  rec->end = starpu_timing_now();
  if (rec->worker < 0) rec->worker = starpu_worker_get_id();  // no variant said it ran
  // Simulated: no variant ran to say which it was (simulated_runs.h).
  if (rec->variant == nullptr && rec->task != nullptr) {
    rec->variant = simulated_variant(rec->task, rec->worker);
    if (rec->variant != nullptr)
      rec->impl = static_cast<int>(starpu_task_get_implementation(rec->task));
  }
  if (rec->start <= 0) rec->start = rec->fetch_start > 0 ? rec->fetch_start : rec->end;
  if (rec->fetch_end <= 0) rec->fetch_end = rec->start;
  rec->task = nullptr;  // StarPU destroys the task after this callback
  void (*const callback)(void*) = rec->user_callback;
  void* const callback_arg = rec->user_arg;
  rec->state.store(RecordState::Finished, std::memory_order_release);  // may be freed now
  if (callback != nullptr) callback(callback_arg);
}

// ---- writing -------------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(v) ? v : 0.0);
  return buf;
}

std::string node_name(int node) {
  if (node < 0) return "unknown";
  char buf[64] = {};
  starpu_memory_node_get_name(static_cast<unsigned>(node), buf, sizeof buf);
  return buf;
}

constexpr int kPid = 1;
constexpr int kFirstLinkTid = 1000;  // worker tracks are the worker ids, links follow
constexpr int kFirstHereTid = 900;   // then the program's threads that ran variants themselves

std::string metadata(const char* what, int tid, const std::string& name, int sort) {
  std::string e = "{\"ph\":\"M\",\"pid\":" + std::to_string(kPid) +
                  ",\"tid\":" + std::to_string(tid) + ",\"name\":\"" + what +
                  "\",\"args\":{\"name\":" + json_string(name) + "}}";
  if (sort >= 0) {
    e += ",\n{\"ph\":\"M\",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) +
         ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(sort) + "}}";
  }
  return e;
}

std::string program_name() {
  std::ifstream comm("/proc/self/comm");
  std::string name;
  std::getline(comm, name);
  return name.empty() ? "program" : name;
}

// Appends @p event to @p text, after a comma when an event came before it in the trace.
void add_event(Recorder& r, std::string& text, const std::string& event) {
  if (r.any_event) text += ",\n";
  text += event;
  r.any_event = true;
}

// Writes @p text to the trace's temporary; the first failure is kept for trace_stop.
void write_text(Recorder& r, const std::string& text) {
  if (r.out == nullptr || r.error != 0 || text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), r.out) != text.size()) r.error = errno ? errno : EIO;
}

// The track of bus link @p link, named (in @p text) the first time it is asked for.
int link_track(Recorder& r, Link link, std::string& text) {
  auto [it, fresh] =
      r.link_tid.try_emplace(link, kFirstLinkTid + static_cast<int>(r.link_tid.size()));
  if (fresh) {
    add_event(r, text,
              metadata("thread_name", it->second,
                       "bus " + node_name(link.src) + " -> " + node_name(link.dst), it->second));
  }
  return it->second;
}

// Remembers the StarPU performance model of @p t's interface, when it keeps a history.
void note_model(Recorder& r, const TaskRecord& t) {
  const starpu_perfmodel* m = t.cl != nullptr ? t.cl->model : nullptr;
  if (m == nullptr || m->symbol == nullptr || r.models.count(t.iface) != 0) return;
  if (m->type != STARPU_HISTORY_BASED && m->type != STARPU_REGRESSION_BASED &&
      m->type != STARPU_NL_REGRESSION_BASED)
    return;
  r.models.emplace(t.iface, Model{m->symbol, m->type});
}

// The events of the finished task @p t (its span, its transfers and their flows), appended
// to @p text; times in microseconds from the trace's start.
void task_events(Recorder& r, const TaskRecord& t, std::string& text) {
  note_model(r, t);
  const double origin = r.origin;
  const std::string variant = t.variant != nullptr ? t.variant->variant_name() : "unknown";
  const std::string backend = t.variant != nullptr ? t.variant->backend() : "unknown";
  const std::string worker = worker_name(t.worker);
  std::size_t bytes_in = 0;
  for (const Transfer& x : t.transfers) bytes_in += x.bytes;
  const double start = t.start - origin;
  r.last = std::max(r.last, t.end - origin);
  std::string e = "{\"ph\":\"X\",\"cat\":\"task\",\"pid\":" + std::to_string(kPid) +
                  ",\"tid\":" + std::to_string(t.worker) + ",\"name\":" + json_string(variant) +
                  ",\"ts\":" + num(start) + ",\"dur\":" + num(t.end - t.start) +
                  ",\"args\":{\"interface\":" + json_string(t.iface) +
                  ",\"variant\":" + json_string(variant) + ",\"backend\":" + json_string(backend) +
                  ",\"worker\":" + json_string(worker) + ",\"call\":" + std::to_string(t.call);
  if (t.block >= 0) e += ",\"block\":" + std::to_string(t.block);
  // The implementation index under which the interface's model files this run (forced
  // and statically dispatched calls run a single-variant codelet without a model).
  if (t.impl >= 0 && t.cl != nullptr && t.cl->model != nullptr)
    e += ",\"impl\":" + std::to_string(t.impl);
  // What the model predicted for it (StarPU's scheduler, or a regression's law).
  if (t.predicted > 0 && std::isfinite(t.predicted)) e += ",\"predicted_us\":" + num(t.predicted);
  e += ",\"submit_us\":" + num(t.submit - origin) +
       ",\"fetch_us\":" + num(t.fetch_end - t.fetch_start) +
       ",\"bytes_in\":" + std::to_string(bytes_in) + "}}";
  add_event(r, text, e);
  for (const Transfer& x : t.transfers) {
    const int tid = link_track(r, Link{x.src_node, x.dst_node}, text);
    double ts = 0, dur = 0;
    if (x.prefetch) {
      // Prefetched when the task was pushed; done by the time the worker found it (or by
      // the end of the task's fetch when it was still on its way): drawn over that window.
      const double to = x.to > 0 ? x.to : std::max(t.fetch_end, x.from);
      ts = x.from - origin;
      dur = to - x.from;
    } else {
      // The fetch interval covers all of the task's fetches.
      ts = t.fetch_start - origin;
      dur = t.fetch_end - t.fetch_start;
    }
    // A zero-length (or unknown) interval is drawn as one microsecond ending at the task's
    // start.
    if (!(dur > 0) || ts + origin <= 0) {
      dur = 1;
      ts = start - dur;
    }
    const std::string id = std::to_string(++r.flow);
    add_event(r, text,
              "{\"ph\":\"X\",\"cat\":\"transfer\",\"pid\":" + std::to_string(kPid) +
                  ",\"tid\":" + std::to_string(tid) +
                  ",\"name\":" + json_string(std::to_string(x.bytes) + " B for " + t.iface) +
                  ",\"ts\":" + num(ts) + ",\"dur\":" + num(dur) + ",\"args\":{\"bytes\":" +
                  std::to_string(x.bytes) + ",\"src_node\":" + std::to_string(x.src_node) +
                  ",\"dst_node\":" + std::to_string(x.dst_node) +
                  ",\"src\":" + json_string(node_name(x.src_node)) +
                  ",\"dst\":" + json_string(node_name(x.dst_node)) +
                  ",\"interface\":" + json_string(t.iface) + ",\"call\":" + std::to_string(t.call) +
                  ",\"buffer\":" + std::to_string(x.buffer) +
                  ",\"prefetch\":" + (x.prefetch ? "true" : "false") + "}}");
    add_event(r, text,
              "{\"ph\":\"s\",\"cat\":\"transfer\",\"name\":\"data for task\",\"id\":" + id +
                  ",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) +
                  ",\"ts\":" + num(ts) + "}");
    add_event(r, text,
              "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"transfer\",\"name\":\"data for "
              "task\",\"id\":" +
                  id + ",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(t.worker) +
                  ",\"ts\":" + num(start) + "}");
  }
}

// Writes the finished tasks of @p chunk to the trace (with r.mutex held).
void write_chunk(Recorder& r, const Chunk& chunk) {
  std::string text;
  for (const TaskRecord& t : chunk.records)
    if (t.state.load(std::memory_order_acquire) == RecordState::Finished && t.worker >= 0)
      task_events(r, t, text);
  write_text(r, text);
}

// Forgets the claims made before @p time: every task still in flight was submitted (so
// pushed) after it, so such a claim never stops one from taking a transfer.
void forget_claims_before(Recorder& r, double time) {
  std::lock_guard<std::mutex> lock(r.claims_mutex);
  for (auto it = r.claims.begin(); it != r.claims.end();)
    it = it->second < time ? r.claims.erase(it) : std::next(it);
}

// Writes and frees every retired chunk whose tasks all ended or went (with r.mutex held).
void write_finished_chunks(Recorder& r) {
  // The oldest task in flight; a record given out while this looks is pushed after now.
  double oldest = starpu_timing_now();
  std::vector<std::unique_ptr<Chunk>> kept;
  for (auto& chunk : r.chunks) {
    bool done = chunk->retired;
    // A chunk's records are given out in submission order: its first pending one is its
    // oldest task in flight.
    for (const TaskRecord& t : chunk->records) {
      if (t.state.load(std::memory_order_acquire) != RecordState::Pending) continue;
      done = false;
      oldest = std::min(oldest, t.submit);
      break;
    }
    if (done) {
      write_chunk(r, *chunk);
    } else {
      kept.push_back(std::move(chunk));
    }
  }
  r.chunks.swap(kept);
  forget_claims_before(r, oldest);
}

// otherData: the StarPU performance model of each traced interface that keeps a history
// (its symbol), and which variant each implementation of the codelet is. The generated
// selector lists the variants in codelet order (compose's plan: CPU/OPENMP, CUDA, OPENCL,
// each group in slot order), so a variant's implementation index is its rank in its group.
std::string other_data(const Recorder& r) {
  std::string out;
  for (const VariantSelector* s : selectors()) {
    auto it = r.models.find(s->interface_name());
    if (it == r.models.end()) continue;
    std::map<std::string, int> next_impl;
    std::string impls;
    for (std::size_t k = 0; k < s->variants().size(); ++k) {
      const std::string backend = k < s->backends().size() ? s->backends()[k] : kBackends[0].name;
      // The codelet's array that holds the variant ("cpu": CPU and OPENMP share cpu_funcs).
      const char* arch = (k < s->backends().size() ? s->backend(k) : kBackends[0]).arch;
      impls += std::string(impls.empty() ? "" : ",") +
               "{\"variant\":" + json_string(s->variants()[k]) +
               ",\"backend\":" + json_string(backend) + ",\"arch\":\"" + arch +
               "\",\"impl\":" + std::to_string(next_impl[arch]++) + "}";
    }
    const Model& m = it->second;
    const char* type = m.type == STARPU_HISTORY_BASED      ? "history"
                       : m.type == STARPU_REGRESSION_BASED ? "regression"
                                                           : "nl-regression";
    out += std::string(out.empty() ? "" : ",\n") + "{\"interface\":" + json_string(it->first) +
           ",\"symbol\":" + json_string(m.symbol) + ",\"type\":\"" + type +
           "\",\"implementations\":[" + impls + "]}";
  }
  return "\"otherData\":{\"producer\":\"peppher runtime\",\"time_unit\":\"us\",\n\"models\":[\n" +
         out + "]}";
}

// Opens a fresh temporary next to @p path for the trace (never through a link, never a
// FIFO or device put there meanwhile), with the permissions of the file it will replace.
// Returns "" or why not, said after the path's name.
std::string open_output(Recorder& r, const std::string& path) {
  std::string tmp;
  if (std::string problem = files::create_temporary(path, tmp); !problem.empty()) return problem;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  std::FILE* out = nullptr;
  int error = fd < 0 ? errno : 0;
  if (error == 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) error = EEXIST;
  if (error == 0 && ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    ::fchmod(fd, st.st_mode & 07777);  // keeps the file's permissions
  if (error == 0 && (out = ::fdopen(fd, "w")) == nullptr) error = errno;
  if (error != 0) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    return std::string("cannot be written (") + std::strerror(error) + ")";
  }
  r.path = path;
  r.tmp = tmp;
  r.out = out;
  r.error = 0;
  return "";
}

// Closes the temporary and renames it onto the trace's path. Returns "" or why not (then
// no temporary is left and the path is as it was).
std::string close_output(Recorder& r) {
  std::FILE* out = std::exchange(r.out, nullptr);
  if (out == nullptr) return "";
  if (std::fflush(out) != 0 && r.error == 0) r.error = errno;
  if (std::fclose(out) != 0 && r.error == 0) r.error = errno;
  if (r.error == 0) return files::replace_with(r.tmp, r.path);
  ::unlink(r.tmp.c_str());
  return std::string("cannot be written (") + std::strerror(r.error) + ")";
}

void say_not_written(const std::string& path, const std::string& problem) {
  std::cerr << "peppher: the trace was not written: '" << path << "' " << problem << "\n";
}

}  // namespace

void trace_attach(starpu_task* task, const char* iface, int block) {
  TaskRecord* rec = new_record();
  rec->task = task;
  rec->cl = task->cl;
  rec->iface = iface;
  rec->block = block;
  if (block <= 0) t_call = ++recorder().next_call;
  rec->call = t_call;
  rec->user_callback = task->callback_func;
  rec->user_arg = task->callback_arg;
  task->callback_func = task_done;
  task->callback_arg = rec;
  task->callback_arg_free = 0;
  // With one memory node nothing ever moves: no transfer to look for.
  if (!recorder().several_nodes) return;
  task->prologue_callback_pop_func = task_popped;
  task->prologue_callback_pop_arg = rec;
  task->prologue_callback_pop_arg_free = 0;
  if (task->prologue_callback_func == nullptr) {
    task->prologue_callback_func = task_pushed;
    task->prologue_callback_arg = rec;
    task->prologue_callback_arg_free = 0;
  }
}

void trace_detach(starpu_task* task) noexcept {
  if (task->callback_func != task_done) return;
  auto* rec = static_cast<TaskRecord*>(task->callback_arg);
  task->callback_func = rec->user_callback;
  task->callback_arg = rec->user_arg;
  if (task->prologue_callback_pop_func == task_popped) {
    task->prologue_callback_pop_func = nullptr;
    task->prologue_callback_pop_arg = nullptr;
  }
  if (task->prologue_callback_func == task_pushed) {
    task->prologue_callback_func = nullptr;
    task->prologue_callback_arg = nullptr;
  }
  rec->state.store(RecordState::Detached, std::memory_order_release);  // may be freed now
}

void trace_variant(const ExecutionCounter* counter) noexcept {
  if (t_nested_depth > 0) return;  // a nested call: the task's record keeps its own variant
  starpu_task* task = starpu_task_get_current();
  if (task != nullptr && task->callback_func == task_done) {
    auto* rec = static_cast<TaskRecord*>(task->callback_arg);
    // The variant starts once its data is on its worker's node.
    rec->start = rec->fetch_end = starpu_timing_now();
    rec->worker = starpu_worker_get_id();
    rec->variant = counter;
    rec->impl = static_cast<int>(starpu_task_get_implementation(task));
    rec->predicted = task->predicted;  // set by a dm* scheduler at the push
    // Not set (pheft, a task StarPU calibrates): a regression model's law for this worker
    // (a combined one for a parallel task) and implementation, which reads the model only.
    if (!(rec->predicted > 0) && task->cl != nullptr && task->cl->model != nullptr) {
      const int combined = starpu_combined_worker_get_id();
      rec->predicted =
          regression_us(task->cl->model, task,
                        starpu_worker_get_perf_archtype(combined >= 0 ? combined : rec->worker,
                                                        STARPU_NMAX_SCHED_CTXS),
                        static_cast<unsigned>(rec->impl));
    }
  }
}

// A component call run on a worker inside its task (nested_call.h): one span on the
// worker's track, within the task's, category "nested" (peppher-report reads tasks only).
void trace_nested(const ExecutionCounter& counter, double start_us, int depth) noexcept try {
  const double end = starpu_timing_now();
  const int worker = starpu_worker_get_id();
  if (worker < 0) return;  // an OpenMP team thread: no track of its own
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.out == nullptr) return;
  const std::string variant = counter.variant_name();
  std::string text;
  add_event(r, text,
            "{\"ph\":\"X\",\"cat\":\"nested\",\"pid\":" + std::to_string(kPid) +
                ",\"tid\":" + std::to_string(worker) + ",\"name\":" + json_string(variant) +
                ",\"ts\":" + num(start_us - r.origin) + ",\"dur\":" + num(end - start_us) +
                ",\"args\":{\"interface\":" + json_string(counter.interface_name()) +
                ",\"variant\":" + json_string(variant) + ",\"backend\":" +
                json_string(counter.backend()) + ",\"depth\":" + std::to_string(depth) + "}}");
  write_text(r, text);
} catch (...) {
  // An allocation failed: the span is left out of the trace.
}

void trace_here(const ExecutionCounter& counter, double start_us) noexcept try {
  const double end = starpu_timing_now();
  Recorder& r = recorder();
  const unsigned long call = ++r.next_call;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.out == nullptr) return;
  std::string text;
  // A track per thread of the program's that ran a variant itself, "calling thread" for the
  // first (the main thread, as a rule), named by its thread id after that.
  const pid_t thread = gettid();
  auto [it, fresh] =
      r.here_tid.try_emplace(thread, kFirstHereTid + static_cast<int>(r.here_tid.size()));
  const std::string track =
      it->second == kFirstHereTid ? "calling thread" : "calling thread " + std::to_string(thread);
  if (fresh) add_event(r, text, metadata("thread_name", it->second, track, it->second));
  const std::string variant = counter.variant_name();
  const double start = start_us - r.origin;
  r.last = std::max(r.last, end - r.origin);
  add_event(r, text,
            "{\"ph\":\"X\",\"cat\":\"task\",\"pid\":" + std::to_string(kPid) +
                ",\"tid\":" + std::to_string(it->second) + ",\"name\":" + json_string(variant) +
                ",\"ts\":" + num(start) + ",\"dur\":" + num(end - start_us) +
                ",\"args\":{\"interface\":" + json_string(counter.interface_name()) +
                ",\"variant\":" + json_string(variant) +
                ",\"backend\":" + json_string(counter.backend()) +
                ",\"worker\":" + json_string(track) + ",\"call\":" + std::to_string(call) +
                ",\"submit_us\":" + num(start) + ",\"fetch_us\":0,\"bytes_in\":0}}");
  write_text(r, text);
} catch (...) {
  // An allocation failed: the span is left out of the trace.
}

void trace_start(const std::string& path) {
  Recorder& r = recorder();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.out != nullptr) {  // a session never stopped: its trace is dropped
      std::fclose(std::exchange(r.out, nullptr));
      ::unlink(r.tmp.c_str());
    }
    r.chunks.clear();
    r.session.fetch_add(1);
    if (const std::string problem = open_output(r, path); !problem.empty()) {
      say_not_written(path, problem);
      return;
    }
    {
      std::lock_guard<std::mutex> claims_lock(r.claims_mutex);
      r.claims.clear();
    }
    r.several_nodes = starpu_memory_nodes_get_count() > 1;
    r.origin = starpu_timing_now();
    r.last = 0;
    r.flow = 0;
    r.link_tid.clear();
    r.here_tid.clear();
    r.models.clear();
    r.any_event = false;
    std::string text = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    add_event(r, text,
              "{\"ph\":\"M\",\"pid\":" + std::to_string(kPid) +
                  ",\"name\":\"process_name\",\"args\":{\"name\":" +
                  json_string("PEPPHER " + program_name()) + "}}");
    const unsigned nworkers = starpu_worker_get_count();
    for (unsigned w = 0; w < nworkers; ++w) {
      const int id = static_cast<int>(w);
      add_event(r, text, metadata("thread_name", id, worker_name(id), id));
    }
    write_text(r, text);
  }
  const int nbus = starpu_bus_get_count();
  for (int b = 0; b < nbus; ++b) starpu_bus_get_profiling_info(b, nullptr);  // resets
  g_tracing.store(true);
}

void trace_stop() {
  if (!g_tracing.exchange(false)) return;
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.session.fetch_add(1);  // no thread reuses a chunk of this session
  // Every task has ended: the rest of the records are written, then freed with their chunks.
  for (const auto& chunk : r.chunks) write_chunk(r, *chunk);
  r.chunks.clear();
  {
    std::lock_guard<std::mutex> claims_lock(r.claims_mutex);
    r.claims.clear();
  }
  // StarPU's own bus counters: every transfer of the run, including those no task waited
  // for (prefetches, host accesses, bringing data home at shutdown).
  std::string text;
  const int nbus = starpu_bus_get_count();
  for (int b = 0; b < nbus; ++b) {
    starpu_profiling_bus_info info{};
    starpu_bus_get_profiling_info(b, &info);
    if (info.transfer_count <= 0) continue;
    const Link link{starpu_bus_get_src(b), starpu_bus_get_dst(b)};
    const int tid = link_track(r, link, text);
    add_event(r, text,
              "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"bus\",\"name\":\"bus total\",\"pid\":" +
                  std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" +
                  num(r.last) + ",\"args\":{\"bytes\":" + std::to_string(info.transferred_bytes) +
                  ",\"transfers\":" + std::to_string(info.transfer_count) +
                  ",\"src\":" + json_string(node_name(link.src)) +
                  ",\"dst\":" + json_string(node_name(link.dst)) + "}}");
  }
  text += (r.any_event ? "\n]," : "],") + other_data(r) + "}\n";
  write_text(r, text);
  r.models.clear();
  r.link_tid.clear();
  // Whole or not at all, never through a link nor over a device (files::replace_with).
  if (const std::string problem = close_output(r); !problem.empty())
    say_not_written(r.path, problem);
}

std::size_t trace_records_held() {
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.chunks.size() * kChunkRecords;
}

}  // namespace peppher::detail
