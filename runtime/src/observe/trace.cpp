// The execution trace (PEPPHER_TRACE=run.json / Config::trace_file): every component call's
// tasks and the data transfers made for them (fetched by the worker, or prefetched by StarPU
// when the task was pushed to its worker), recorded with hooks on each task and StarPU's bus
// counters (no FxT), written at shutdown in the Chrome trace-event JSON format (Perfetto,
// chrome://tracing): one track per worker, one per bus link, a flow from each transfer to
// the task it was made for. Times come from StarPU's clock (starpu_timing_now) taken in the
// task's own hooks, not from StarPU's profiling, which costs several microseconds per task
// (bus counters are kept by StarPU either way). The trace also names each interface's StarPU
// performance model and which variant each codelet implementation is, so peppher-report can plot
// the models.
#include "observe/trace.h"

#include <starpu.h>
#include <starpu_profiling.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/files.h"
#include "observe/worker_names.h"
#include "peppher/detail/backends.h"
#include "peppher/detail/trace.h"
#include "peppher/execution_counter.h"
#include "peppher/selection.h"

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

// One task of a component call, from submission to the end of its callback.
struct TaskRecord {
  starpu_task* task = nullptr;
  const starpu_codelet* cl = nullptr;  // names the interface's performance model
  const char* iface = nullptr;
  int block = -1;
  unsigned long call = 0;
  const ExecutionCounter* variant = nullptr;
  int impl = -1;  // the codelet implementation StarPU ran (its performance model's index)
  void (*user_callback)(void*) = nullptr;
  void* user_arg = nullptr;
  int worker = -1;
  double submit = 0, start = 0, end = 0, fetch_start = 0, fetch_end = 0;
  double pushed = 0;  // when StarPU pushed it to the scheduler (ready)
  // Per read buffer (the first kPushedBuffers): the nodes with a valid copy then.
  std::array<std::uint64_t, kPushedBuffers> valid{};
  bool pushed_seen = false;
  std::vector<Transfer> transfers;
  bool finished = false;  // its callback ran
};

// Records are carved out of chunks each submitting thread takes for itself (no malloc, no
// lock per task: per-task allocations contended with StarPU's own in glibc's arena), and
// stay there until trace_stop, after every task ended (a record belongs to StarPU's task
// until its callback ran).
constexpr std::size_t kChunkRecords = 512;
struct Chunk {
  std::array<TaskRecord, kChunkRecords> records;
};

