// The performance table reader (see table.h).
#include "compose/read/table.h"

#include <algorithm>
#include <cstdlib>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "compose/read/line_table.h"
#include "compose/util/files.h"

namespace peppher::read {
namespace {

std::string local(const pugi::xml_node& n) {
  std::string name = n.name();
  size_t colon = name.find(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

bool parse_integer(const std::string& s, long long& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return *end == '\0';
}

}  // namespace

std::optional<ir::PerformanceTable> read_performance_table(const std::string& path,
                                                           diag::Diagnostics& diag) {
  std::string text;
  const std::string problem = files::read_file(path, files::kMaxDescriptorBytes, text);
  if (problem == files::kDoesNotExist) {
    diag.error("cannot open performance table '" + path +
               "': run compose --train main.xml "
               "first, or name the table with -staticDispatch=FILE");
    return std::nullopt;
  }
  if (!problem.empty()) {
    diag.error("performance table '" + path + "' " + problem);
    return std::nullopt;
  }
  LineTable lines(path, text);
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed) {
    diag.error(lines.loc(static_cast<size_t>(parsed.offset)),
               std::string("malformed performance table: ") + parsed.description());
    return std::nullopt;
  }
  const int errors_before = diag.error_count();
  auto at = [&](const pugi::xml_node& n) {
    return lines.loc(static_cast<size_t>(n.offset_debug()));
  };
  pugi::xml_node root = doc.document_element();
  if (local(root) != "performanceTable") {
    diag.error(at(root), "'" + path + "' is not a performance table (its root is <" +
                             std::string(root.name()) + ">)");
    return std::nullopt;
  }
  ir::PerformanceTable table;
  table.file = path;
  table.platform = root.attribute("platform").value();
  for (pugi::xml_node i : root.children()) {
    if (local(i) != "interface") continue;
    ir::TrainedInterface t;
    t.loc = at(i);
    t.name = i.attribute("name").value();
    std::vector<std::set<long long>> axes;
    for (pugi::xml_node c : i.children()) {
      if (local(c) == "context") {
        t.context.push_back(c.attribute("name").value());
        axes.emplace_back();
        continue;
      }
      if (local(c) != "point") continue;
      std::vector<long long> point;
      std::stringstream values(c.attribute("values").value());
      for (std::string v; std::getline(values, v, ',');) {
        long long x = 0;
        if (!parse_integer(v, x)) diag.error(at(c), "point value '" + v + "' is not an integer");
        point.push_back(x);
      }
      if (point.size() != t.context.size()) {
        diag.error(at(c), "point has " + std::to_string(point.size()) + " values, but interface '" +
                              t.name + "' has " + std::to_string(t.context.size()) +
                              " context parameters");
        continue;
      }
      for (size_t k = 0; k < point.size(); ++k) axes[k].insert(point[k]);
      auto& times = t.us[point];
      for (pugi::xml_node time : c.children()) {
        if (local(time) != "time") continue;
        times[time.attribute("variant").value()] = time.attribute("us").as_double();
      }
    }
    size_t cells = 1;
    for (const auto& axis : axes) {
      t.axes.emplace_back(axis.begin(), axis.end());
      cells *= axis.size();
    }
    if (t.us.size() != cells) {
      diag.error(t.loc, "the points of interface '" + t.name + "' do not form a full grid (" +
                            std::to_string(t.us.size()) + " of " + std::to_string(cells) +
                            "); train again");
    }
    table.interfaces.push_back(std::move(t));
  }
  if (diag.error_count() > errors_before) return std::nullopt;
  return table;
}

}  // namespace peppher::read
