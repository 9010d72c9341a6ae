/* The light form's annotations (docs/FORMAT.md "Light form"): macros on a component's
 * declaration in a C/C++ header. They expand to nothing for every compiler, and to Clang
 * `annotate` attributes when compose reads the header (it defines PEPPHER_COMPOSE). */
#ifndef PEPPHER_ANNOTATE_H
#define PEPPHER_ANNOTATE_H

#if defined(PEPPHER_COMPOSE) && defined(__clang__)
#define PEPPHER_ANNOTATE(text) __attribute__((annotate(text)))
#else
#define PEPPHER_ANNOTATE(text)
#endif

/* On the function: it is a component interface (needed only when no parameter carries an
 * annotation and no variant file is named after it). */
#define PEPPHER_COMPONENT PEPPHER_ANNOTATE("peppher:component")
/* On the function: its StarPU performance model (history, regression or nl_regression; the
 * interface's useHistoryModels, useRegressionModels, useNLRegressionModels). */
#define PEPPHER_MODEL(kind) PEPPHER_ANNOTATE("peppher:model=" #kind)
/* On the function: a constraint every variant has (each variant file may add its own in a
 * `// PEPPHER_CONSTRAINT(expr)` line): an expression over the parameters. */
#define PEPPHER_CONSTRAINT(...) PEPPHER_ANNOTATE("peppher:constraint=" #__VA_ARGS__)

/* On a parameter: its access mode (default: const T*, const T& and by-value are read,
 * other pointers and references readwrite). */
#define PEPPHER_READ PEPPHER_ANNOTATE("peppher:read")
#define PEPPHER_WRITE PEPPHER_ANNOTATE("peppher:write")
#define PEPPHER_READWRITE PEPPHER_ANNOTATE("peppher:readwrite")

/* On a raw pointer: its element count (numElements) and, for a row-major matrix, the row
 * width (descRowWidth): expressions over the other parameters. (PEPPHER_CSR implies the column
 * indices' count and, for a whole matrix, the row offsets'.) */
#define PEPPHER_SIZE(...) PEPPHER_ANNOTATE("peppher:size=" #__VA_ARGS__)
#define PEPPHER_ROW_WIDTH(...) PEPPHER_ANNOTATE("peppher:row_width=" #__VA_ARGS__)

/* On the values of a CSR matrix (a raw pointer): the parameters holding its row count, row
 * offsets and column indices, and in a call split into row blocks the first row's parameter
 * (csr_nrows, csr_row_offsets, csr_col_indices, csr_first). */
#define PEPPHER_CSR(...) PEPPHER_ANNOTATE("peppher:csr=" #__VA_ARGS__)

/* Partitioned calls: partition="..." ("n/4", "?", "bs,*"), halo="N", reduction="sum". */
#define PEPPHER_PARTITION(...) PEPPHER_ANNOTATE("peppher:partition=" #__VA_ARGS__)
#define PEPPHER_HALO(...) PEPPHER_ANNOTATE("peppher:halo=" #__VA_ARGS__)
#define PEPPHER_REDUCTION(op) PEPPHER_ANNOTATE("peppher:reduction=" #op)
/* On a partitioned operand: the by-value parameter each block's task gets plus the first
 * element (or row) of its block (blockFirst="first"). */
#define PEPPHER_BLOCK_FIRST(param) PEPPHER_ANNOTATE("peppher:block_first=" #param)

/* On a by-value scalar: the range training samples (range="lo..hi"). */
#define PEPPHER_RANGE(lo, hi) PEPPHER_ANNOTATE("peppher:range=" #lo ".." #hi)

#endif /* PEPPHER_ANNOTATE_H */