struct Recorder {
  std::mutex mutex;
  std::string path;
  std::vector<std::unique_ptr<Chunk>> chunks;
  std::atomic<unsigned> session{0};  // a thread's chunk from an earlier session is not reused
  std::atomic<unsigned long> next_call{0};
  bool several_nodes = false;  // the machine has memory nodes data can move between
  // When a task last took a transfer of (handle, node) as its own: a task pushed before that
  // which also finds the data arrived did not cause another transfer.
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

TaskRecord* new_record() {
  Recorder& r = recorder();
  const unsigned session = r.session.load(std::memory_order_relaxed);
  if (t_chunk == nullptr || t_used == kChunkRecords || t_session != session) {
    auto chunk = std::make_unique<Chunk>();
    std::lock_guard<std::mutex> lock(r.mutex);
    t_chunk = r.chunks.emplace_back(std::move(chunk)).get();
    t_used = 0;
    t_session = session;
  }
  return &t_chunk->records[t_used++];
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
  if (rec->start <= 0) rec->start = rec->fetch_start > 0 ? rec->fetch_start : rec->end;
  if (rec->fetch_end <= 0) rec->fetch_end = rec->start;
  rec->task = nullptr;  // StarPU destroys the task after this callback
  rec->finished = true;
  if (rec->user_callback != nullptr) rec->user_callback(rec->user_arg);
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

struct Link {
  int src, dst;
  bool operator<(const Link& o) const { return std::tie(src, dst) < std::tie(o.src, o.dst); }
};

constexpr int kPid = 1;
constexpr int kFirstLinkTid = 1000;  // worker tracks are the worker ids, links follow

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

// The StarPU performance model of each traced interface that keeps a history (its symbol),
// and which variant each implementation of the codelet is. The generated selector lists
// the variants in codelet order (compose's plan: CPU/OPENMP, CUDA, OPENCL, each group in
// slot order), so a variant's implementation index is its rank in its group.
std::string models_json(const std::vector<const TaskRecord*>& records) {
  std::map<std::string, const starpu_perfmodel*> models;
  for (const TaskRecord* r : records) {
    const starpu_perfmodel* m = r->cl != nullptr ? r->cl->model : nullptr;
    if (m == nullptr || m->symbol == nullptr) continue;
    if (m->type != STARPU_HISTORY_BASED && m->type != STARPU_REGRESSION_BASED &&
        m->type != STARPU_NL_REGRESSION_BASED)
      continue;
    models.emplace(r->iface, m);
  }
  std::string out;
  for (const VariantSelector* s : selectors()) {
    auto it = models.find(s->interface_name());
    if (it == models.end()) continue;
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
    const starpu_perfmodel* m = it->second;
    const char* type = m->type == STARPU_HISTORY_BASED      ? "history"
                       : m->type == STARPU_REGRESSION_BASED ? "regression"
                                                            : "nl-regression";
    out += std::string(out.empty() ? "" : ",\n") + "{\"interface\":" + json_string(it->first) +
           ",\"symbol\":" + json_string(m->symbol) + ",\"type\":\"" + type +
           "\",\"implementations\":[" + impls + "]}";
  }
  return out;
}

// The whole trace as Chrome trace-event JSON (object form, times in microseconds from the
// first submission).
// The trace's events, appended to its text as they are made (no list of them beside it,
// which held as much again at shutdown): ",\n" between two, "\n" after the last.
class Events {
 public:
  explicit Events(std::string& out) : out_(out) {}
  void push_back(const std::string& event) {
    if (any_) out_ += ",\n";
    out_ += event;
    any_ = true;
  }
  void end() {
    if (any_) out_ += "\n";
  }

 private:
  std::string& out_;
  bool any_ = false;
};

std::string render(const std::vector<const TaskRecord*>& records,
                   const std::map<Link, starpu_profiling_bus_info>& bus) {
  std::vector<const TaskRecord*> tasks;
  for (const TaskRecord* r : records)
    if (r->worker >= 0) tasks.push_back(r);
  std::sort(tasks.begin(), tasks.end(),
            [](const TaskRecord* a, const TaskRecord* b) { return a->start < b->start; });
  double origin = tasks.empty() ? 0 : tasks.front()->submit;
  for (const TaskRecord* t : tasks) origin = std::min(origin, t->submit);

  std::map<Link, int> link_tid;
  for (const auto& [link, info] : bus)
    if (info.transfer_count > 0) link_tid.emplace(link, 0);
  for (const TaskRecord* t : tasks)
    for (const Transfer& x : t->transfers) link_tid.emplace(Link{x.src_node, x.dst_node}, 0);
  int next_tid = kFirstLinkTid;
  for (auto& [link, tid] : link_tid) tid = next_tid++;

  std::string out =
      "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"peppher "
      "runtime\",\"time_unit\":\"us\",\n\"models\":[\n" +
      models_json(records) + "]},\n\"traceEvents\":[\n";
  Events events(out);
  events.push_back("{\"ph\":\"M\",\"pid\":" + std::to_string(kPid) +
                   ",\"name\":\"process_name\",\"args\":{\"name\":" +
                   json_string("PEPPHER " + program_name()) + "}}");
  const unsigned nworkers = starpu_worker_get_count();
  for (unsigned w = 0; w < nworkers; ++w) {
    const int id = static_cast<int>(w);
    events.push_back(metadata("thread_name", id, worker_name(id), id));
  }
  for (const auto& [link, tid] : link_tid) {
    events.push_back(metadata("thread_name", tid,
                              "bus " + node_name(link.src) + " -> " + node_name(link.dst), tid));
  }

  unsigned long flow = 0;
  double last = 0;
  for (const TaskRecord* t : tasks) {
    const std::string variant = t->variant != nullptr ? t->variant->variant_name() : "unknown";
    const std::string backend = t->variant != nullptr ? t->variant->backend() : "unknown";
    const std::string worker = worker_name(t->worker);
    std::size_t bytes_in = 0;
    for (const Transfer& x : t->transfers) bytes_in += x.bytes;
    const double start = t->start - origin;
    last = std::max(last, t->end - origin);
    std::string e = "{\"ph\":\"X\",\"cat\":\"task\",\"pid\":" + std::to_string(kPid) +
                    ",\"tid\":" + std::to_string(t->worker) + ",\"name\":" + json_string(variant) +
                    ",\"ts\":" + num(start) + ",\"dur\":" + num(t->end - t->start) +
                    ",\"args\":{\"interface\":" + json_string(t->iface) +
                    ",\"variant\":" + json_string(variant) +
                    ",\"backend\":" + json_string(backend) + ",\"worker\":" + json_string(worker) +
                    ",\"call\":" + std::to_string(t->call);
    if (t->block >= 0) e += ",\"block\":" + std::to_string(t->block);
    // The implementation index under which the interface's model files this run (forced
    // and statically dispatched calls run a single-variant codelet without a model).
    if (t->impl >= 0 && t->cl != nullptr && t->cl->model != nullptr)
      e += ",\"impl\":" + std::to_string(t->impl);
    e += ",\"submit_us\":" + num(t->submit - origin) +
         ",\"fetch_us\":" + num(t->fetch_end - t->fetch_start) +
         ",\"bytes_in\":" + std::to_string(bytes_in) + "}}";
    events.push_back(std::move(e));
    for (const Transfer& x : t->transfers) {
      const int tid = link_tid.at(Link{x.src_node, x.dst_node});
      double ts = 0, dur = 0;
      if (x.prefetch) {
        // Prefetched when the task was pushed; done by the time the worker found it (or by
        // the end of the task's fetch when it was still on its way): drawn over that window.
        const double to = x.to > 0 ? x.to : std::max(t->fetch_end, x.from);
        ts = x.from - origin;
        dur = to - x.from;
      } else {
        // The fetch interval covers all of the task's fetches.
        ts = t->fetch_start - origin;
        dur = t->fetch_end - t->fetch_start;
      }
      // A zero-length (or unknown) interval is drawn as one microsecond ending at the task's
      // start.
      if (!(dur > 0) || ts + origin <= 0) {
        dur = 1;
        ts = start - dur;
      }
      const std::string id = std::to_string(++flow);
      events.push_back("{\"ph\":\"X\",\"cat\":\"transfer\",\"pid\":" + std::to_string(kPid) +
                       ",\"tid\":" + std::to_string(tid) +
                       ",\"name\":" + json_string(std::to_string(x.bytes) + " B for " + t->iface) +
                       ",\"ts\":" + num(ts) + ",\"dur\":" + num(dur) + ",\"args\":{\"bytes\":" +
                       std::to_string(x.bytes) + ",\"src_node\":" + std::to_string(x.src_node) +
                       ",\"dst_node\":" + std::to_string(x.dst_node) +
                       ",\"src\":" + json_string(node_name(x.src_node)) +
                       ",\"dst\":" + json_string(node_name(x.dst_node)) + ",\"interface\":" +
                       json_string(t->iface) + ",\"call\":" + std::to_string(t->call) +
                       ",\"buffer\":" + std::to_string(x.buffer) +
                       ",\"prefetch\":" + (x.prefetch ? "true" : "false") + "}}");
      events.push_back("{\"ph\":\"s\",\"cat\":\"transfer\",\"name\":\"data for task\",\"id\":" +
                       id + ",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) +
                       ",\"ts\":" + num(ts) + "}");
      events.push_back(
          "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"transfer\",\"name\":\"data for "
          "task\",\"id\":" +
          id + ",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(t->worker) +
          ",\"ts\":" + num(start) + "}");
    }
  }
  // StarPU's own bus counters: every transfer of the run, including those no task waited
  // for (prefetches, host accesses, bringing data home at shutdown).
  for (const auto& [link, info] : bus) {
    if (info.transfer_count <= 0) continue;
    events.push_back("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"bus\",\"name\":\"bus total\",\"pid\":" +
                     std::to_string(kPid) + ",\"tid\":" + std::to_string(link_tid.at(link)) +
                     ",\"ts\":" + num(last) +
                     ",\"args\":{\"bytes\":" + std::to_string(info.transferred_bytes) +
                     ",\"transfers\":" + std::to_string(info.transfer_count) +
                     ",\"src\":" + json_string(node_name(link.src)) +
                     ",\"dst\":" + json_string(node_name(link.dst)) + "}}");
  }

  events.end();
  out += "]}\n";
  return out;
}

}  // namespace

void trace_attach(starpu_task* task, const char* iface, int block) {
  TaskRecord* rec = new_record();
  rec->task = task;
  rec->cl = task->cl;
  rec->iface = iface;
  rec->block = block;
  rec->submit = starpu_timing_now();
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
  const auto* rec = static_cast<TaskRecord*>(task->callback_arg);  // stays unfinished
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
}

void trace_variant(const ExecutionCounter* counter) noexcept {
  starpu_task* task = starpu_task_get_current();
  if (task != nullptr && task->callback_func == task_done) {
    auto* rec = static_cast<TaskRecord*>(task->callback_arg);
    // The variant starts once its data is on its worker's node.
    rec->start = rec->fetch_end = starpu_timing_now();
    rec->worker = starpu_worker_get_id();
    rec->variant = counter;
    rec->impl = static_cast<int>(starpu_task_get_implementation(task));
  }
}

void trace_start(const std::string& path) {
  Recorder& r = recorder();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    r.path = path;
    r.chunks.clear();
    r.session.fetch_add(1);
    r.several_nodes = starpu_memory_nodes_get_count() > 1;
  }
  const int nbus = starpu_bus_get_count();
  for (int b = 0; b < nbus; ++b) starpu_bus_get_profiling_info(b, nullptr);  // resets
  g_tracing.store(true);
}

void trace_stop() {
  if (!g_tracing.exchange(false)) return;
  std::map<Link, starpu_profiling_bus_info> bus;
  const int nbus = starpu_bus_get_count();
  for (int b = 0; b < nbus; ++b) {
    starpu_profiling_bus_info info{};
    starpu_bus_get_profiling_info(b, &info);
    bus[Link{starpu_bus_get_src(b), starpu_bus_get_dst(b)}] = info;
  }
  Recorder& r = recorder();
  // Every task has ended: the records are written, then freed with their chunks.
  std::vector<std::unique_ptr<Chunk>> chunks;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    chunks.swap(r.chunks);
    path.swap(r.path);
    r.session.fetch_add(1);  // no thread reuses a chunk of this session
  }
  std::vector<const TaskRecord*> records;
  for (const auto& chunk : chunks)
    for (const TaskRecord& rec : chunk->records)
      if (rec.finished) records.push_back(&rec);
  // Whole or not at all, never through a link nor over a device (files::write_file).
  if (const std::string problem = files::write_file(path, render(records, bus)); !problem.empty())
    std::cerr << "peppher: the trace was not written: '" << path << "' " << problem << "\n";
}

}  // namespace peppher::detail
