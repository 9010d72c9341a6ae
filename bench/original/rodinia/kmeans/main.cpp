// bench/original/rodinia k-means: Rodinia's OpenCL kmeans program (opencl/kmeans: its text input
// "<id> <feature>..." a line, one clustering of 5 clusters, threshold 0.001) with its
// kmeansOCL's kernels replaced by the composed kmeans_swap() (once) and kmeans_assign() (every
// iteration), the new centres summed and the loop driven on the host as its
// kmeans_clustering.c does; the first nclusters points are the initial centres, as in both
// originals.
//   kmeans INPUT_FILE [dump]
// Prints "kernel region: <seconds>" (the clustering, from the first call to the centres on the
// host); `dump` then prints the centres as the original's -o does ("%d:", " %.2f").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"
#include "rd_timer.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kmeans INPUT_FILE [dump]\n");
    return 2;
  }
  PEPPHER_INITIALIZE();  // StarPU starts while the input is read and set up
  const bool dump = argc > 2 && std::strcmp(argv[2], "dump") == 0;
  const int nclusters = 5;
  const float threshold = 0.001f;
  // The input, read as the suite's read_input.c reads a text file.
  FILE* infile = std::fopen(argv[1], "r");
  if (!infile) {
    std::fprintf(stderr, "Error: no such file (%s)\n", argv[1]);
    return 1;
  }
  char line[1024];
  int npoints = 0, nfeatures = 0;
  std::vector<float> feature;
  while (std::fgets(line, sizeof line, infile) != nullptr) {
    if (std::strtok(line, " \t\n") == nullptr) continue;  // the point's id
    int n = 0;
    for (char* tok; (tok = std::strtok(nullptr, " ,\t\n")) != nullptr; n++)
      feature.push_back(static_cast<float>(std::atof(tok)));
    if (npoints == 0) nfeatures = n;
    if (n != nfeatures) {
      std::fprintf(stderr, "kmeans: line %d has %d features, not %d\n", npoints + 1, n, nfeatures);
      return 1;
    }
    npoints++;
  }
  std::fclose(infile);
  if (npoints < nclusters) {
    std::fprintf(stderr, "kmeans: %d points, fewer than %d clusters\n", npoints, nclusters);
    return 1;
  }
  std::printf("\nI/O completed\n\nNumber of objects: %d\nNumber of features: %d\n", npoints,
              nfeatures);

  const std::size_t nf = static_cast<std::size_t>(nfeatures);
  std::vector<float> clusters(nclusters * nf), new_centers(nclusters * nf, 0.0f);
  std::vector<int> membership(npoints, -1), new_centers_len(nclusters, 0);
  {
    const double t0 = rd_now();
    // The points used in place (borrow: no copy), as the originals use their array; no call
    // writes them, so the host reads them through the Vector while calls read them too.
    auto d_feature = peppher::Vector<float>::borrow(feature.data(), feature.size());
    const float* points = d_feature.host_read();
    peppher::Vector<float> d_feature_swap(feature.size());
    peppher::Vector<float> d_cluster(clusters.size());
    peppher::Vector<int> d_membership(npoints);
    kmeans_swap(d_feature, d_feature_swap, npoints, nfeatures);
    for (int i = 0; i < nclusters; i++)  // the first points, as both originals pick them
      for (std::size_t j = 0; j < nf; j++) clusters[i * nf + j] = points[i * nf + j];
    float delta;
    int loop = 0, c = 0;
    do {
      std::memcpy(d_cluster.host_write(), clusters.data(), sizeof(float) * clusters.size());
      kmeans_assign(d_feature, d_feature_swap, d_cluster, d_membership, npoints, nclusters,
                    nfeatures);
      const int* membership_OCL = d_membership.host_read();
      // The rest of the suite's kmeansOCL and kmeans_clustering, on the host as there.
      int changed = 0;
      for (int i = 0; i < npoints; i++) {
        const int cluster_id = membership_OCL[i];
        new_centers_len[cluster_id]++;
        if (membership_OCL[i] != membership[i]) {
          changed++;
          membership[i] = membership_OCL[i];
        }
        for (std::size_t j = 0; j < nf; j++) new_centers[cluster_id * nf + j] += points[i * nf + j];
      }
      delta = static_cast<float>(changed);
      for (int i = 0; i < nclusters; i++) {
        for (std::size_t j = 0; j < nf; j++) {
          if (new_centers_len[i] > 0)
            clusters[i * nf + j] = new_centers[i * nf + j] / new_centers_len[i];
          new_centers[i * nf + j] = 0.0f;
        }
        new_centers_len[i] = 0;
      }
      c++;
    } while ((delta > threshold) && (loop++ < 500));
    std::printf("kernel region: %.6f\n", rd_now() - t0);
    std::printf("iterated %d times\n", c);
  }
  PEPPHER_SHUTDOWN();
  if (dump) {
    std::printf("\n================= Centroid Coordinates =================\n");
    for (int i = 0; i < nclusters; i++) {
      std::printf("%d:", i);
      for (std::size_t j = 0; j < nf; j++) std::printf(" %.2f", clusters[i * nf + j]);
      std::printf("\n\n");
    }
  }
  return 0;
}
