// Report folders (see report.h).
#include "report/report.h"

#include <filesystem>
#include <system_error>

#include "common/figures.h"
#include "common/files.h"
#include "common/report_error.h"

namespace peppher::report {

std::string write_report(perfdata::PageInput in, const std::string& dir, const std::string& page) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw perfdata::ReportError(dir + ": error: cannot create the report folder: " + ec.message());
  if (in.trace != nullptr) in.gantt_png = perfdata::draw_gantt(*in.trace, in.palette, dir);
  in.curve_pngs.clear();
  for (std::size_t k = 0; k < in.curves.size(); ++k)
    in.curve_pngs.push_back(
        perfdata::draw_curve(in.curves[k], static_cast<int>(k), in.palette, dir));
  const std::string path = (std::filesystem::path(dir) / page).string();
  if (std::string problem = files::write_file(path, perfdata::render_html(in)); !problem.empty())
    throw perfdata::ReportError(path + ": error: cannot write the page: " + problem);
  return path;
}

}  // namespace peppher::report
