# Helpers shared by every stage's CMakeLists.txt.
include(GNUInstallDirs)
include(GoogleTest)

# `install_libraries` builds every library `make install` installs, no more:
# the Makefile builds it before `cmake --install`.
add_custom_target(install_libraries)

# kvlab_install_library(TARGET): installs a static library under lib/ and
# adds it to install_libraries. Install libraries only through this.
function(kvlab_install_library target)
  install(TARGETS ${target} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  add_dependencies(install_libraries ${target})
endfunction()

# Every library kvlab builds. Each is an OBJECT library so that one static
# libkvlab.a can hold them all (see install.cmake).
set_property(GLOBAL PROPERTY KVLAB_COMPONENTS "")

# kvlab_add_component(NAME SOURCES ...): a library of kvlab, headers under
# include/, linked into libkvlab.a.
function(kvlab_add_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} OBJECT ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  set_property(GLOBAL APPEND PROPERTY KVLAB_COMPONENTS ${name})
endfunction()

# kvlab_add_test(NAME LABEL stageN [PREFIX p] [SCALE s] SOURCES ... LIBS
# ...): a GoogleTest binary whose tests run under `make test` and `make
# <LABEL> test`. Its path is listed in build/tests-<LABEL>.txt for `make
# <LABEL> memcheck`. PREFIX starts every test name, for a binary that runs
# the same tests as another one (test names are unique in ctest); SCALE runs
# its tests at that fraction of their sizes (KVLAB_TEST_SCALE), for such a
# repeat when the first binary already runs them at full size, or for a
# binary whose larger runs are a test labelled long.
function(kvlab_add_test name)
  cmake_parse_arguments(ARG "" "LABEL;PREFIX;SCALE" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} kvlab_common
                        GTest::gtest GTest::gtest_main Threads::Threads)
  set(environment "")
  if(ARG_SCALE)
    set(environment ENVIRONMENT KVLAB_TEST_SCALE=${ARG_SCALE})
  endif()
  gtest_discover_tests(${name}
    TEST_PREFIX "${ARG_PREFIX}"
    PROPERTIES LABELS ${ARG_LABEL} ${environment}
    DISCOVERY_TIMEOUT 60)
  set_property(GLOBAL APPEND PROPERTY KVLAB_TESTS_${ARG_LABEL}
               $<TARGET_FILE:${name}>)
  set_property(GLOBAL APPEND PROPERTY KVLAB_LABELS ${ARG_LABEL})
  if(NOT TARGET ${ARG_LABEL})
    add_custom_target(${ARG_LABEL})
  endif()
  add_dependencies(${ARG_LABEL} ${name})
endfunction()

# Writes build/tests-<label>.txt for every label (called at the end).
function(kvlab_write_test_lists)
  get_property(labels GLOBAL PROPERTY KVLAB_LABELS)
  list(REMOVE_DUPLICATES labels)
  foreach(label IN LISTS labels)
    get_property(files GLOBAL PROPERTY KVLAB_TESTS_${label})
    list(JOIN files "\n" content)
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tests-${label}.txt
         CONTENT "${content}\n")
  endforeach()
endfunction()
