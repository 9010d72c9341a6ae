// The C handles of peppher/c_api.h as generated C entry wrappers use them: the typed container
// made over the caller's array at the first call (borrowed in place, no copy), element sizes
// checked, the results in the array at release. No runtime: the containers are plain memory.
#include <cstring>
#include <string>
#include <vector>

#include "peppher/detail/c_containers.h"
#include "peppher_catch.h"

using peppher::detail::c_matrix;
using peppher::detail::c_vector;

TEST_CASE("a C vector handle: the caller's array, in a container from the first call on",
          "[containers]") {
  std::vector<float> home{1, 2, 3, 4, 5};
  peppher_vector* h = peppher_vector_create(home.data(), home.size(), sizeof(float));
  CHECK(peppher_vector_size(h) == 5);
  CHECK(peppher_vector_read(h) == home.data());  // no call yet: the array itself
  static_cast<float*>(peppher_vector_write(h))[0] = 10;

  peppher::Vector<float>& v = c_vector<float>(h, "float", "x");
  CHECK(v.to_std() == std::vector<float>{10, 2, 3, 4, 5});
  CHECK(&c_vector<float>(h, "float", "x") == &v);  // later calls reuse it
  CHECK(peppher_vector_read(h) == v.host_read());
  CHECK(peppher_vector_read(h) == home.data());  // borrowed: the data stays in the array
  v.host_write()[4] = 50;
  static_cast<float*>(peppher_vector_write(h))[2] = 30;

  // Another type of the same size: the data goes home and into a container of that type.
  peppher::Vector<int>& as_int = c_vector<int>(h, "int", "x");
  int first = 0;
  std::memcpy(&first, as_int.host_read(), sizeof first);
  float ten = 10;
  CHECK(std::memcmp(&first, &ten, sizeof first) == 0);

  peppher_vector_release(h);
  CHECK(home == std::vector<float>{10, 2, 30, 4, 50});
  peppher_vector_release(nullptr);  // nothing, as free(NULL)
}

TEST_CASE("a C handle's element size must be the parameter's", "[containers]") {
  std::vector<double> home(3, 1.0);
  peppher_vector* h = peppher_vector_create(home.data(), home.size(), sizeof(double));
  CHECK_THROWS_WITH(c_vector<float>(h, "float", "y"),
                    "peppher: parameter 'y' takes a peppher_vector (peppher::Vector<float>, "
                    "elements of 4 bytes), but the peppher_vector given was created with "
                    "elements of 8 bytes");
  CHECK_THROWS_WITH(
      c_vector<float>(nullptr, "float", "y"),
      Catch::Contains("parameter 'y'") && Catch::Contains("the handle given is NULL"));
  CHECK(c_vector<double>(h, "double", "y").size() == 3);
  peppher_vector_release(h);
}

TEST_CASE("a C matrix handle keeps the caller's leading dimension and padding", "[containers]") {
  const std::size_t rows = 3, cols = 2, ld = 4;
  std::vector<int> home(rows * ld, -9);  // -9: padding
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) home[i * ld + j] = static_cast<int>(10 * i + j);
  peppher_matrix* h = peppher_matrix_create(home.data(), rows, cols, ld, sizeof(int));
  CHECK(peppher_matrix_rows(h) == rows);
  CHECK(peppher_matrix_cols(h) == cols);
  CHECK(peppher_matrix_ld(h) == ld);

  peppher::Matrix<int>& m = c_matrix<int>(h, "int", "m");
  CHECK(m.ld() == ld);
  CHECK(m.to_std() == std::vector<int>{0, 1, 10, 11, 20, 21});
  int* w = static_cast<int*>(peppher_matrix_write(h));
  CHECK(w == home.data());  // borrowed in place
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) w[i * ld + j] += 100;
  CHECK_THROWS_WITH(c_matrix<short>(h, "short", "m"), Catch::Contains("peppher_matrix"));

  peppher_matrix_release(h);
  CHECK(home == std::vector<int>{100, 101, -9, -9, 110, 111, -9, -9, 120, 121, -9, -9});
}
