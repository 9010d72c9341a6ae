# The LLVM/Clang that compose's Clang users (utility mode's header scanner, verify/'s source
# parser) build with: peppher_use_clang(TARGET) adds its headers, libraries and resource
# folder to TARGET.
#
# The release's LLVM/Clang (14 to 19): the one its unversioned llvm-config names (Debian's
# llvm-dev: 14 on Debian 12, 19 on Debian 13), else the newest /usr/lib/llvm-N that has
# Clang's CMake package; LLVM_DIR chooses another. An explicit folder with NO_DEFAULT_PATH,
# so another version's CMake folder (pocl pulls in Clang 15's on Debian 12) is never mixed in;
# no version is asked for (LLVM's version file accepts only the same major.minor).
if(NOT LLVM_DIR)
  find_program(PEPPHER_LLVM_CONFIG llvm-config)
  if(PEPPHER_LLVM_CONFIG)
    execute_process(COMMAND ${PEPPHER_LLVM_CONFIG} --cmakedir OUTPUT_VARIABLE peppher_llvm_dir
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE peppher_status)
    if(peppher_status EQUAL 0 AND EXISTS "${peppher_llvm_dir}/LLVMConfig.cmake")
      set(LLVM_DIR "${peppher_llvm_dir}")
    endif()
  endif()
  foreach(peppher_major RANGE 19 14 -1)
    if(NOT LLVM_DIR AND EXISTS /usr/lib/llvm-${peppher_major}/lib/cmake/clang/ClangConfig.cmake)
      set(LLVM_DIR /usr/lib/llvm-${peppher_major}/lib/cmake/llvm)
    endif()
  endforeach()
endif()
find_package(LLVM REQUIRED CONFIG PATHS ${LLVM_DIR} NO_DEFAULT_PATH)
if(LLVM_VERSION_MAJOR LESS 14 OR LLVM_VERSION_MAJOR GREATER 19)
  message(FATAL_ERROR "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}: compose builds with LLVM "
                      "14 to 19 (set LLVM_DIR to one of those: <prefix>/lib/cmake/llvm)")
endif()
find_package(Clang REQUIRED CONFIG PATHS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang NO_DEFAULT_PATH)
message(STATUS "LLVM/Clang ${LLVM_PACKAGE_VERSION} (${LLVM_INSTALL_PREFIX}) for compose")

function(peppher_use_clang target)
  # SYSTEM: Clang's headers are not held to our warning flags.
  target_include_directories(${target} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_link_libraries(${target} PRIVATE clang-cpp LLVM)
  # Clang's builtin headers (stddef.h, ...): LibTooling looks for them next to the running
  # binary, which is not where Debian installs them. lib/clang/<full version> up to LLVM 15,
  # lib/clang/<major> since 16.
  set(peppher_resource_dir "${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION}")
  if(NOT IS_DIRECTORY "${peppher_resource_dir}")
    set(peppher_resource_dir "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
  endif()
  target_compile_definitions(${target} PRIVATE
    PEPPHER_CLANG_RESOURCE_DIR="${peppher_resource_dir}")
endfunction()
