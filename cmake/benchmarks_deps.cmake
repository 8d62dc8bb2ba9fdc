# Whether this build has the layer above the stages: benchmarks/ (the
# registry of every store, the peers from Judy and libhat-trie, kvbench, the
# graders, kvlab-draw) and common's durable wrapper (CRC-32C from ISA-L).
# The stages need none of these libraries, so a student's build of one stage
# asks only for the compiler, Abseil and GoogleTest (cmake/deps.sh stage).
#
# KVLAB_BENCHMARKS: AUTO (the default) builds the layer when its libraries
# are found and leaves it out, saying so, when they are not; ON demands them
# (the Makefile asks for ON before its whole-kit targets: make test, bench,
# grade, draw, install); OFF leaves the layer out. The answer is
# KVLAB_WITH_BENCHMARKS.
set(KVLAB_BENCHMARKS AUTO CACHE STRING
    "The benchmarks layer and the durable wrapper: AUTO, ON or OFF")
set_property(CACHE KVLAB_BENCHMARKS PROPERTY STRINGS AUTO ON OFF)
if(NOT KVLAB_BENCHMARKS MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "KVLAB_BENCHMARKS must be AUTO, ON or OFF")
endif()

set(KVLAB_WITH_BENCHMARKS OFF)
if(NOT KVLAB_BENCHMARKS STREQUAL "OFF")
  find_path(ISAL_INCLUDE_DIR isa-l/crc.h)
  find_library(ISAL_LIBRARY isal)
  find_path(JUDY_INCLUDE_DIR Judy.h)
  find_library(JUDY_LIBRARY Judy)
  find_path(HATTRIE_INCLUDE_DIR hat-trie/hat-trie.h)
  find_library(HATTRIE_LIBRARY hat-trie)
  find_package(ZLIB)  # kvbench's gcide3 reads the gzip'd GCIDE dictionary
  set(missing "")
  if(NOT ISAL_INCLUDE_DIR OR NOT ISAL_LIBRARY)
    list(APPEND missing libisal-dev)
  endif()
  if(NOT JUDY_INCLUDE_DIR OR NOT JUDY_LIBRARY)
    list(APPEND missing libjudy-dev)
  endif()
  if(NOT HATTRIE_INCLUDE_DIR OR NOT HATTRIE_LIBRARY)
    list(APPEND missing libhat-trie-dev)
  endif()
  if(NOT ZLIB_FOUND)
    list(APPEND missing zlib1g-dev)
  endif()
  list(JOIN missing " " missing_text)
  if(NOT missing)
    set(KVLAB_WITH_BENCHMARKS ON)
  elseif(KVLAB_BENCHMARKS STREQUAL "ON")
    message(FATAL_ERROR "kvlab's benchmarks layer needs ${missing_text}: "
                        "run cmake/deps.sh build")
  else()
    message(STATUS "kvlab: ${missing_text} not found: building the stages "
                   "only (no benchmarks/, no durable wrapper); "
                   "cmake/deps.sh build installs them")
  endif()
endif()
# Read by the Makefile, which reconfigures with ON before a whole-kit target.
set(KVLAB_WITH_BENCHMARKS ${KVLAB_WITH_BENCHMARKS} CACHE INTERNAL
    "Whether benchmarks/ and the durable wrapper are built")
