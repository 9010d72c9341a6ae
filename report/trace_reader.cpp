// The trace reader (see trace_reader.h).
#include "report/trace_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace peppher::report {
namespace {

using nlohmann::json;

// Bounds of what a trace's whole numbers may hold: thread and block ids fit an int; counts
// and bytes stay below 2^53, where a double still holds every whole number.
constexpr long long kMinId = -2147483647LL - 1, kMaxId = 2147483647LL;
constexpr long long kMaxCount = 9007199254740992LL;

// "line:col" of byte @p offset of @p text (1-based).
std::string position(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

class EventReader {
 public:
  EventReader(const std::string& path, std::size_t index, const json& e)
      : path_(path), index_(index), e_(e) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw perfdata::ReportError(path_ + ": error: traceEvents[" + std::to_string(index_) +
                                "]: " + what);
  }
  const json& field(const char* name) const {
    auto it = e_.find(name);
    if (it == e_.end()) fail(std::string("no '") + name + "' field");
    return *it;
  }
  double number(const json& j, const char* name) const {
    auto it = j.find(name);
    if (it == j.end() || !it->is_number()) fail(std::string("'") + name + "' is not a number");
    return it->get<double>();
  }
  std::string text(const json& j, const char* name) const {
    auto it = j.find(name);
    if (it == j.end() || !it->is_string()) fail(std::string("'") + name + "' is not a string");
    return it->get<std::string>();
  }
  const json& args() const {
    const json& a = field("args");
    if (!a.is_object()) fail("'args' is not an object");
    return a;
  }
  double number(const char* name) const { return number(e_, name); }
  std::string text(const char* name) const { return text(e_, name); }
  // A finite number, for times: a file may hold anything (1e308, -1e308).
  double time(const json& j, const char* name) const {
    const double v = number(j, name);
    if (!std::isfinite(v)) fail(std::string("'") + name + "' is not a finite number");
    return v;
  }
  double time(const char* name) const { return time(e_, name); }
  // A whole number in [lo, hi], for counts, bytes and ids (a cast of anything else would be
  // undefined, and a negative byte count printed as 17592186044416.0 MiB).
  long long whole(const json& j, const char* name, long long lo, long long hi) const {
    const double v = number(j, name);
    if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != std::floor(v))
      fail(std::string("'") + name + "' is not a whole number from " + std::to_string(lo) + " to " +
           std::to_string(hi));
    return static_cast<long long>(v);
  }
  long long whole(const char* name, long long lo, long long hi) const {
    return whole(e_, name, lo, hi);
  }

 private:
  const std::string& path_;
  std::size_t index_;
  const json& e_;
};

// otherData.models: each interface's StarPU performance model and which variant each
// implementation of its codelet is (optional: traces of programs without models).
void read_models(const json& doc, const std::string& path, perfdata::Trace& trace) {
  auto other = doc.find("otherData");
  if (other == doc.end() || !other->is_object()) return;
  auto models = other->find("models");
  if (models == other->end()) return;
  auto fail = [&](const std::string& where, const std::string& what) {
    throw perfdata::ReportError(path + ": error: otherData.models" + where + ": " + what);
  };
  if (!models->is_array()) fail("", "not an array");
  auto text = [&](const json& j, const char* name, const std::string& where) {
    auto it = j.find(name);
    if (it == j.end() || !it->is_string())
      fail(where, std::string("'") + name + "' is not a string");
    return it->get<std::string>();
  };
  for (std::size_t i = 0; i < models->size(); ++i) {
    const json& m = (*models)[i];
    const std::string where = "[" + std::to_string(i) + "]";
    if (!m.is_object()) fail(where, "not an object");
    perfdata::ModelRef ref;
    ref.iface = text(m, "interface", where);
    ref.symbol = text(m, "symbol", where);
    ref.type = text(m, "type", where);
    auto impls = m.find("implementations");
    if (impls == m.end() || !impls->is_array()) fail(where, "'implementations' is not an array");
    for (std::size_t k = 0; k < impls->size(); ++k) {
      const json& x = (*impls)[k];
      const std::string at = where + ".implementations[" + std::to_string(k) + "]";
      if (!x.is_object()) fail(at, "not an object");
      auto impl = x.find("impl");
      if (impl == x.end() || !impl->is_number_integer() || impl->get<int>() < 0)
        fail(at, "'impl' is not an implementation index");
      ref.impls.push_back(
          {text(x, "variant", at), text(x, "backend", at), text(x, "arch", at), impl->get<int>()});
    }
    trace.models.push_back(std::move(ref));
  }
}

}  // namespace

