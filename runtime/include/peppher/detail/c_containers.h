// The C handles of peppher/c_api.h (peppher_vector, peppher_matrix) as C++ sees them, and how
// a generated C entry wrapper gets the typed container behind one (its element size checked).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <typeinfo>
#include <utility>

#include "peppher/c_api.h"
#include "peppher/error.h"
#include "peppher/matrix.h"
#include "peppher/vector.h"

namespace peppher::detail {

/// @brief The typed container behind a C handle (a Vector<T> or a Matrix<T>), made by the
///        first entry wrapper that takes the handle; destroying it waits for its tasks.
class CTyped {
 public:
  virtual ~CTyped() = default;
  virtual const std::type_info& type() const noexcept = 0;
  virtual const void* host_read() = 0;
  virtual void* host_write() = 0;
};

template <typename C>
class CTypedOf final : public CTyped {
 public:
  explicit CTypedOf(C&& c) noexcept : container(std::move(c)) {}
  const std::type_info& type() const noexcept override { return typeid(C); }
  const void* host_read() override { return container.host_read(); }
  void* host_write() override { return container.host_write(); }
  C container;
};

/// @brief What both C handles hold: the caller's array and, once a call took the handle,
///        the typed container over it (Vector<T>::borrow(): registered in place, no copy).
struct CHandle {
  void* home = nullptr;  // the caller's array, which the typed container borrows
  std::size_t element_size = 0;
  std::unique_ptr<CTyped> typed;
  std::mutex binding;  // two calls taking a fresh handle at once make one container
};

/// @brief Throws peppher::Error naming @p parameter when @p h is NULL or its element size is
///        not @p expected (sizeof the interface's element type, spelled @p type).
void check_handle(const CHandle* h, std::size_t expected, const char* handle, const char* container,
                  const char* type, const char* parameter);

}  // namespace peppher::detail

struct peppher_vector : peppher::detail::CHandle {
  std::size_t n = 0;
};

struct peppher_matrix : peppher::detail::CHandle {
  std::size_t rows = 0, cols = 0, ld = 0;
};

namespace peppher::detail {

/// @brief For a generated C entry wrapper: the Vector<T> behind @p v, made at the first call
///        from the caller's array (or remade when a call took it with another type of the
///        same size). Throws peppher::Error for NULL or a wrong element size.
template <typename T>
Vector<T>& c_vector(peppher_vector* v, const char* type, const char* parameter) {
  check_handle(v, sizeof(T), "peppher_vector", "Vector", type, parameter);
  std::lock_guard<std::mutex> lock(v->binding);
  if (v->typed == nullptr || v->typed->type() != typeid(Vector<T>)) {
    v->typed.reset();  // waits for its tasks: their results are in the borrowed array
    v->typed =
        std::make_unique<CTypedOf<Vector<T>>>(Vector<T>::borrow(static_cast<T*>(v->home), v->n));
  }
  return static_cast<CTypedOf<Vector<T>>&>(*v->typed).container;
}

/// @brief As c_vector(), for a Matrix<T> (same rows, cols and ld as the caller's array).
template <typename T>
Matrix<T>& c_matrix(peppher_matrix* m, const char* type, const char* parameter) {
  check_handle(m, sizeof(T), "peppher_matrix", "Matrix", type, parameter);
  std::lock_guard<std::mutex> lock(m->binding);
  if (m->typed == nullptr || m->typed->type() != typeid(Matrix<T>)) {
    m->typed.reset();  // as in c_vector
    m->typed = std::make_unique<CTypedOf<Matrix<T>>>(
        Matrix<T>::borrow(static_cast<T*>(m->home), m->rows, m->cols, m->ld));
  }
  return static_cast<CTypedOf<Matrix<T>>&>(*m->typed).container;
}

}  // namespace peppher::detail
