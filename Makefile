# kvlab: the student-facing front end. CMake does the building underneath;
# this file only picks a build directory and runs the right steps.
#
#   make help               what follows, in a few lines
#   make test               build everything, run every test
#   make stage1 test        only stage 1's tests (conformance suite included)
#   make bench              Release build, the benchmark table for every store
#
# Words before an action modify it: a stage (stage1 ... stage5) narrows it,
# asan / tsan switch to a sanitized build in its own directory.

SHELL := /bin/bash
.DEFAULT_GOAL := help

STAGES := $(foreach n,1 2 3 4 5,$(if $(wildcard stage$(n)_*/CMakeLists.txt),stage$(n)))
STAGE := $(firstword $(filter stage1 stage2 stage3 stage4 stage5,$(MAKECMDGOALS)))
SANITIZER := $(firstword $(filter asan tsan,$(MAKECMDGOALS)))
ACTIONS := $(filter-out stage1 stage2 stage3 stage4 stage5 asan tsan,$(MAKECMDGOALS))

ifeq ($(SANITIZER),asan)
  BUILD_DIR := build/asan
  CMAKE_ARGS := -DCMAKE_BUILD_TYPE=Debug -DKVLAB_SANITIZE=address
  export ASAN_OPTIONS := detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
else ifeq ($(SANITIZER),tsan)
  BUILD_DIR := build/tsan
  CMAKE_ARGS := -DCMAKE_BUILD_TYPE=Debug -DKVLAB_SANITIZE=thread
  export TSAN_OPTIONS := halt_on_error=1 second_deadlock_stack=1
else
  BUILD_DIR := build/debug
  CMAKE_ARGS := -DCMAKE_BUILD_TYPE=Debug
endif
RELEASE_DIR := build/release
CTEST_LABEL := $(if $(STAGE),-L '^$(STAGE)$$')
JOBS ?= 2
PREFIX ?= /usr/local
# Extra flags for kvbench, e.g. make bench BENCH_FLAGS="--n=100000".
BENCH_FLAGS ?=

.PHONY: help deps configure build test bench install memcheck format clean \
        stage1 stage2 stage3 stage4 stage5 asan tsan

help:
	@echo "kvlab make targets:"
	@echo "  make test                 build everything and run every test"
	@echo "  make stageN               build stage N (1-5, as they exist: $(strip $(STAGES)))"
	@echo "  make stageN test          run stage N's tests, conformance suite included"
	@echo "  make bench                Release build, kvbench over every store (results/bench.jsonl)"
	@echo "  make asan test            tests under AddressSanitizer + UBSan (build/asan)"
	@echo "  make tsan test            tests under ThreadSanitizer (build/tsan)"
	@echo "  make [stageN] memcheck    valgrind memcheck over the tests, sizes scaled down"
	@echo "  make install PREFIX=dir   headers, libkvlab.a and kvlab.pc under dir"
	@echo "  make deps                 install missing Debian packages (run by the others)"
	@echo "  make format / clean       clang-format every source / remove build/"

deps:
	@cmake/deps.sh all

# Each build directory is configured once; Ninja re-runs CMake when a
# CMakeLists.txt changes.
$(BUILD_DIR)/build.ninja $(RELEASE_DIR)/build.ninja:
	@cmake/deps.sh build
	cmake -S . -B $(@D) -G Ninja $(if $(filter $(RELEASE_DIR),$(@D)),-DCMAKE_BUILD_TYPE=Release,$(CMAKE_ARGS))

build: $(BUILD_DIR)/build.ninja
	@cmake/deps.sh build
	cmake --build $(BUILD_DIR) -j $(JOBS) $(if $(STAGE),--target $(STAGE))

# A stage word alone builds that stage; before an action it only narrows it.
stage1 stage2 stage3 stage4 stage5:
	@if [ -z "$(ACTIONS)" ]; then $(MAKE) --no-print-directory build STAGE=$@; fi

asan tsan:
	@if [ -z "$(ACTIONS)" ]; then $(MAKE) --no-print-directory build SANITIZER=$@; fi

test: build
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 $(CTEST_LABEL)

memcheck: build
	@cmake/deps.sh memcheck
	@cmake/memcheck.sh $(if $(STAGE),$(BUILD_DIR)/tests-$(STAGE).txt,$(wildcard $(BUILD_DIR)/tests-*.txt))

bench: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh all
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvbench
	@mkdir -p results
	$(RELEASE_DIR)/benchmarks/kvbench --json=results/bench.jsonl $(BENCH_FLAGS)

install: $(RELEASE_DIR)/build.ninja
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvlab
	cmake --install $(RELEASE_DIR) --prefix $(abspath $(PREFIX))

format:
	git ls-files '*.cc' '*.h' | xargs clang-format -i --style=file

clean:
	rm -rf build
