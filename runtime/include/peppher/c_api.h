/* The runtime's C interface: what a generated peppher.h uses when the file including it is
   C (C99 on) or C++ older than C++17, where <peppher/runtime.h> cannot be included: start
   and stop, and the C handles of Vector and Matrix. Valid C99 and C++11; the library is C++17. */
#ifndef PEPPHER_C_API_H
#define PEPPHER_C_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Starts the runtime with StarPU scheduling policy @p scheduler (STARPU_SCHED in the
 *         environment still wins), as peppher::init(Config::with_scheduler(scheduler)).
 *  @attention On failure (StarPU cannot start, already running) prints the reason to stderr
 *             and ends the program with exit status 1: a C caller has no exceptions. */
void peppher_initialize(const char* scheduler);

/** @brief peppher_initialize() on a thread of its own, as
 *         peppher::init_in_background(Config::with_scheduler(scheduler)): returns at once; the
 *         first component call and peppher_shutdown() wait for the start, and a start that
 *         fails is printed there and ends the program with exit status 1. */
void peppher_initialize_in_background(const char* scheduler);

/** @brief peppher_initialize() for a composition made with --mpi: starts MPI, StarPU-MPI and
 *         the runtime, as peppher::mpi::init(Config::with_scheduler(scheduler)). Defined in
 *         the StarPU-MPI layer's library (libpeppher_mpi), which such programs link.
 *  @attention On failure prints the reason to stderr and ends the program with exit status 1. */
void peppher_mpi_initialize(const char* scheduler);

/** @brief Waits for every task, prints the report when PEPPHER_REPORT=1, stops the runtime
 *         (peppher::shutdown()). Does nothing when the runtime is not running. */
void peppher_shutdown(void);

/* C handles of peppher::Vector and peppher::Matrix, for the entry wrappers of interfaces
   that take containers when main.xml's source is C (docs/LEGACY.md, "C callers"): a call
   that takes them returns at once, as from C++, and the data moves between memories only
   when a task or the host needs it.

   The first call that takes the handle registers the caller's array with StarPU where it is
   (no copy, as starpu_vector_data_register() does); from then on the current data may be on
   a device: read and write the array only through peppher_*_read() and peppher_*_write()
   (which wait for the tasks and return the array itself), and keep it alive until
   peppher_*_release(), which waits for every task using it, leaves their results in the
   array and frees the handle. Each call
   checks that the handle's element size is that of the interface's element type.
   Errors (a NULL array or handle, a zero size or element size, ld < cols, an element size
   that does not match the interface's parameter) print "peppher: ..." to stderr and end the
   program with exit status 1, as peppher_initialize() does: no function returns NULL.
   Threads: as the containers (runtime/README.md); a call that takes a handle for the first
   time counts as a write of it. */

/** @brief A 1-D array whose data StarPU can move between memories (a peppher::Vector). */
typedef struct peppher_vector peppher_vector;
/** @brief A row-major matrix whose data StarPU can move between memories (a peppher::Matrix). */
typedef struct peppher_matrix peppher_matrix;

/** @brief A handle of the @p n elements of @p element_size bytes at @p data. Nothing is
 *         registered yet: the first call that takes the handle registers the array in place.
 *         Needs no running runtime (a call does). */
peppher_vector* peppher_vector_create(void* data, size_t n, size_t element_size);
/** @brief The number of elements. */
size_t peppher_vector_size(const peppher_vector* v);
/** @brief Host read: waits for the tasks writing the data, returns it (n elements). */
const void* peppher_vector_read(peppher_vector* v);
/** @brief Host read-write: waits for every task using the data, returns it (n elements). */
void* peppher_vector_write(peppher_vector* v);
/** @brief Waits for every task using the data, whose results are then in the array given to
 *         peppher_vector_create(), and frees the handle. Does nothing for NULL. */
void peppher_vector_release(peppher_vector* v);

/** @brief A handle of the @p rows x @p cols row-major matrix at @p data, element (i, j) at
 *         byte (i * ld + j) * element_size (ld >= cols; ld == cols without padding). As
 *         peppher_vector_create(): registered in place by the first call that takes it. */
peppher_matrix* peppher_matrix_create(void* data, size_t rows, size_t cols, size_t ld,
                                      size_t element_size);
size_t peppher_matrix_rows(const peppher_matrix* m);
size_t peppher_matrix_cols(const peppher_matrix* m);
/** @brief The leading dimension, in elements: also that of the read and write pointers. */
size_t peppher_matrix_ld(const peppher_matrix* m);
/** @brief Host read: waits for the tasks writing the data, returns it (rows x ld elements,
 *         of which the padding is not read by the tasks). */
const void* peppher_matrix_read(peppher_matrix* m);
/** @brief Host read-write: waits for every task using the data, returns it. */
void* peppher_matrix_write(peppher_matrix* m);
/** @brief Waits for every task using the data, whose results are then in the array given to
 *         peppher_matrix_create() (padding untouched), and frees the handle. Does nothing for
 *         NULL. */
void peppher_matrix_release(peppher_matrix* m);

#ifdef __cplusplus
}
#endif

#endif
