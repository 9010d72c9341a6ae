// The HTML page and the text report (see page.h).
#include "common/page.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "common/figures.h"
#include "common/markup.h"

namespace peppher::perfdata {
namespace {

std::string esc(const std::string& s) {
  return common::xml_escape(s);
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string bytes_text(std::size_t b) {
  if (b >= 10u << 20) return fixed(static_cast<double>(b) / (1 << 20), 1) + " MiB";
  if (b >= 10u << 10) return fixed(static_cast<double>(b) / (1 << 10), 1) + " KiB";
  return std::to_string(b) + " B";
}

std::string size_text(double x) {
  return x == static_cast<double>(static_cast<long long>(x))
             ? std::to_string(static_cast<long long>(x))
             : fixed(x, 1);
}

std::string swatch(const std::vector<std::string>& palette, const std::string& variant) {
  auto it = std::find(palette.begin(), palette.end(), variant);
  const std::size_t k = it == palette.end() ? palette.size() : std::size_t(it - palette.begin());
  return "<span class=\"sw\" style=\"background:" + colour(k) + "\"></span>";
}

const char* const kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    "td.n{text-align:right}th{background:#f0f0f0}"
    ".sw{display:inline-block;width:0.9em;height:0.9em;margin-right:0.4em;vertical-align:middle}"
    ".out{color:#999}img{max-width:100%;border:1px solid #ddd}";

}  // namespace

std::string render_html(const PageInput& in) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << esc(in.title)
    << "</title><style>" << kStyle << "</style></head><body>\n<h1>" << esc(in.title) << "</h1>\n";
  if (in.trace != nullptr) {
    const Summary& s = in.summary;
    h << "<p>Trace <code>" << esc(in.trace->file) << "</code> of <b>" << esc(in.trace->program)
      << "</b>: " << in.trace->tasks.size() << " tasks over " << fixed(s.span_us / 1000, 3)
      << " ms (first submission to last task end), " << in.trace->transfers.size()
      << " transfers that tasks waited for.</p>\n";
    h << "<h2>Workers</h2>\n<img alt=\"Gantt chart of the workers\" src=\"" << esc(in.gantt_png)
      << "\">\n<table><tr><th>worker</th><th>tasks</th><th>busy (ms)</th><th>idle</th></tr>\n";
    for (const WorkerSummary& w : s.workers) {
      h << "<tr><td>" << esc(w.name) << "</td><td class=\"n\">" << w.tasks
        << "</td><td class=\"n\">" << fixed(w.busy_us / 1000, 3) << "</td><td class=\"n\">"
        << fixed(100 * w.idle_share, 1) << " %</td></tr>\n";
    }
    h << "</table>\n<h2>Interfaces</h2>\n<table><tr><th>interface</th><th>calls</th>"
         "<th>tasks</th><th>variant</th><th>worker</th><th>runs</th><th>time (ms)</th>"
         "<th>mean (us)</th><th>bytes moved for it</th></tr>\n";
    for (const InterfaceSummary& i : s.interfaces) {
      const std::size_t n = std::max<std::size_t>(i.runs.size(), 1);
      h << "<tr><td rowspan=\"" << n << "\">" << esc(i.name) << "</td><td class=\"n\" rowspan=\""
        << n << "\">" << i.calls << "</td><td class=\"n\" rowspan=\"" << n << "\">" << i.tasks
        << "</td>";
      for (std::size_t r = 0; r < i.runs.size(); ++r) {
        const VariantOnWorker& v = i.runs[r];
        if (r > 0) h << "<tr>";
        h << "<td>" << swatch(in.palette, v.variant) << esc(v.variant) << "</td><td>"
          << esc(v.worker) << "</td><td class=\"n\">" << v.tasks << "</td><td class=\"n\">"
          << fixed(v.total_us / 1000, 3) << "</td><td class=\"n\">"
          << fixed(v.total_us / static_cast<double>(v.tasks), 1) << "</td>";
        if (r == 0) {
          h << "<td class=\"n\" rowspan=\"" << n << "\">" << bytes_text(i.bytes_moved) << " in "
            << i.transfers << " transfers</td>";
        }
        h << "</tr>\n";
      }
      if (i.runs.empty()) h << "<td colspan=\"6\">no task</td></tr>\n";
    }
    h << "</table>\n";
    if (!in.trace->bus.empty()) {
      h << "<p>StarPU's bus counters over the whole run (including prefetches, host accesses "
           "and data brought home at shutdown):</p>\n<table><tr><th>link</th><th>transfers"
           "</th><th>bytes</th></tr>\n";
      for (const BusTotal& b : in.trace->bus) {
        h << "<tr><td>" << esc(b.src) << " &rarr; " << esc(b.dst) << "</td><td class=\"n\">"
          << b.transfers << "</td><td class=\"n\">" << bytes_text(b.bytes) << "</td></tr>\n";
      }
      h << "</table>\n";
    }
  }
  if (!in.explained.empty()) {
    h << "<h2>Variants kept and left out</h2>\n<table><tr><th>interface</th><th>variant</th>"
         "<th>backend</th><th>composition</th></tr>\n";
    for (const ExplainedInterface& i : in.explained) {
      for (std::size_t k = 0; k < i.variants.size(); ++k) {
        const ExplainedVariant& v = i.variants[k];
        const std::string td = v.left_out_because.empty() ? "<td>" : "<td class=\"out\">";
        h << "<tr>";
        if (k == 0) {
          h << "<td rowspan=\"" << i.variants.size() << "\">" << esc(i.name) << "<br><small>"
            << esc(i.descriptor) << "<br>" << esc(i.note) << "</small></td>";
        }
        h << td << swatch(in.palette, v.name) << esc(v.name) << "</td>" << td << esc(v.backend)
          << "</td>" << td
          << (v.left_out_because.empty() ? "kept" : "left out: " + esc(v.left_out_because))
          << "</td></tr>\n";
      }
    }
    h << "</table>\n";
  }
  if (!in.curves.empty()) {
    h << "<h2>Time against size, and where each variant wins</h2>\n";
    for (std::size_t k = 0; k < in.curves.size(); ++k) {
      const Curve& c = in.curves[k];
      h << "<h3>" << esc(c.iface) << "</h3>\n";
      if (k < in.curve_svgs.size()) {
        h << "<div class=\"fig\">" << in.curve_svgs[k] << "</div>\n";
      } else if (k < in.curve_pngs.size()) {
        h << "<img alt=\"" << esc(c.iface) << ": time per variant against " << esc(c.axis)
          << "\" src=\"" << esc(in.curve_pngs[k]) << "\">\n";
      }
      h << "<p>Fastest by " << esc(c.source) << ": ";
      const std::vector<WinRegion> regions = win_regions(c);
      for (std::size_t r = 0; r < regions.size(); ++r) {
        h << (r ? "; " : "") << swatch(in.palette, regions[r].variant) << esc(regions[r].variant)
          << " for " << esc(c.axis) << " " << size_text(regions[r].from) << " &ndash; "
          << size_text(regions[r].to);
      }
      h << ".</p>\n";
    }
  }
  h << "<p><small>Made by peppher-report; figures by gnuplot.</small></p>\n</body></html>\n";
  return h.str();
}

void render_text(const PageInput& in, std::ostream& out) {
  out << in.title << "\n";
  if (in.trace != nullptr) {
    const Summary& s = in.summary;
    out << "trace " << in.trace->file << " (" << in.trace->program
        << "): " << in.trace->tasks.size() << " tasks over " << fixed(s.span_us / 1000, 3)
        << " ms, " << in.trace->transfers.size() << " transfers waited for\n\nworkers\n";
    // Columns as wide as the longest worker name (an OpenCL device's name can be long).
    std::size_t worker_width = 8;
    for (const WorkerSummary& w : s.workers) worker_width = std::max(worker_width, w.name.size());
    std::size_t variant_width = 22;
    for (const InterfaceSummary& i : s.interfaces) {
      for (const VariantOnWorker& v : i.runs) {
        worker_width = std::max(worker_width, v.worker.size());
        variant_width = std::max(variant_width, v.variant.size());
      }
    }
    const int name_col = static_cast<int>(worker_width + 2);
    const int variant_col = static_cast<int>(variant_width + 2);
    for (const WorkerSummary& w : s.workers) {
      out << "  " << std::left << std::setw(name_col) << w.name << std::right << std::setw(8)
          << w.tasks << " tasks " << std::setw(10) << fixed(w.busy_us / 1000, 3) << " ms busy "
          << std::setw(6) << fixed(100 * w.idle_share, 1) << " % idle\n";
    }
    out << "\ninterfaces\n";
    for (const InterfaceSummary& i : s.interfaces) {
      out << "  " << i.name << ": " << i.calls << " calls, " << i.tasks << " tasks, "
          << bytes_text(i.bytes_moved) << " moved in " << i.transfers << " transfers\n";
      for (const VariantOnWorker& v : i.runs) {
        out << "    " << std::left << std::setw(variant_col) << v.variant << std::setw(name_col)
            << v.worker << std::right << std::setw(8) << v.tasks << " runs " << std::setw(10)
            << fixed(v.total_us / 1000, 3) << " ms " << std::setw(10)
            << fixed(v.total_us / static_cast<double>(v.tasks), 1) << " us/run\n";
      }
    }
    for (const BusTotal& b : in.trace->bus) {
      out << "  bus " << b.src << " -> " << b.dst << ": " << b.transfers << " transfers, "
          << bytes_text(b.bytes) << " (StarPU's counters, whole run)\n";
    }
  }
  for (const ExplainedInterface& i : in.explained) {
    out << "\ninterface " << i.name << " (" << i.descriptor << "): " << i.note << "\n";
    for (const ExplainedVariant& v : i.variants) {
      out << "  " << (v.left_out_because.empty() ? "in:  " : "out: ") << v.name << " (" << v.backend
          << ")" << (v.left_out_because.empty() ? "" : ": " + v.left_out_because) << "\n";
    }
  }
  for (const Curve& c : in.curves) {
    out << "\n" << c.iface << ": fastest variant by " << c.axis << " (" << c.source << ")\n";
    for (const WinRegion& r : win_regions(c)) {
      out << "  " << c.axis << " " << size_text(r.from) << " .. " << size_text(r.to) << ": "
          << r.variant << "\n";
    }
  }
}

}  // namespace peppher::perfdata
