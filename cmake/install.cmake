# `make install PREFIX=dir`: headers under dir/include/kvlab/, one static
# dir/lib/libkvlab.a holding every stage and peer, and a pkg-config file.
include(GNUInstallDirs)

get_property(components GLOBAL PROPERTY KVLAB_COMPONENTS)
set(objects "")
foreach(component IN LISTS components)
  list(APPEND objects $<TARGET_OBJECTS:${component}>)
  get_target_property(include_dirs ${component} INCLUDE_DIRECTORIES)
  foreach(dir IN LISTS include_dirs)
    string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" dir "${dir}")
    if(EXISTS "${dir}/kvlab")
      install(DIRECTORY "${dir}/kvlab" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    endif()
  endforeach()
endforeach()

# The whole library: every component plus the front door (kvlab.h) and the
# course API (course.h).
add_library(kvlab STATIC ${objects})
target_link_libraries(kvlab PUBLIC ${components})
kvlab_install_library(kvlab)

# The system libraries libkvlab.a's objects call: the peers' and the durable
# wrapper's only when this build has them (cmake/benchmarks_deps.cmake).
set(KVLAB_PC_LIBS_PRIVATE "-pthread")
if(KVLAB_WITH_BENCHMARKS)
  string(APPEND KVLAB_PC_LIBS_PRIVATE " -lJudy -lhat-trie -lisal")
endif()
configure_file(cmake/kvlab.pc.in ${CMAKE_BINARY_DIR}/kvlab.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/kvlab.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

kvlab_write_test_lists()
