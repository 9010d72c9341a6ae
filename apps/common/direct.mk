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
STARPU_CFLAGS := $(shell pkg-config --cflags starpu-1.3)
STARPU_LIBS := $(shell pkg-config --libs starpu-1.3)
# -MMD -MP: objects also depend on the headers they include (the runtime's too).
FLAGS = -O2 $(PEPPHER_CFLAGS) $(STARPU_CFLAGS) -MMD -MP $(PEPPHER_WARNINGS)
COMP := $(abspath ../components)

CPP_VARIANTS := $(filter %.cpp,$(VARIANTS))
CU_VARIANTS := $(filter %.cu,$(VARIANTS))
OBJECTS := $(OUT)/main.o $(patsubst %.cpp,$(OUT)/%.o,$(notdir $(CPP_VARIANTS)))
HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_CHECK := $(if $(HAVE_NVCC),$(patsubst %.cu,$(OUT)/%.cu.o,$(notdir $(CU_VARIANTS))))

all: $(OUT)/$(APP)_direct $(CUDA_CHECK)

$(OUT)/$(APP)_direct: $(OBJECTS) $(wildcard $(PEPPHER_BUILD)/runtime/libpeppher.a)
	g++ -O2 -o $@ $(OBJECTS) $(PEPPHER_LIBS) $(STARPU_LIBS) -lOpenCL -fopenmp -lpthread

$(OUT)/main.o: main.cpp $(wildcard ../*.h ../../common/*.h)
	@mkdir -p $(OUT)
	g++ -std=c++17 $(FLAGS) -fopenmp -DKERNEL_DIR='"$(COMP)"' -c $< -o $@

$(OUT)/%.o: $(COMP)/*/%.cpp
	@mkdir -p $(OUT)
	g++ $(FLAGS) $(if $(findstring openmp,$*),-fopenmp) -c $< -o $@

# CUDA variants: compiled for checking where nvcc exists (StarPU here has no CUDA to link).
$(OUT)/%.cu.o: $(COMP)/*/%.cu
	@mkdir -p $(OUT)
	$(NVCC) -O2 $(PEPPHER_CFLAGS) $(STARPU_CFLAGS) -c $< -o $@

clean:
	rm -rf $(OUT)

-include $(wildcard $(OUT)/*.d)

.PHONY: all clean
