# The portable test (label portable): every source of libkvlab.a -- common,
# stages 1-5, the peers and the front -- compiled to aarch64 object files by
# Debian's cross compiler (cmake/deps.sh cross, installed by `make test
# LONG=1`),
# with this build's flags and -Werror. Nothing in the library may need x86:
# SIMD has a portable path chosen at compile time (stage 4's find_byte.h).
# Stage 4's tests with that path forced on this machine are
# stage4_portable_test (stage4_compressed_trie/CMakeLists.txt).
#
# It reads this build's compile_commands.json, so it runs in the plain GCC
# builds; sanitized and clang builds leave it out.
if(NOT KVLAB_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND Python3_Interpreter_FOUND)
  get_property(portable_components GLOBAL PROPERTY KVLAB_COMPONENTS)
  set(portable_sources "")
  foreach(component IN LISTS portable_components)
    get_target_property(dir ${component} SOURCE_DIR)
    get_target_property(sources ${component} SOURCES)
    foreach(source IN LISTS sources)
      cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${dir}")
      list(APPEND portable_sources "${source}")
    endforeach()
  endforeach()
  list(JOIN portable_sources "\n" portable_content)
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/library-sources.txt
       CONTENT "${portable_content}\n")
  add_test(NAME cross_compile_aarch64
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/cross_compile.py
            aarch64-linux-gnu-g++ ${CMAKE_BINARY_DIR}/compile_commands.json
            ${CMAKE_BINARY_DIR}/library-sources.txt
            ${CMAKE_BINARY_DIR}/cross-aarch64 --jobs 2)
  # Label long: from a fresh clone it took 223 s of wall time and both
  # cores (two compilers at once) inside make test, and 251 s in a fresh
  # clone's .ci/run: make test LONG=1 runs it.
  set_tests_properties(cross_compile_aarch64 PROPERTIES
    LABELS "portable;long" TIMEOUT 1200)
endif()
