// Randomized coherence: thousands of random host reads/writes and asynchronous tasks (R, W,
// RW, forced on CPU or OpenCL or left to the scheduler, whole or partitioned) on several
// containers, checked after every host read against a plain std::vector model.
// PEPPHER_SEED (or Catch's --rng-seed) picks the seed, PEPPHER_OPS the number of operations.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
using u32 = std::uint32_t;

namespace {

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  return s != nullptr && *s != '\0' ? std::strtoull(s, nullptr, 10) : fallback;
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : gen_(seed) {}
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(gen_);
  }
  u32 value() { return static_cast<u32>(gen_()); }

 private:
  std::mt19937_64 gen_;
};

struct Harness {
  static constexpr std::size_t kVectors = 3, kN = 129, kRows = 6, kCols = 5, kLd = 8;
  Random rnd;
  std::vector<peppher::Vector<u32>> vecs;
  std::vector<std::vector<u32>> models;
  peppher::Matrix<u32> mat = peppher::Matrix<u32>::padded(kRows, kCols, kLd);
  std::vector<u32> mat_model = std::vector<u32>(kRows * kLd, 0);
  peppher::Scalar<u32> total;
  std::optional<u32> total_model;  // set once a sum task produced it
  std::size_t reads = 0, mismatches = 0;
  std::string first_mismatch;

  explicit Harness(std::uint64_t seed) : rnd(seed) {
    for (std::size_t k = 0; k < kVectors; ++k) {
      models.emplace_back(kN);
      for (auto& x : models.back()) x = rnd.value();
      vecs.emplace_back(models.back());
    }
  }

  Where where() {
    const std::size_t pick = rnd.below(has_opencl() ? 3 : 2);
    return pick == 0 ? Where::Any : pick == 1 ? Where::Cpu : Where::OpenCl;
  }

  void mismatch(const std::string& what, std::size_t i, u32 got, u32 want) {
    if (mismatches++ == 0)
      first_mismatch = what + "[" + std::to_string(i) + "] = " + std::to_string(got) +
                       ", model says " + std::to_string(want) + " (read #" + std::to_string(reads) +
                       ")";
  }

  // Host read of a whole vector, through one of the read paths.
  void host_read(std::size_t k) {
    ++reads;
    auto& v = vecs[k];
    const auto& m = models[k];
    switch (rnd.below(4)) {
      case 0:  // proxy reads
        for (std::size_t i = 0; i < kN; ++i) {
          const u32 got = v[i];
          if (got != m[i]) mismatch("proxy v" + std::to_string(k), i, got, m[i]);
        }
        break;
      case 1: {  // const operator[]
        const auto& cv = v;
        for (std::size_t i = 0; i < kN; ++i)
          if (cv[i] != m[i]) mismatch("const v" + std::to_string(k), i, cv[i], m[i]);
        break;
      }
      case 2: {  // host_read() pointer
        const u32* p = v.host_read();
        for (std::size_t i = 0; i < kN; ++i)
          if (p[i] != m[i]) mismatch("host_read v" + std::to_string(k), i, p[i], m[i]);
        break;
      }
      default: {  // one element, then the copy of the whole vector
        const std::size_t i = rnd.below(kN);
        if (u32(v.at(i)) != m[i]) mismatch("at v" + std::to_string(k), i, v.at(i), m[i]);
        const peppher::Vector<u32> copy = v;
        for (std::size_t j = 0; j < kN; ++j)
          if (copy[j] != m[j]) mismatch("copy v" + std::to_string(k), j, copy[j], m[j]);
      }
    }
  }

  void host_write(std::size_t k) {
    auto& v = vecs[k];
    auto& m = models[k];
    const std::size_t count = 1 + rnd.below(8);
    for (std::size_t c = 0; c < count; ++c) {
      const std::size_t i = rnd.below(kN);
      const u32 x = rnd.value();
      switch (rnd.below(3)) {
        case 0:
          v[i] = x;
          m[i] = x;
          break;
        case 1:
          v[i] += x;
          m[i] += x;
          break;
        default:
          v.data()[i] = x;
          m[i] = x;
      }
    }
  }

