# Which StarPU to build with, by pkg-config: starpu-1.4, else starpu-1.3; the cache variable
# PEPPHER_STARPU (default: the environment's PEPPHER_STARPU) names the module instead, e.g.
# -DPEPPHER_STARPU=starpu-1.3. The same rule serves this build and PeppherConfig.cmake (which
# passes the module the runtime was built with).
#   peppher_find_starpu([<module>])
# defines PkgConfig::STARPU, STARPU_VERSION, STARPU_INCLUDE_DIRS (the compiler's own include
# folders left out: CMake 3.31's FindPkgConfig keeps hwloc's -I/usr/include, which would put
# /usr/include ahead of libstdc++'s headers where the list is passed as -I flags, as compose
# does for its Clang parses), PEPPHER_STARPU_MODULE (starpu-1.x) and PEPPHER_STARPUMPI_MODULE
# (starpumpi-1.x). Include folders of an IMPORTED target are system folders (-isystem), so
# StarPU's own headers are not held to our warnings.
macro(peppher_find_starpu)
  set(peppher_starpu_candidates ${ARGN})
  if(NOT peppher_starpu_candidates)
    if(PEPPHER_STARPU)
      set(peppher_starpu_candidates ${PEPPHER_STARPU})
    elseif(NOT "$ENV{PEPPHER_STARPU}" STREQUAL "")
      set(peppher_starpu_candidates $ENV{PEPPHER_STARPU})
    else()
      set(peppher_starpu_candidates starpu-1.4 starpu-1.3)
    endif()
  endif()
  pkg_search_module(STARPU REQUIRED IMPORTED_TARGET ${peppher_starpu_candidates})
  set(PEPPHER_STARPU_MODULE ${STARPU_MODULE_NAME})
  string(REPLACE "starpu-" "starpumpi-" PEPPHER_STARPUMPI_MODULE "${PEPPHER_STARPU_MODULE}")
  foreach(peppher_dir /usr/include /usr/local/include ${CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES}
                      ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES})
    list(REMOVE_ITEM STARPU_INCLUDE_DIRS "${peppher_dir}")
  endforeach()
  unset(peppher_dir)
  unset(peppher_starpu_candidates)
endmacro()

# peppher_starpu_config(<var> <include folder>...): what a program and the runtime library
# must agree on of the StarPU whose starpu_config.h is in the first of the folders holding
# one: "STARPU_MAJOR_VERSION=1 STARPU_MINOR_VERSION=3 STARPU_RELEASE_VERSION=10
# STARPU_NMAXBUFS=8 STARPU_MAXCPUS=4" (and STARPU_USE_CUDA=1 with CUDA, STARPU_SIMGRID=1 when
# simulated: a program compiled against a real StarPU's headers crashes in a simulated one, and
# the other way round), in the file's order (the generated Makefile reads it the same way);
# <var>_FILE names the file ("": none).
function(peppher_starpu_config var)
  set(config "")
  set(config_file "")
  foreach(dir IN LISTS ARGN)
    if(NOT config_file AND EXISTS "${dir}/starpu_config.h")
      set(config_file "${dir}/starpu_config.h")
      set(names "MAJOR_VERSION|MINOR_VERSION|RELEASE_VERSION|MAXCPUS|NMAXBUFS|USE_CUDA|SIMGRID")
      file(STRINGS "${config_file}" lines REGEX "^#define STARPU_(${names}) [0-9]")
      foreach(line IN LISTS lines)
        string(REGEX REPLACE "^#define ([A-Z_]+) ([0-9]+).*" "\\1=\\2" entry "${line}")
        list(APPEND config "${entry}")
      endforeach()
    endif()
  endforeach()
  string(JOIN " " config ${config})
  set(${var} "${config}" PARENT_SCOPE)
  set(${var}_FILE "${config_file}" PARENT_SCOPE)
endfunction()
