// Scale benchmark for the composer's front half: writes a synthetic repository (N
// interfaces, each with 4 variants on CPU/OPENMP/CUDA/OPENCL and a chain of required
// interfaces), runs the real `compose --check` on it and reports the best wall time.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const char* kNs = "xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string iface_name(int i) {
  return "comp" + std::to_string(i);
}

void generate(const fs::path& root, int n) {
  std::string reqs;
  for (int i = 0; i < n; ++i) {
    reqs += "      <peppher:requiredInterface name=\"" + iface_name(i) + "\" xmlFile=\"" +
            iface_name(i) + ".xml\"/>\n";
  }
  write(root / "main.cpp", "int main() { return 0; }\n");
  write(root / "main.xml",
        std::string("<peppher:component ") + kNs +
            ">\n  <peppher:implementation name=\"main\">\n"
            "    <peppher:sourceFiles><peppher:sourceFile name=\"main.cpp\" language=\"C++\"/>"
            "</peppher:sourceFiles>\n    <peppher:requiredInterfaces>\n" +
            reqs +
            "    </peppher:requiredInterfaces>\n    <peppher:targetPlatform name=\"CPU\"/>\n"
            "  </peppher:implementation>\n</peppher:component>\n");
  const char* backends[] = {"CPU", "OPENMP", "CUDA", "OPENCL"};
  for (int i = 0; i < n; ++i) {
    std::string name = iface_name(i);
    write(root / (name + ".xml"),
          std::string("<peppher:component ") + kNs + ">\n  <peppher:interface name=\"" + name +
              "\">\n    <peppher:parameters>\n"
              "      <peppher:parameter name=\"a\" type=\"float *\" numElements=\"n*m\" "
              "accessMode=\"readwrite\" partition=\"n/4\"/>\n"
              "      <peppher:parameter name=\"v\" type=\"peppher::Vector&lt;double&gt; &amp;\" "
              "accessMode=\"read\"/>\n"
              "      <peppher:parameter name=\"n\" type=\"int\" accessMode=\"read\"/>\n"
              "      <peppher:parameter name=\"m\" type=\"int\" accessMode=\"read\"/>\n"
              "    </peppher:parameters>\n  </peppher:interface>\n</peppher:component>\n");
    for (int k = 0; k < 4; ++k) {
      std::string v = name + "_" + backends[k];
      std::string req;
      if (i + 1 < n && k == 0) {  // a chain of requirements exercises the bottom-up order
        req = "    <peppher:requiredInterfaces><peppher:requiredInterface name=\"" +
              iface_name(i + 1) + "\" xmlFile=\"../" + iface_name(i + 1) +
              ".xml\"/></peppher:requiredInterfaces>\n";
      }
      write(root / name / (v + ".c"), "void " + v + "(void) {}\n");
      write(
          root / name / (v + ".xml"),
          std::string("<peppher:component ") + kNs + ">\n  <peppher:implementation name=\"" + v +
              "\">\n    <peppher:sourceFiles><peppher:sourceFile name=\"" + v +
              ".c\" language=\"C\"><peppher:compilation><peppher:compiler><peppher:name>gcc"
              "</peppher:name><peppher:flags>-O2</peppher:flags></peppher:compiler>"
              "</peppher:compilation></peppher:sourceFile></peppher:sourceFiles>\n"
              "    <peppher:providedInterfaces><peppher:providedInterface name=\"" +
              name + "\"/></peppher:providedInterfaces>\n" + req +
              "    <peppher:targetPlatform name=\"" + backends[k] +
              "\"/>\n"
              "    <peppher:constraints><peppher:constraint name=\"c\" expr=\"n &gt; 16 &amp;&amp; "
              "(m % 2 == 0 || platform.num_cuda &gt; 0)\"/></peppher:constraints>\n"
              "  </peppher:implementation>\n</peppher:component>\n");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || runs <= 0) {
    std::fprintf(stderr, "usage: compose_scale_bench [interfaces=500] [runs=5]\n");
    return 2;
  }
  std::string tmpl = (fs::temp_directory_path() / "compose-scale-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return 2;
  fs::path root = tmpl;
  generate(root, n);
  std::printf("repository: %d interfaces x 4 variants in %s\n", n, root.c_str());
  std::string cmd = "cd '" + root.string() + "' && '" PEPPHER_COMPOSE_BIN "' --check main.xml";
  double best = 1e9;
  int status = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    status = std::system(cmd.c_str());
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("run %d: %.3f s\n", r + 1, s);
    if (s < best) best = s;
  }
  fs::remove_all(root);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "compose --check failed on the synthetic repository\n");
    return 1;
  }
  std::printf("RESULT seconds=%.3f interfaces=%d\n", best, n);
  return 0;
}
