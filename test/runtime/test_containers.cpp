// Every container operation, first as plain containers (no runtime), then with the runtime
// running (pinned memory, lazy registration), then after shutdown.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
using peppher::Matrix;
using peppher::Scalar;
using peppher::Vector;

namespace {

struct Point {
  float x = 1.5f;  // a default member initializer: value-initialization must run it
  int y = 2;
};

// The element-level API, identical with and without the runtime.
void exercise_vector() {
  Vector<int> empty;
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  CHECK(empty.begin() == empty.end());

  Vector<int> zeros(5);
  CHECK(zeros.size() == 5);
  CHECK(zeros.to_std() == std::vector<int>(5, 0));
  Vector<int> sevens(4, 7);
  CHECK(sevens.to_std() == std::vector<int>(4, 7));
  Vector<int> list{1, 2, 3, 4};
  CHECK(list.to_std() == std::vector<int>{1, 2, 3, 4});
  Vector<int> from_std(std::vector<int>{9, 8, 7});
  CHECK(from_std.to_std() == std::vector<int>{9, 8, 7});

  // Proxy reads, writes and read-modify-writes.
  list[0] = 10;
  list[1] += 5;
  ++list[2];
  list[3]--;
  const int read = list[0];
  CHECK(read == 10);
  CHECK(list.to_std() == std::vector<int>{10, 7, 4, 3});
  list[3] = list[0];
  CHECK(list[3] == 10);
  CHECK(list.front() == 10);
  CHECK(list.back() == 10);
  const Vector<int>& clist = list;
  CHECK(clist[1] == 7);
  CHECK(clist.at(2) == 4);
  CHECK(std::accumulate(clist.begin(), clist.end(), 0) == 31);
  CHECK(std::accumulate(list.begin(), list.end(), 0) == 31);
  for (int& x : list) x *= 2;
  CHECK(list.to_std() == std::vector<int>{20, 14, 8, 20});
  list.data()[0] = 1;
  CHECK(clist.data()[0] == 1);
  CHECK_THROWS_AS(list.at(4), peppher::Error);
  CHECK_THROWS_WITH(clist.at(9), Catch::Contains("index 9 out of range [0, 4)"));
#if PEPPHER_INDEX_CHECKS
  CHECK_THROWS_AS(list[4], peppher::Error);
#endif

  // Copy is deep, move transfers.
  Vector<int> copy = list;
  copy[0] = 99;
  CHECK(list[0] == 1);
  CHECK(copy != list);
  copy[0] = 1;
  CHECK(copy == list);
  Vector<int> moved = std::move(copy);
  CHECK(moved == list);
  CHECK(copy.empty());  // NOLINT: moved-from is empty by contract
  copy = moved;
  CHECK(copy == moved);

  // Resize keeps the prefix, value-initializes the rest.
  moved.resize(6);
  CHECK(moved.to_std() == std::vector<int>{1, 14, 8, 20, 0, 0});
  moved.resize(2);
  CHECK(moved.to_std() == std::vector<int>{1, 14});
  moved.resize(4, 3);
  CHECK(moved.to_std() == std::vector<int>{1, 14, 3, 3});
  moved.fill(5);
  CHECK(moved.to_std() == std::vector<int>(4, 5));

  // Structs: value-initialization and member access through read()/write().
  Vector<Point> points(3);
  CHECK(points[2].read().x == 1.5f);
  CHECK(points[2].read().y == 2);
  points[1].write().y = 5;
  CHECK(points.at(1).read().y == 5);
  Vector<Point> points2 = points;
  CHECK(points2 == points);  // byte comparison: Point has no operator==
}

void exercise_matrix() {
  Matrix<double> m(2, 3);
  CHECK(m.rows() == 2);
  CHECK(m.cols() == 3);
  CHECK(m.ld() == 3);
  CHECK(m.size() == 6);
  m(1, 2) = 4.5;
  m(0, 0) += 1.0;
  CHECK(m(1, 2) == 4.5);
  CHECK(m.data()[1 * 3 + 2] == 4.5);
  CHECK(m.to_std() == std::vector<double>{1, 0, 0, 0, 0, 4.5});
  CHECK_THROWS_AS(m.at(2, 0), peppher::Error);
  CHECK_THROWS_AS(m.at(0, 3), peppher::Error);

  Matrix<int> lit{{1, 2, 3}, {4, 5, 6}};
  CHECK(lit(1, 0) == 4);
  const Matrix<int>& clit = lit;
  CHECK(clit(0, 2) == 3);
  CHECK(clit.at(1, 2) == 6);
  CHECK_THROWS_AS((Matrix<int>{{1, 2}, {3}}), peppher::Error);
  Matrix<int> fromv(2, 2, std::vector<int>{1, 2, 3, 4});
  CHECK(fromv(1, 1) == 4);
  CHECK_THROWS_AS(Matrix<int>(2, 2, std::vector<int>{1}), peppher::Error);
  Matrix<int> filled(3, 2, 7);
  CHECK(filled.to_std() == std::vector<int>(6, 7));

  Matrix<int> padded = Matrix<int>::padded(3, 2, 5);
  CHECK(padded.ld() == 5);
  padded(2, 1) = 8;
  CHECK(padded.data()[2 * 5 + 1] == 8);
  CHECK(padded.to_std() == std::vector<int>{0, 0, 0, 0, 0, 8});
  Matrix<int> padded_copy = padded;
  CHECK(padded_copy == padded);
  CHECK(padded_copy.ld() == 5);
  Matrix<int> other(3, 2);
  other(2, 1) = 8;
  CHECK(other == padded);  // padding is ignored
  CHECK_THROWS_AS(Matrix<int>::padded(2, 3, 2), peppher::Error);

  Matrix<int> moved = std::move(padded);
  CHECK(moved(2, 1) == 8);
  CHECK(padded.empty());  // NOLINT
  moved.resize(4, 4);
  CHECK(moved.rows() == 4);
  CHECK(moved.ld() == 4);
  CHECK(moved.to_std() == std::vector<int>(16, 0));
  moved.fill(2);
  CHECK(moved(3, 3) == 2);
}

void exercise_scalar() {
  Scalar<int> s;
  CHECK(s.get() == 0);
  s = 5;
  CHECK(s == 5);
  s.set(6);
  const int x = s;
  CHECK(x == 6);
  Scalar<int> t = s;
  t = 8;
  CHECK(s.get() == 6);
  s = t;
  CHECK(s.get() == 8);
  Scalar<int> u = std::move(t);
  CHECK(u.get() == 8);
  CHECK_THROWS_AS(t.get(), peppher::Error);  // NOLINT: moved-from use is a clear error
  *u.host_write() = 3;
  CHECK(*u.host_read() == 3);
  Scalar<Point> p;
  CHECK(p.get().x == 1.5f);
}

void exercise_views() {
  std::uint32_t raw[6] = {1, 2, 3, 4, 5, 6};
  auto v = Vector<std::uint32_t>::view(raw, 6);
  CHECK(v.is_view());
  v[0] = 10;
  CHECK(raw[0] == 10);
  CHECK(v[5] == 6u);
  auto m = Matrix<std::uint32_t>::view(raw, 2, 2, 3);
  CHECK(m(1, 1) == 5u);
  m(1, 0) = 40;
  CHECK(raw[3] == 40);
  auto s = Scalar<std::uint32_t>::view(raw + 5);
  s = 60;
  CHECK(raw[5] == 60);
  CHECK_THROWS_WITH(v.handle_for_task(), Catch::Contains("view"));
  CHECK_THROWS_AS(m.handle_for_task(), peppher::Error);
  CHECK_THROWS_AS(s.handle_for_task(), peppher::Error);
  CHECK_THROWS_AS(v.resize(3), peppher::Error);
  Vector<std::uint32_t> owned = v;  // copying a view makes an owning container
  CHECK_FALSE(owned.is_view());
  CHECK(owned[0] == 10u);
  { auto dropped = Vector<std::uint32_t>::view(raw, 6); }
  CHECK(raw[1] == 2);  // destroying a view frees nothing
}

void exercise_all() {
  SECTION("vector") {
    exercise_vector();
  }
  SECTION("matrix") {
    exercise_matrix();
  }
  SECTION("scalar") {
    exercise_scalar();
  }
  SECTION("views") {
    exercise_views();
  }
}

}  // namespace

