// A clustering library's header, as found (k-means in the style of Rodinia's): flattened
// 2-D arrays whose length is a product of parameters, arrays of row pointers, and a
// function that returns its result.
#pragma once

/// Assigns each point to its nearest cluster centre.
/// \param[in] feature npoints x nfeatures coordinates, row-major
/// \param[in] clusters nclusters x nfeatures centres, row-major
/// \param[out] membership the cluster of each point
void kmeans_assign(const float *feature, int npoints, int nfeatures, const float *clusters,
                   int nclusters, int *membership);

/// The same with the coordinates as an array of rows.
void kmeans_assign_rows(float **feature, int npoints, int nfeatures, float **clusters,
                        int nclusters, int *membership);

/// Moves the centres to the mean of their points; returns how many points changed cluster.
int kmeans_update(const float *feature, const int *membership, int npoints, int nfeatures,
                  float *new_centers, int *new_centers_len, int nclusters);

/// One length parameter: nothing to decide.
void kmeans_normalize(float *values, int n);
