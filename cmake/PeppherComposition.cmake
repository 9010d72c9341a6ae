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