TEST_CASE("containers work as plain containers without the runtime", "[containers]") {
  REQUIRE_FALSE(peppher::is_running());
  exercise_all();
  Vector<int> v{1, 2};
  CHECK_THROWS_WITH(v.handle_for_task(), Catch::Contains("runtime is not running"));
  Matrix<int> m(2, 2);
  CHECK_THROWS_AS(m.handle_for_task(), peppher::Error);
}

TEST_CASE("containers work with the runtime running", "[containers]") {
  Session session;
  exercise_all();
}

TEST_CASE("registration is lazy, kept, and survives host phases", "[containers]") {
  Vector<std::uint32_t> early{1, 2, 3};  // allocated before init: plain memory
  Session session;
  CHECK_FALSE(early.registered());
  const starpu_data_handle_t h = early.handle_for_task();
  CHECK(early.registered());
  affine(h, 2, 0, Where::Any);
  CHECK(early[2] == 6u);
  CHECK(early.handle_for_task() == h);  // one handle for the container's lifetime
  affine(h, 1, 1, Where::Any);
  CHECK(early.to_std() == std::vector<std::uint32_t>{3, 5, 7});

  Vector<std::uint32_t> empty;
  CHECK_THROWS_WITH(empty.handle_for_task(), Catch::Contains("empty"));

  // Move transfers the handle.
  Vector<std::uint32_t> moved = std::move(early);
  CHECK(moved.registered());
  CHECK(moved.handle_for_task() == h);
  affine(h, 1, 1, Where::Any);
  CHECK(moved.to_std() == std::vector<std::uint32_t>{4, 6, 8});

  // Resize: an error right after a component call, fine after a host access.
  affine(moved.handle_for_task(), 1, 0, Where::Any);
  CHECK_THROWS_WITH(moved.resize(5), Catch::Contains("host_write()"));
  moved.host_write();
  moved.resize(5);
  CHECK_FALSE(moved.registered());
  CHECK(moved.to_std() == std::vector<std::uint32_t>{4, 6, 8, 0, 0});
  affine(moved.handle_for_task(), 1, 1, Where::Any);
  CHECK(moved.to_std() == std::vector<std::uint32_t>{5, 7, 9, 1, 1});

  // A Scalar produced by a task, read back on the host.
  Scalar<std::uint32_t> total;
  sum(moved.handle_for_task(), total.handle_for_task(), Where::Any);
  CHECK(total.get() == 23u);
}