  void task(std::size_t k) {
    auto& m = models[k];
    const u32 a = rnd.value() | 1u, b = rnd.value();
    switch (rnd.below(6)) {
      case 0:
        fill(vecs[k].handle_for_task(), a, b, where());
        for (std::size_t i = 0; i < kN; ++i) m[i] = a + b * u32(i);
        break;
      case 1:
        affine(vecs[k].handle_for_task(), a, b, where());
        for (auto& x : m) x = x * a + b;
        break;
      case 2: {
        const std::size_t dst = (k + 1 + rnd.below(kVectors - 1)) % kVectors;
        add(vecs[k].handle_for_task(), vecs[dst].handle_for_task(), b, where());
        for (std::size_t i = 0; i < kN; ++i) models[dst][i] = m[i] + b;
        break;
      }
      case 3: {
        sum(vecs[k].handle_for_task(), total.handle_for_task(), where());
        u32 s = 0;
        for (u32 x : m) s += x;
        total_model = s;
        break;
      }
      case 4:
        touch(vecs[k].handle_for_task(), where());
        break;
      default: {  // partitioned RW: one task per block, each on its own worker
        const std::size_t parts = 1 + rnd.below(4);
        for (auto h : vecs[k].partition_blocks(parts)) affine(h, a, b, where());
        for (auto& x : m) x = x * a + b;
      }
    }
  }

  void matrix_op() {
    const u32 a = rnd.value() | 1u, b = rnd.value();
    auto update = [&] {
      for (std::size_t i = 0; i < kRows; ++i)
        for (std::size_t j = 0; j < kCols; ++j)
          mat_model[i * kLd + j] = mat_model[i * kLd + j] * a + b;
    };
    switch (rnd.below(4)) {
      case 0:
        mat_affine(mat.handle_for_task(), a, b, where());
        update();
        break;
      case 1:
        for (auto h : mat.partition_blocks(1 + rnd.below(3), 1 + rnd.below(3)))
          mat_affine(h, a, b, where());
        update();
        break;
      case 2: {
        const std::size_t i = rnd.below(kRows), j = rnd.below(kCols);
        mat(i, j) = a;
        mat_model[i * kLd + j] = a;
        break;
      }
      default:
        ++reads;
        for (std::size_t i = 0; i < kRows; ++i)
          for (std::size_t j = 0; j < kCols; ++j)
            if (u32(mat(i, j)) != mat_model[i * kLd + j])
              mismatch("matrix", i * kLd + j, mat(i, j), mat_model[i * kLd + j]);
    }
  }

  void step() {
    const std::size_t k = rnd.below(kVectors);
    switch (rnd.below(10)) {
      case 0:
      case 1:
      case 2:
        host_read(k);
        break;
      case 3:
      case 4:
        host_write(k);
        break;
      case 5:
      case 6:
      case 7:
        task(k);
        break;
      case 8:
        matrix_op();
        break;
      default:
        if (total_model) {
          ++reads;
          if (total.get() != *total_model) mismatch("scalar", 0, total.get(), *total_model);
        }
    }
  }

  void final_check() {
    for (std::size_t k = 0; k < kVectors; ++k) host_read(k);
  }
};

std::uint64_t seed() {
  const std::uint64_t catch_seed = Catch::rngSeed();
  return env_number("PEPPHER_SEED", catch_seed != 0 ? catch_seed : 20240607);
}

void run(const std::optional<peppher::Config>& config, const char* label) {
  const std::uint64_t s = seed();
  const std::uint64_t ops = env_number("PEPPHER_OPS", 2000);
  INFO("configuration " << label << ", seed " << s << " (rerun: PEPPHER_SEED=" << s
                        << " PEPPHER_OPS=" << ops << ")");
  peppher::Runtime rt(config.value_or(peppher::Config{}));
  load_kernels();
  Harness h(s);
  for (std::uint64_t op = 0; op < ops; ++op) h.step();
  h.final_check();
  INFO("first mismatch: " << h.first_mismatch);
  CHECK(h.reads > ops / 5);
  CHECK(h.mismatches == 0);
}

}  // namespace

TEST_CASE("random operations keep every container coherent", "[random]") {
  SECTION("workers from the environment") {
    run(std::nullopt, "environment");
  }
  SECTION("2 CPU workers, no OpenCL") {
    run(two_cpus(), "2 CPUs");
  }
}

TEST_CASE("random operations with 2 CPU workers and the OpenCL device", "[random][opencl]") {
  peppher::Config c;
  c.ncpus = 2;
  c.nopencl = 1;
  run(c, "2 CPUs + OpenCL");
}
