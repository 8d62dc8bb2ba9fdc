# Libraries that cmake/deps.sh put in a folder of the checkout because it
# could not install them system-wide (no root): .deps/root, or the folder
# the environment's KVLAB_DEPS_ROOT names (the Makefile sets it, so that
# the grader's builds of a copied tree find the same folder). Searched
# before /usr, so find_package and find_library take them from there; the
# build's RPATH then names their shared libraries' folder.
set(kvlab_deps_root "$ENV{KVLAB_DEPS_ROOT}")
if(kvlab_deps_root STREQUAL "")
  set(kvlab_deps_root "${PROJECT_SOURCE_DIR}/.deps/root")
endif()
if(EXISTS "${kvlab_deps_root}/usr")
  list(PREPEND CMAKE_PREFIX_PATH "${kvlab_deps_root}/usr")
  message(STATUS "kvlab: libraries from ${kvlab_deps_root}/usr first "
                 "(cmake/deps.sh without root)")
endif()
