// The trace reader (see trace_reader.h).
#include "report/trace_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace peppher::report {
namespace {

using nlohmann::json;

// Bounds of what a trace's whole numbers may hold: thread and block ids fit an int; counts
// and bytes stay below 2^53, where a double still holds every whole number.
constexpr long long kMinId = -2147483647LL - 1, kMaxId = 2147483647LL;
constexpr long long kMaxCount = 9007199254740992LL;

// "line:col" of byte @p offset of what @p in reads (1-based).
std::string position(std::istream& in, std::size_t offset) {
  std::size_t line = 1, col = 1;
  std::istreambuf_iterator<char> it(in), end;
  for (std::size_t i = 0; i < offset && it != end; ++i, ++it) {
    if (*it == '\n') {
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
void read_models(const json& other, const std::string& path, perfdata::Trace& trace) {
  if (!other.is_object()) return;
  auto models = other.find("models");
  if (models == other.end()) return;
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

// One element of traceEvents, checked and added to @p trace (a perfdata::ReportError
// naming the event and the field when it is not what the runtime writes).
void read_event(const std::string& path, std::size_t i, const json& e, perfdata::Trace& trace) {
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
    if (what != "thread_name") return;
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

// nlohmann::json's SAX interface over the whole file: only one event (and otherData) is
// ever held as a JSON value, built as json::parse would build it and checked by
// read_event as it ends, so memory follows the events kept, not the file's size. The
// first problem is remembered and reported after the whole file is read, in the order a
// whole-file parse gave: JSON syntax, then no traceEvents, then otherData, then events.
class TraceSax {
 public:
  TraceSax(const std::string& path, perfdata::Trace& trace) : path_(path), trace_(trace) {}

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const std::string& /*text*/) { return value(json(v)); }
  bool string(json::string_t& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t& v) { return value(json(std::move(v))); }
  bool start_object(std::size_t /*elements*/) { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (!stack_.empty()) {
      key_ = std::move(k);
    } else if (depth_ == 1) {
      top_key_ = std::move(k);
    }
    return true;
  }
  bool parse_error(std::size_t byte, const std::string& /*token*/,
                   const nlohmann::detail::exception& e) {
    error_byte_ = byte;
    error_id_ = e.id;
    error_ = e.what();
    return false;
  }

  // Where JSON syntax failed (error_ is empty when it did not).
  const std::string& syntax_error() const { return error_; }
  std::size_t error_byte() const { return error_byte_; }
  bool error_is_located() const { return error_id_ >= 100 && error_id_ < 200; }  // parse_error

  // Throws the first problem of the trace's contents, once the file parsed as JSON.
  void finish() {
    if (!root_object_ || !has_events_) {
      throw perfdata::ReportError(path_ +
                                  ": error: not a PEPPHER trace: no \"traceEvents\" array (write "
                                  "one with PEPPHER_TRACE=FILE)");
    }
    read_models(other_, path_, trace_);
    if (!event_error_.empty()) throw perfdata::ReportError(event_error_);
  }

 private:
  bool at_top(const char* name) const { return depth_ == 1 && root_object_ && top_key_ == name; }
  bool starts_value() const { return at_top("otherData") || (depth_ == 2 && in_events_); }

  // Adds @p v to the value being built; returns where it went.
  json* add(json&& v) {
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(v);
    return &slot;
  }
  bool value(json&& v) {
    if (!stack_.empty()) {
      add(std::move(v));
    } else if (starts_value()) {
      built_ = std::move(v);
      done();
    } else if (at_top("traceEvents")) {
      has_events_ = false;
    }
    return true;
  }
  bool open(json&& container) {
    if (!stack_.empty()) {
      stack_.push_back(add(std::move(container)));
    } else if (starts_value()) {
      built_ = std::move(container);
      stack_.push_back(&built_);
    } else if (depth_ == 0) {
      root_object_ = container.is_object();
    } else if (at_top("traceEvents")) {
      in_events_ = has_events_ = container.is_array();
    }
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    if (!stack_.empty()) {
      stack_.pop_back();
      if (stack_.empty()) done();
    } else if (depth_ == 1) {
      in_events_ = false;
    }
    return true;
  }
  // built_ is a whole event or otherData.
  void done() {
    if (depth_ == 1) {
      other_ = std::move(built_);
    } else if (event_error_.empty()) {
      try {
        read_event(path_, events_, built_, trace_);
      } catch (const perfdata::ReportError& e) {
        event_error_ = e.what();
      }
      ++events_;
    }
    built_ = json();
  }

  const std::string& path_;
  perfdata::Trace& trace_;
  std::size_t depth_ = 0;     // containers open
  bool root_object_ = false;  // the file is an object
  std::string top_key_;       // its member being read
  bool has_events_ = false;   // it has a traceEvents array
  bool in_events_ = false;    // inside it
  std::size_t events_ = 0;    // events read
  json built_;                // the event or otherData being built
  std::vector<json*> stack_;  // its containers still open
  std::string key_;           // the member of the innermost being read
  json other_;                // otherData
  std::string event_error_;   // the first event's problem
  std::string error_;         // JSON syntax
  std::size_t error_byte_ = 0;
  int error_id_ = 0;
};

// The trace @p in holds; @p again reads it from the start (for the line and column of a
// syntax error).
perfdata::Trace parse_stream(std::istream& in, const std::string& path,
                             const std::function<std::unique_ptr<std::istream>()>& again) {
  perfdata::Trace trace;
  trace.file = path;
  TraceSax sax(path, trace);
  json::sax_parse(in, &sax);
  if (!sax.syntax_error().empty()) {
    if (!sax.error_is_located())  // a number beyond a double (1e999), and the like
      throw perfdata::ReportError(path + ": error: not a valid trace: " + sax.syntax_error());
    const bool truncated = in.eof();
    const std::size_t byte = sax.error_byte();
    throw perfdata::ReportError(
        path + ":" + position(*again(), byte > 0 ? byte - 1 : 0) + ": error: not a valid trace: " +
        (truncated ? "the file ends too early (truncated?)" : "JSON syntax error") + " (" +
        sax.syntax_error() + ")");
  }
  sax.finish();
  std::sort(trace.workers.begin(), trace.workers.end(),
            [](const perfdata::Track& a, const perfdata::Track& b) { return a.tid < b.tid; });
  std::set<int> known;
  for (const perfdata::Track& w : trace.workers) known.insert(w.tid);
  for (const perfdata::TaskSpan& t : trace.tasks)
    if (known.insert(t.tid).second) trace.workers.push_back({t.tid, t.worker});
  return trace;
}

}  // namespace

perfdata::Trace parse_trace(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  return parse_stream(in, path, [&] { return std::make_unique<std::istringstream>(text); });
}

perfdata::Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw perfdata::ReportError(path + ": error: cannot open the trace file");
  if (in.peek() == std::ifstream::traits_type::eof())
    throw perfdata::ReportError(path + ": error: the trace file is empty");
  return parse_stream(in, path,
                      [&] { return std::make_unique<std::ifstream>(path, std::ios::binary); });
}

}  // namespace peppher::report
