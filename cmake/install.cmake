# Installation: shared library (SONAME), static library, header, CMake package (clgather::clgather),
# pkg-config file, and the programs.
include(CMakePackageConfigHelpers)
set(CLGATHER_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/clgather)

install(TARGETS clgather clgather_static EXPORT clgatherTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/clgather.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT clgatherTargets NAMESPACE clgather:: DESTINATION ${CLGATHER_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/clgatherConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/clgatherConfig.cmake INSTALL_DESTINATION ${CLGATHER_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/clgatherConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/clgatherConfig.cmake ${PROJECT_BINARY_DIR}/clgatherConfigVersion.cmake
        DESTINATION ${CLGATHER_CMAKE_DIR})

string(REGEX REPLACE "[^/]+" ".." CLGATHER_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${PROJECT_SOURCE_DIR}/cmake/clgather.pc.in ${PROJECT_BINARY_DIR}/clgather.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/clgather.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

foreach(program clgather_cli clgather-bench)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
