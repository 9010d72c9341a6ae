// The training table reader (see training_table.h).
#include "common/training_table.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "common/files.h"

namespace peppher::perfdata {
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

// Byte offset -> 1-based line:col, from the starts of the text's lines.
class Lines {
 public:
  explicit Lines(const std::string& text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  TableProblem at(size_t offset, std::string message) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    size_t line = static_cast<size_t>(it - starts_.begin());  // >= 1 since starts_[0] == 0
    return {static_cast<int>(line), static_cast<int>(offset - starts_[line - 1] + 1),
            std::move(message)};
  }

 private:
  std::vector<size_t> starts_;
};

}  // namespace

std::optional<TrainingTable> read_training_table(const std::string& path,
                                                 std::vector<TableProblem>& problems) {
  std::string text;
  const std::string problem = files::read_file(path, files::kMaxDescriptorBytes, text);
  if (problem == files::kDoesNotExist) {
    problems.push_back({0, 0,
                        "cannot open performance table '" + path +
                            "': run compose --train main.xml "
                            "first, or name the table with -staticDispatch=FILE"});
    return std::nullopt;
  }
  if (!problem.empty()) {
    problems.push_back({0, 0, "performance table '" + path + "' " + problem});
    return std::nullopt;
  }
  const Lines lines(text);
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed) {
    problems.push_back(
        lines.at(static_cast<size_t>(parsed.offset),
                 std::string("malformed performance table: ") + parsed.description()));
    return std::nullopt;
  }
  const size_t problems_before = problems.size();
  auto problem_at = [&](const pugi::xml_node& n, std::string message) {
    problems.push_back(lines.at(static_cast<size_t>(n.offset_debug()), std::move(message)));
  };
  pugi::xml_node root = doc.document_element();
  if (local(root) != "performanceTable") {
    problem_at(root, "'" + path + "' is not a performance table (its root is <" +
                         std::string(root.name()) + ">)");
    return std::nullopt;
  }
  TrainingTable table;
  table.file = path;
  table.platform = root.attribute("platform").value();
  for (pugi::xml_node i : root.children()) {
    if (local(i) != "interface") continue;
    TrainedInterface t;
    const TableProblem start = lines.at(static_cast<size_t>(i.offset_debug()), "");
    t.line = start.line;
    t.col = start.col;
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
        if (!parse_integer(v, x)) problem_at(c, "point value '" + v + "' is not an integer");
        point.push_back(x);
      }
      if (point.size() != t.context.size()) {
        problem_at(c, "point has " + std::to_string(point.size()) + " values, but interface '" +
                          t.name + "' has " + std::to_string(t.context.size()) +
                          " context parameters");
        continue;
      }
      for (size_t k = 0; k < point.size(); ++k) axes[k].insert(point[k]);
      auto& times = t.us[point];
      for (pugi::xml_node time : c.children()) {
        if (local(time) != "time") continue;
        const std::string us = time.attribute("us").value();
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(us.c_str(), &end);
        if (us.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value) || value < 0) {
          problem_at(time, "time us='" + us + "' is not a number of microseconds");
          continue;
        }
        times[time.attribute("variant").value()] = value;
      }
    }
    size_t cells = 1;
    for (const auto& axis : axes) {
      t.axes.emplace_back(axis.begin(), axis.end());
      cells *= axis.size();
    }
    if (t.us.size() != cells) {
      problems.push_back({t.line, t.col,
                          "the points of interface '" + t.name + "' do not form a full grid (" +
                              std::to_string(t.us.size()) + " of " + std::to_string(cells) +
                              "); train again"});
    }
    table.interfaces.push_back(std::move(t));
  }
  if (problems.size() > problems_before) return std::nullopt;
  return table;
}

}  // namespace peppher::perfdata