TEST_CASE("containers stay usable after shutdown", "[containers]") {
  Vector<std::uint32_t> v(64);
  Matrix<std::uint32_t> m = Matrix<std::uint32_t>::padded(4, 3, 4);
  Scalar<std::uint32_t> s;
  {
    Session session;
    fill(v.handle_for_task(), 1, 1, Where::Any);
    mat_affine(m.handle_for_task(), 1, 9, Where::Any);
    sum(v.handle_for_task(), s.handle_for_task(), Where::Any);
  }  // shutdown with the last writes still on the workers' side
  CHECK_FALSE(peppher::is_running());
  CHECK_FALSE(v.registered());
  CHECK(v[63] == 64u);
  CHECK(m(3, 2) == 9u);
  CHECK(s.get() == 64u * 65u / 2u);
  v[0] = 5;
  v.resize(70);
  CHECK(v[0] == 5u);
  CHECK_THROWS_WITH(v.handle_for_task(), Catch::Contains("after peppher::shutdown()"));
  CHECK_THROWS_AS(m.handle_for_task(), peppher::Error);
  CHECK_THROWS_AS(s.handle_for_task(), peppher::Error);
  Session again;  // and they can join the next runtime session
  affine(v.handle_for_task(), 1, 1, Where::Any);
  CHECK(v[0] == 6u);
}

TEST_CASE("sizes that overflow or exceed StarPU's extents throw instead of wrapping",
          "[containers]") {
  // (2^61 + 1) doubles are 2^64 + 8 bytes: the product wraps to 8 without the check.
  const std::size_t wraps = (std::size_t{1} << 61) + 1;
  CHECK_THROWS_WITH(Vector<double>(wraps),
                    Catch::Contains("Vector of") && Catch::Contains("elements per dimension"));
  CHECK_THROWS_AS(Vector<double>(std::size_t{1} << 33), peppher::Error);  // above uint32_t
  CHECK_THROWS_WITH((Matrix<double>(std::size_t{1} << 31, std::size_t{1} << 31)),
                    Catch::Contains("overflows"));
  CHECK_THROWS_WITH((Matrix<float>(std::size_t{1} << 40, 2)),
                    Catch::Contains("elements per dimension"));
  Vector<int> v(4);
  CHECK_THROWS_AS(v.resize(wraps), peppher::Error);
  CHECK(v.size() == 4);
}

