// Checks the documentation's relative links: README.md and every Markdown file under docs/,
// bench/, runtime/ and components/. A link `[text](path#anchor)` that is not a URL must name
// an existing file or folder, relative to the page, inside the repository.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

// The Markdown pages whose links are checked.
std::vector<fs::path> documentation_pages(const fs::path& root) {
  std::vector<fs::path> pages;
  if (fs::exists(root / "README.md")) pages.push_back(root / "README.md");
  for (const char* folder : {"docs", "bench", "runtime", "components"}) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".md") {
        pages.push_back(entry.path());
      }
    }
  }
  return pages;
}

// "page:line: link 'target' ..." for each relative link that does not resolve.
std::vector<std::string> broken_links(const fs::path& root) {
  static const std::regex kLink(R"(\]\(([^)\s]+)\))");
  const fs::path canonical_root = fs::weakly_canonical(root);
  std::vector<std::string> broken;
  for (const fs::path& page : documentation_pages(root)) {
    std::ifstream in(page);
    std::string line;
    bool in_code_block = false;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.rfind("```", 0) == 0) in_code_block = !in_code_block;
      if (in_code_block) continue;
      for (std::sregex_iterator it(line.begin(), line.end(), kLink), end; it != end; ++it) {
        std::string target = (*it)[1];
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0 ||
            target[0] == '#') {
          continue;
        }
        target = target.substr(0, target.find('#'));
        const fs::path resolved = fs::weakly_canonical(page.parent_path() / target);
        const std::string where = fs::relative(page, root).string() + ":" + std::to_string(number) +
                                  ": link '" + target + "'";
        const auto rel = fs::relative(resolved, canonical_root).string();
        if (rel.rfind("..", 0) == 0) {
          broken.push_back(where + " points outside the repository");
        } else if (!fs::exists(resolved)) {
          broken.push_back(where + " does not exist");
        }
      }
    }
  }
  return broken;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("every relative link in the README and docs resolves", "[docs]") {
  const auto broken = broken_links(PEPPHER_SOURCE_DIR);
  std::ostringstream list;
  for (const auto& b : broken) list << b << "\n";
  INFO(list.str());
  CHECK(broken.empty());
}

TEST_CASE("the link check finds a missing page and a link out of the tree", "[docs]") {
  const fs::path root = fs::temp_directory_path() / "peppher_docs_links_test";
  fs::remove_all(root);
  write(root / "README.md", "[ok](docs/A.md) [gone](docs/B.md#x) [web](https://example.org)\n");
  write(root / "docs/A.md",
        "[up](../README.md) [out](../../elsewhere.md)\n```\n[code](no.md)\n```\n");
  const auto broken = broken_links(root);
  REQUIRE(broken.size() == 2);
  CHECK(broken[0] == "README.md:1: link 'docs/B.md' does not exist");
  CHECK(broken[1] == "docs/A.md:1: link '../../elsewhere.md' points outside the repository");
  fs::remove_all(root);
}
