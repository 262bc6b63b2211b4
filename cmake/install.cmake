# `cmake --install`: the static libraries, the public headers of include/spkrylov/ (entry
# point: <spkrylov/spkrylov.hpp>), and the package files, so that a consumer writes
#   find_package(spkrylov REQUIRED)
#   target_link_libraries(app PRIVATE spkrylov::spkrylov)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SPK_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/spkrylov)
install(TARGETS spkrylov_library spk_solver spk_spmv spk_core spk_warnings
        EXPORT spkrylovTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# With MPI: spkrylov::distributed, spk::DistributedSolver (<spkrylov/distributed.hpp>); its
# consumers need MPI (the package config finds it), the others do not.
if(SPK_WITH_MPI)
  install(TARGETS spkrylov_distributed spk_distributed_solver spk_partition
          EXPORT spkrylovTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(SPK_PACKAGE_NEEDS_MPI ON)
else()
  set(spk_exclude_mpi_header PATTERN distributed.hpp EXCLUDE)
  set(SPK_PACKAGE_NEEDS_MPI OFF)
endif()
# Only the public headers: <spkrylov/spkrylov.hpp> and the handful it includes.
install(DIRECTORY include/spkrylov DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        ${spk_exclude_mpi_header})
install(EXPORT spkrylovTargets NAMESPACE spkrylov:: DESTINATION ${SPK_CMAKE_INSTALL_DIR})
configure_package_config_file(cmake/spkrylovConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/spkrylovConfig.cmake
                              INSTALL_DESTINATION ${SPK_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/spkrylovConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/spkrylovConfig.cmake
              ${PROJECT_BINARY_DIR}/spkrylovConfigVersion.cmake
        DESTINATION ${SPK_CMAKE_INSTALL_DIR})
