// HotSpot3D's sequential variant: the OpenMP variant's loop nest compiled without -fopenmp
// (its pragma ignored on purpose: -Wno-unknown-pragmas), as Rodinia's OpenMP program built
// without it is the sequential original.
#define HOTSPOT3D_VARIANT hotspot3d_step_seq
#include "hotspot3d_step_omp.cpp"
