# `cmake --install`: the composer, the runtime library and headers, the schema, the
# templates, a CMake package (find_package(Peppher)) and a pkg-config file (peppher.pc).
include(CMakePackageConfigHelpers)

install(DIRECTORY schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/peppher/schemas)
install(DIRECTORY templates/ DESTINATION ${CMAKE_INSTALL_DATADIR}/peppher/templates)

install(EXPORT PeppherTargets NAMESPACE Peppher::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Peppher)
configure_package_config_file(cmake/PeppherConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/PeppherConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Peppher)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/PeppherConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/PeppherConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/PeppherConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Peppher)

# pkg-config: installed, and an uninstalled variant for using the build tree directly.
configure_file(cmake/peppher.pc.in ${CMAKE_CURRENT_BINARY_DIR}/peppher.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/peppher.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