perfdata::Trace parse_trace(const std::string& text, const std::string& path) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    const bool truncated = e.byte >= text.size();
    throw perfdata::ReportError(
        path + ":" + position(text, e.byte > 0 ? e.byte - 1 : 0) + ": error: not a valid trace: " +
        (truncated ? "the file ends too early (truncated?)" : "JSON syntax error") + " (" +
        e.what() + ")");
  } catch (const json::exception& e) {  // a number beyond a double (1e999), and the like
    throw perfdata::ReportError(path + ": error: not a valid trace: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    throw perfdata::ReportError(path +
                                ": error: not a PEPPHER trace: no \"traceEvents\" array (write "
                                "one with PEPPHER_TRACE=FILE)");
  }
  perfdata::Trace trace;
  trace.file = path;
  read_models(doc, path, trace);
  std::map<int, std::string> link_names;
  const json& events = doc["traceEvents"];
  for (std::size_t i = 0; i < events.size(); ++i) {
    const json& e = events[i];
    if (!e.is_object()) {
      throw perfdata::ReportError(path + ": error: traceEvents[" + std::to_string(i) +
                                  "] is not an object");
    }
    EventReader r(path, i, e);
    const std::string ph = r.text("ph");
    const std::string cat =
        e.contains("cat") && e["cat"].is_string() ? e["cat"].get<std::string>() : "";
    if (ph == "M") {
      const std::string what = r.text("name");
      if (what == "process_name") trace.program = r.text(r.args(), "name");
      if (what != "thread_name") continue;
      const int tid = static_cast<int>(r.whole("tid", kMinId, kMaxId));
      const std::string name = r.text(r.args(), "name");
      if (name.rfind("bus ", 0) == 0) {
        trace.links.push_back({tid, name.substr(4)});
      } else {
        trace.workers.push_back({tid, name});
      }
    } else if (ph == "X" && cat == "task") {
      const json& a = r.args();
      perfdata::TaskSpan t;
      t.tid = static_cast<int>(r.whole("tid", kMinId, kMaxId));
      t.ts = r.time("ts");
      t.dur = r.time("dur");
      t.iface = r.text(a, "interface");
      t.variant = r.text(a, "variant");
      t.backend = r.text(a, "backend");
      t.worker = r.text(a, "worker");
      t.call = static_cast<long>(r.whole(a, "call", 0, kMaxCount));
      t.block = a.contains("block") ? static_cast<int>(r.whole(a, "block", 0, kMaxId)) : -1;
      t.submit = r.time(a, "submit_us");
      t.bytes_in = static_cast<std::size_t>(r.whole(a, "bytes_in", 0, kMaxCount));
      if (t.dur < 0) r.fail("negative duration");
      trace.tasks.push_back(std::move(t));
    } else if (ph == "X" && cat == "transfer") {
      const json& a = r.args();
      perfdata::TransferSpan t;
      t.tid = static_cast<int>(r.whole("tid", kMinId, kMaxId));
      t.ts = r.time("ts");
      t.dur = r.time("dur");
      if (t.dur < 0) r.fail("negative duration");
      t.bytes = static_cast<std::size_t>(r.whole(a, "bytes", 0, kMaxCount));
      t.src = r.text(a, "src");
      t.dst = r.text(a, "dst");
      t.iface = r.text(a, "interface");
      t.call = static_cast<long>(r.whole(a, "call", 0, kMaxCount));
      trace.transfers.push_back(std::move(t));
    } else if (ph == "i" && cat == "bus") {
      const json& a = r.args();
      trace.bus.push_back({r.text(a, "src"), r.text(a, "dst"),
                           static_cast<std::size_t>(r.whole(a, "bytes", 0, kMaxCount)),
                           static_cast<long>(r.whole(a, "transfers", 0, kMaxCount))});
    }
  }
  std::sort(trace.workers.begin(), trace.workers.end(),
            [](const perfdata::Track& a, const perfdata::Track& b) { return a.tid < b.tid; });
  for (const perfdata::TaskSpan& t : trace.tasks) {
    const bool known = std::any_of(trace.workers.begin(), trace.workers.end(),
                                   [&](const perfdata::Track& w) { return w.tid == t.tid; });
    if (!known) trace.workers.push_back({t.tid, t.worker});
  }
  return trace;
}

perfdata::Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw perfdata::ReportError(path + ": error: cannot open the trace file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.empty()) throw perfdata::ReportError(path + ": error: the trace file is empty");
  return parse_trace(text, path);
}

}  // namespace peppher::report