TEST_CASE("containers over the program's memory work in place, without a copy", "[containers]") {
  // Taken over: a std::vector's elements become the container's, where they are.
  std::vector<std::uint32_t> values{1, 2, 3};
  const std::uint32_t* where = values.data();
  Vector<std::uint32_t> taken(std::move(values));
  CHECK(taken.data() == where);
  std::vector<std::uint32_t> cells(6, 1);
  const std::uint32_t* cells_at = cells.data();
  Matrix<std::uint32_t> grid(2, 3, std::move(cells));
  CHECK(grid.data() == cells_at);
  CHECK_THROWS_WITH((Matrix<int>(2, 2, std::vector<int>(3))), Catch::Contains("rows * cols"));

  // Borrowed: the program's own arrays, registered where they are.
  std::uint32_t array[4] = {1, 2, 3, 4};
  std::uint32_t padded[3 * 4] = {1, 2, 0, 77, 3, 4, 0, 77, 5, 6, 0, 77};  // ld 4, 2 used + pad
  std::uint32_t before_init[2] = {10, 20};
  Vector<std::uint32_t> early = Vector<std::uint32_t>::borrow(before_init, 2);
  CHECK_THROWS_WITH(Vector<int>::borrow(nullptr, 3), Catch::Contains("null array"));
  CHECK(Vector<int>::borrow(nullptr, 0).empty());
  CHECK_THROWS_WITH(Matrix<int>::borrow(nullptr, 2, 3, 2), Catch::Contains("ld < cols"));
  {
    Session session;
    affine(taken.handle_for_task(), 2, 1, Where::Any);
    CHECK(taken.to_std() == std::vector<std::uint32_t>{3, 5, 7});
    CHECK(taken.data() == where);  // the same memory, registered in place
    mat_affine(grid.handle_for_task(), 3, 0, Where::Any);
    CHECK(grid(1, 2) == 3u);
    taken.resize(4);  // a taken-over vector is the container's own: it may grow
    CHECK(taken.to_std() == std::vector<std::uint32_t>{3, 5, 7, 0});
    {
      Vector<std::uint32_t> v = Vector<std::uint32_t>::borrow(array, 4);
      Matrix<std::uint32_t> m = Matrix<std::uint32_t>::borrow(padded, 3, 2, 4);
      CHECK(v.data() == array);
      for (Where w : {Where::Cpu, Where::Any}) {
        affine(v.handle_for_task(), 2, 0, w);
        mat_affine(m.handle_for_task(), 1, 1, w);
      }
      CHECK_THROWS_WITH(v.resize(8), Catch::Contains("borrow()"));
      affine(v.handle_for_task(), 1, 1, Where::Any);
      mat_affine(m.handle_for_task(), 10, 0, Where::Any);
    }  // destruction waits for the tasks and leaves the results in the arrays
    CHECK(std::vector<std::uint32_t>(array, array + 4) == std::vector<std::uint32_t>{5, 9, 13, 17});
    const std::vector<std::uint32_t> want{30, 40, 0, 77, 50, 60, 0, 77, 70, 80, 0, 77};
    CHECK(std::vector<std::uint32_t>(padded, padded + 12) == want);
    affine(early.handle_for_task(), 1, 5, Where::Any);
  }  // shutdown: the borrowed array gets its results and the Vector keeps working
  CHECK(before_init[0] == 15u);
  CHECK(early[1] == 25u);
  CHECK(early.data() == before_init);
}

namespace {

// The VmFlags of the mapping of /proc/self/smaps that holds @p p ("" when none is found).
std::string vm_flags_at(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &begin, &end) == 2 &&
        line.find(':') > line.find(' ')) {  // a mapping's first line, not a "Key: value" one
      inside = at >= begin && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

}  // namespace

// A large container's memory is offered transparent huge pages (fewer page faults on its
// first touch), with and without the runtime; a small one is left alone.
TEST_CASE("large containers ask for transparent huge pages", "[containers]") {
  std::ifstream size_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
  std::size_t huge = 0;
  if (!(size_file >> huge) || huge == 0) return;  // the kernel offers none: nothing to ask
  auto check = [huge] {
    Vector<float> big(4 * huge / sizeof(float));
    // The middle of the buffer: whole pages of its range, whatever the allocator's header.
    CHECK_THAT(vm_flags_at(big.data() + big.size() / 2), Catch::Contains(" hg"));
    Vector<float> small(1024);
    CHECK_THAT(vm_flags_at(small.data()), !Catch::Contains(" hg"));
  };
  check();
  Session session;
  check();
}
