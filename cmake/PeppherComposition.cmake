# CMake functions for projects composing with PEPPHER (included by PeppherConfig.cmake):
#
#   peppher_add_composition(<target> <main.xml> [COMPOSE_OPTIONS <option>...])
#     Runs compose on <main.xml> into ${CMAKE_CURRENT_BINARY_DIR}/<target>.peppher and
#     creates the executable <target> from the composition: the main descriptor's sources
#     and link flags, every variant, the generated wrappers, and the OpenCL kernel files
#     copied next to the program (<target>-kernels/). compose runs again at build time
#     (CMake reconfigures) when a descriptor or a source it read changes. Flags that refer
#     to a variable (`<peppher:flags> $(LDFLAGS)</peppher:flags>`) take the environment's
#     value at that configure (make's command line does not reach CMake; a changed
#     environment takes effect at the next configure).
#
#   peppher_install_composition(<target> [DESTINATION <dir>])
#     install(TARGETS) of the program into <dir> (default ${CMAKE_INSTALL_BINDIR}) and its
#     kernel files where it finds them: <prefix>/share/<program>/kernels/ when <dir> is the
#     binary folder, else <dir>/<program>-kernels/.

function(peppher_add_composition target main_xml)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "COMPOSE_OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "peppher_add_composition(${target}): unexpected arguments "
                        "'${arg_UNPARSED_ARGUMENTS}' "
                        "(options for compose go after COMPOSE_OPTIONS)")
  endif()
  get_filename_component(main_xml "${main_xml}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${main_xml}")
    message(FATAL_ERROR "peppher_add_composition(${target}): ${main_xml} does not exist")
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.peppher")
  execute_process(
    COMMAND "${PEPPHER_COMPOSE_EXECUTABLE}" "${main_xml}" -o "${out}" ${arg_COMPOSE_OPTIONS}
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "compose ${main_xml} failed (${status}):\n${output}")
  endif()
  message(STATUS "compose ${main_xml} -> ${out}")
  if(output)
    message(STATUS "${output}")
  endif()
  include("${out}/peppher.cmake")
  # A changed descriptor or source (or compose itself) makes the next build reconfigure,
  # which runs compose again; compose rewrites only files whose text changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${PEPPHER_COMPOSITION_INPUTS} "${PEPPHER_COMPOSE_EXECUTABLE}")
  add_executable(${target})
  peppher_compose_application(${target})
  peppher_compose(${target})
endfunction()

function(peppher_install_composition target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESTINATION" "")
  include(GNUInstallDirs)
  if(NOT arg_DESTINATION)
    set(arg_DESTINATION "${CMAKE_INSTALL_BINDIR}")
  endif()
  get_target_property(program ${target} OUTPUT_NAME)
  if(NOT program)
    set(program ${target})
  endif()
  install(TARGETS ${target} RUNTIME DESTINATION "${arg_DESTINATION}")
  if(arg_DESTINATION STREQUAL CMAKE_INSTALL_BINDIR)
    set(kernels_dir "${CMAKE_INSTALL_DATADIR}/${program}/kernels")
  else()
    set(kernels_dir "${arg_DESTINATION}/${program}-kernels")
  endif()
  get_target_property(kernels ${target} PEPPHER_KERNEL_FILES)
  if(kernels)
    while(kernels)
      list(POP_FRONT kernels name source)
      install(FILES "${source}" DESTINATION "${kernels_dir}" RENAME "${name}")
    endwhile()
  endif()
endfunction()

# peppher_compose_cuda(<target> <source> <object> <flags>): called by a composition's
# peppher.cmake for each CUDA variant. Where the StarPU found (STARPU_INCLUDE_DIRS) has CUDA
# (STARPU_USE_CUDA in its starpu_config.h) and CMake finds the CUDA toolkit, compiles <source>
# with nvcc (<flags>, the composition's folder, the runtime's and StarPU's headers) for
# PEPPHER_CUDA_ARCH (a CMake or environment variable: compute capabilities, "90" or "80 90";
# default the machine's GPUs from nvidia-smi, else 75 80 90, PTX of the last for newer GPUs)
# and links it into <target> with CUDA::cudart and CUDA::cublas, as the generated Makefile
# does. Elsewhere the variant is left out (StarPU without CUDA never calls it).
function(peppher_compose_cuda target source object flags)
  if(NOT DEFINED PEPPHER_STARPU_HAS_CUDA)
    set(has OFF)
    foreach(dir IN LISTS STARPU_INCLUDE_DIRS)
      if(EXISTS "${dir}/starpu_config.h")
        file(STRINGS "${dir}/starpu_config.h" line REGEX "define STARPU_USE_CUDA 1")
        if(line)
          set(has ON)
        endif()
      endif()
    endforeach()
    set(PEPPHER_STARPU_HAS_CUDA ${has} CACHE INTERNAL "StarPU was built with CUDA")
  endif()
  if(NOT PEPPHER_STARPU_HAS_CUDA)
    return()
  endif()
  find_package(CUDAToolkit QUIET)
  if(NOT CUDAToolkit_FOUND)
    message(WARNING "StarPU has CUDA but CMake finds no CUDA toolkit: ${source} left out")
    return()
  endif()
  set(arch "${PEPPHER_CUDA_ARCH}")
  if(NOT arch)
    set(arch "$ENV{PEPPHER_CUDA_ARCH}")
  endif()
  if(NOT arch)
    execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE arch ERROR_QUIET RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      set(arch "")
    endif()
  endif()
  string(REGEX REPLACE "sm_|compute_|\\." "" arch "${arch}")
  string(REGEX REPLACE "[ ,;\n]+" ";" arch "${arch}")
  list(REMOVE_ITEM arch "")
  list(REMOVE_DUPLICATES arch)
  if(NOT arch)
    set(arch 75 80 90)
  endif()
  set(gencode "")
  foreach(a IN LISTS arch)
    list(APPEND gencode "-gencode=arch=compute_${a},code=sm_${a}")
  endforeach()
  list(GET arch -1 last)
  list(APPEND gencode "-gencode=arch=compute_${last},code=compute_${last}")
  get_filename_component(dir "${object}" DIRECTORY)
  set(objects "${CMAKE_CURRENT_BINARY_DIR}/${target}.peppher-cuda")
  set(out "${objects}/${object}")
  set(includes "")
  foreach(inc IN LISTS PEPPHER_CUDA_INCLUDE_DIRS)
    list(APPEND includes "-I${inc}")
  endforeach()
  foreach(inc IN LISTS STARPU_INCLUDE_DIRS)  # system headers, as in the generated Makefile
    list(APPEND includes "-isystem" "${inc}")
  endforeach()
  set(runtime_includes
      "$<TARGET_PROPERTY:Peppher::peppher,INTERFACE_INCLUDE_DIRECTORIES>")
  add_custom_command(OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${objects}/${dir}"
    COMMAND "${CUDAToolkit_NVCC_EXECUTABLE}" ${gencode} ${flags} "-I${PEPPHER_GENERATED_DIR}"
            "$<$<BOOL:${runtime_includes}>:-I$<JOIN:${runtime_includes},;-I>>" ${includes}
            -c "${source}" -o "${out}"
    DEPENDS "${source}" COMMAND_EXPAND_LISTS VERBATIM)
  target_sources(${target} PRIVATE "${out}")
  target_link_libraries(${target} PRIVATE CUDA::cudart CUDA::cublas)
endfunction()
