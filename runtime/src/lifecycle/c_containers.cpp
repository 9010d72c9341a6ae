// The C handles of Vector and Matrix (peppher/c_api.h): create, read, write, release. An
// error ends the program with a message, as a C caller has no exceptions.
#include "peppher/detail/c_containers.h"

#include <exception>
#include <mutex>
#include <string>

#include "peppher/detail/c_caller.h"

namespace peppher::detail {

namespace {

template <typename Handle>
Handle& checked(Handle* h, const char* function) {
  if (h == nullptr) throw Error(std::string(function) + ": the handle is NULL");
  return *h;
}

}  // namespace

void check_handle(const CHandle* h, std::size_t expected, const char* handle, const char* container,
                  const char* type, const char* parameter) {
  if (h != nullptr && h->element_size == expected) return;  // every call: no string made
  const std::string takes = std::string("parameter '") + parameter + "' takes a " + handle +
                            " (peppher::" + container + "<" + type + ">, elements of " +
                            std::to_string(expected) + " bytes)";
  if (h == nullptr) throw Error(takes + ", but the handle given is NULL");
  throw Error(takes + ", but the " + handle + " given was created with elements of " +
              std::to_string(h->element_size) + " bytes");
}

}  // namespace peppher::detail

using peppher::Error;
using peppher::detail::checked;
using peppher::detail::fail_in_c_caller;

namespace {

// Runs @p body for the C function @p name: an error ends the program with its message, as a
// C caller has no exceptions.
template <typename Body>
auto in_c(const char* name, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& e) {
    fail_in_c_caller(name, e);
  }
}

// The host copy of a vector's or matrix's data: the array itself, through the container once a
// call made one (it waits for the tasks writing it).
template <typename Handle>
const void* host_read_of(Handle* h, const char* name) {
  Handle& c = checked(h, name);
  std::lock_guard<std::mutex> lock(c.binding);
  return c.typed != nullptr ? c.typed->host_read() : c.home;
}

template <typename Handle>
void* host_write_of(Handle* h, const char* name) {
  Handle& c = checked(h, name);
  std::lock_guard<std::mutex> lock(c.binding);
  return c.typed != nullptr ? c.typed->host_write() : c.home;
}

// Waits for the handle's tasks (their results land in the array), frees it.
template <typename Handle>
void release(Handle* h) {
  {
    std::lock_guard<std::mutex> lock(h->binding);
    h->typed.reset();  // waits for its tasks: their results are in the borrowed array
  }
  delete h;
}

}  // namespace

extern "C" peppher_vector* peppher_vector_create(void* data, size_t n, size_t element_size) {
  return in_c("peppher_vector_create()", [&] {
    if (data == nullptr) throw Error("the array is NULL");
    if (n == 0) throw Error("n is 0 (a vector has at least one element)");
    if (element_size == 0) throw Error("element_size is 0");
    auto* v = new peppher_vector;
    v->home = data;
    v->element_size = element_size;
    v->n = n;
    return v;
  });
}

extern "C" size_t peppher_vector_size(const peppher_vector* v) {
  return in_c("peppher_vector_size()", [&] { return checked(v, "peppher_vector_size()").n; });
}

extern "C" const void* peppher_vector_read(peppher_vector* v) {
  return in_c("peppher_vector_read()", [&] { return host_read_of(v, "peppher_vector_read()"); });
}

extern "C" void* peppher_vector_write(peppher_vector* v) {
  return in_c("peppher_vector_write()", [&] { return host_write_of(v, "peppher_vector_write()"); });
}

extern "C" void peppher_vector_release(peppher_vector* v) {
  if (v != nullptr) in_c("peppher_vector_release()", [&] { release(v); });
}

extern "C" peppher_matrix* peppher_matrix_create(void* data, size_t rows, size_t cols, size_t ld,
                                                 size_t element_size) {
  return in_c("peppher_matrix_create()", [&] {
    if (data == nullptr) throw Error("the array is NULL");
    if (rows == 0 || cols == 0)
      throw Error("the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                  " (it has at least one element)");
    if (ld < cols)
      throw Error("ld (" + std::to_string(ld) + ") < cols (" + std::to_string(cols) + ")");
    if (element_size == 0) throw Error("element_size is 0");
    auto* m = new peppher_matrix;
    m->home = data;
    m->element_size = element_size;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    return m;
  });
}

extern "C" size_t peppher_matrix_rows(const peppher_matrix* m) {
  return in_c("peppher_matrix_rows()", [&] { return checked(m, "peppher_matrix_rows()").rows; });
}

extern "C" size_t peppher_matrix_cols(const peppher_matrix* m) {
  return in_c("peppher_matrix_cols()", [&] { return checked(m, "peppher_matrix_cols()").cols; });
}

extern "C" size_t peppher_matrix_ld(const peppher_matrix* m) {
  return in_c("peppher_matrix_ld()", [&] { return checked(m, "peppher_matrix_ld()").ld; });
}

extern "C" const void* peppher_matrix_read(peppher_matrix* m) {
  return in_c("peppher_matrix_read()", [&] { return host_read_of(m, "peppher_matrix_read()"); });
}

extern "C" void* peppher_matrix_write(peppher_matrix* m) {
  return in_c("peppher_matrix_write()", [&] { return host_write_of(m, "peppher_matrix_write()"); });
}

extern "C" void peppher_matrix_release(peppher_matrix* m) {
  if (m != nullptr) in_c("peppher_matrix_release()", [&] { release(m); });
}
