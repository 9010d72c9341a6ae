# Builds a hand-written direct/ StarPU version: its main.cpp plus the SAME variant sources as
# the composed app, with the same compilers and flags. Included by apps/<app>/direct/Makefile,
# which sets APP, VARIANTS (sources relative to ../components) and OPENCL_DIR.
#   make -C apps/<app>/direct [OUT=folder] [PEPPHER_BUILD=build folder of the project]
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
OUT ?= $(CURDIR)/build
PEPPHER_BUILD ?= $(ROOT)/build
# The build folder says how to compile and link against its runtime (sanitizer flags
# included); without it, the source tree's headers and build/runtime.
-include $(PEPPHER_BUILD)/peppher-build.mk
PEPPHER_CFLAGS ?= -I$(ROOT)/runtime/include
PEPPHER_LIBS ?= -L$(PEPPHER_BUILD)/runtime -lpeppher
PEPPHER_WARNINGS ?= -Wall -Wextra -Wshadow -Werror
NVCC ?= /usr/local/cuda/bin/nvcc
# The runtime's StarPU (peppher-build.mk), else pkg-config's starpu-1.4, else starpu-1.3; its
# headers are system headers (-isystem): our warnings are not StarPU's.
PEPPHER_STARPU ?= $(shell pkg-config --exists starpu-1.4 && echo starpu-1.4 || echo starpu-1.3)
STARPU_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags $(PEPPHER_STARPU)))
STARPU_LIBS := $(shell pkg-config --libs $(PEPPHER_STARPU))
# -MMD -MP: objects also depend on the headers they include (the runtime's too).
FLAGS = -O2 $(PEPPHER_CFLAGS) $(STARPU_CFLAGS) -MMD -MP $(PEPPHER_WARNINGS)
# The variants' folder: the app's components/ unless its Makefile names another.
COMP ?= $(abspath ../components)
# nvcc's flags for the CUDA variants: -O2, the light form's default, unless the app's Makefile
# gives the flags its variants' `// PEPPHER_FLAGS(...)` give the composed version.
NVCC_FLAGS ?= -O2

CPP_VARIANTS := $(filter %.cpp,$(VARIANTS))
CU_VARIANTS := $(filter %.cu,$(VARIANTS))
OBJECTS := $(OUT)/main.o $(patsubst %.cpp,$(OUT)/%.o,$(notdir $(CPP_VARIANTS)))
HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_CHECK := $(if $(HAVE_NVCC),$(patsubst %.cu,$(OUT)/%.cu.o,$(notdir $(CU_VARIANTS))))
# CUDA variants are linked where StarPU has CUDA (as in the generated Makefile), built for
# PEPPHER_CUDA_ARCH (compute capabilities, default 75 80 90) with the toolkit's -lcudart.
STARPU_CONFIG_H := $(firstword $(wildcard $(patsubst -I%,%/starpu_config.h, \
  $(filter -I%,$(shell pkg-config --cflags-only-I $(PEPPHER_STARPU))))))
STARPU_HAS_CUDA := $(if $(STARPU_CONFIG_H), \
  $(shell grep -q 'define STARPU_USE_CUDA 1' $(STARPU_CONFIG_H) && echo yes))
PEPPHER_CUDA_ARCH ?= 75 80 90
CUDA_ARCH_FLAGS := $(foreach a,$(PEPPHER_CUDA_ARCH),-gencode=arch=compute_$(a),code=sm_$(a))
CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(realpath $(HAVE_NVCC))))
CUDA_LINK := $(if $(and $(HAVE_NVCC),$(STARPU_HAS_CUDA)),$(CUDA_CHECK) -L$(CUDA_HOME)/lib64 -lcudart)

all: $(OUT)/$(APP)_direct $(CUDA_CHECK)

$(OUT)/$(APP)_direct: $(OBJECTS) $(if $(CUDA_LINK),$(CUDA_CHECK)) \
    $(wildcard $(PEPPHER_BUILD)/runtime/libpeppher.a)
	g++ -O2 -o $@ $(OBJECTS) $(CUDA_LINK) $(PEPPHER_LIBS) $(STARPU_LIBS) -lOpenCL -fopenmp -lpthread

$(OUT)/main.o: main.cpp $(wildcard ../*.h ../../common/*.h)
	@mkdir -p $(OUT)
	g++ -std=c++17 $(FLAGS) -fopenmp -DKERNEL_DIR='"$(COMP)"' -c $< -o $@

$(OUT)/%.o: $(COMP)/*/%.cpp
	@mkdir -p $(OUT)
	g++ $(FLAGS) $(if $(findstring openmp,$*),-fopenmp) -c $< -o $@

# CUDA variants: compiled where nvcc exists; linked only where StarPU has CUDA.
$(OUT)/%.cu.o: $(COMP)/*/%.cu
	@mkdir -p $(OUT)
	$(NVCC) $(CUDA_ARCH_FLAGS) $(NVCC_FLAGS) $(PEPPHER_CFLAGS) $(STARPU_CFLAGS) -c $< -o $@

clean:
	rm -rf $(OUT)

-include $(wildcard $(OUT)/*.d)

.PHONY: all clean
