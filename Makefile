# kvlab: the student-facing front end. CMake does the building underneath;
# this file only picks a build directory and runs the right steps.
#
#   make help               what follows, in a few lines
#   make test               build everything, run every test
#   make stage1 test        only stage 1's tests (conformance suite included)
#   make bench              Release build, every store on the default data
#                           sets: results/ (JSON lines, CSV, Markdown, charts)
#   make grade STORE=avl    the course grade of one store (benchmarks/rubric.txt)
#   make fuzz STORE=ctrie   the differential fuzzer on one store (docs/testing.md)
#   make draw ARGS="--store=avl --op='put a 1' --out=dir"
#                           the store drawn after each operation, a page to
#                           step through them (docs/kvlab-draw.md)
#   make grade SUBMISSION=dir STAGE=stage1   a student's tree (docs/grading.md)
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
# The Release build of bench, grade, install and the tools; RELEASE_DIR=dir
# builds elsewhere (the install test builds a fresh one).
RELEASE_DIR ?= build/release
CTEST_LABEL := $(if $(STAGE),-L '^$(STAGE)$$')
# Tests labelled `long` (stage 5's 2,000,000-operation differential runs) and
# `grade_fixtures` (the submission grader on the kit's stages and broken
# copies of them, which build the kit again in Release and under the
# sanitizers: make grade-check, its own CI step) only run with LONG=1.
CTEST_LABEL += $(if $(LONG),,-LE '^(long|grade_fixtures)$$')
JOBS ?= 2
PREFIX ?= /usr/local
# Extra flags for kvbench, e.g. make bench BENCH_FLAGS="--repeat=3".
BENCH_FLAGS ?=
# make bench: one kvbench invocation per quoted group, every registered store
# (--store=all). The default runs every data set at 100,000 pairs (the
# course phase on `course` only) and took 144 s of kvbench on the 2-core
# course machine (2026-11-22); FULL=1 is the record run at the course's
# sizes (10M course pairs with the course phase, every word and all of
# gcide3) and the other data sets at 1M; docs/benchmarking.md
# gives its measured length.
RESULTS ?= results
ifeq ($(FULL),1)
  BENCH_RUNS := "--dataset=course --n=10000000" \
                "--dataset=words,gcide3 --n=200000000 --phases=load,get,scan" \
                "--dataset=seq_int,rand_int,urls,course_v3 --n=1000000 --phases=load,get,scan"
else
  BENCH_RUNS := "--dataset=course --n=100000 --seconds=1" \
                "--dataset=seq_int,rand_int,words,gcide3,urls,course_v3 --n=100000 --phases=load,get,scan"
endif
# ALLOCATOR=tcmalloc runs kvbench (make bench) and kvgrade with gperftools'
# tcmalloc preloaded, to show each structure's sensitivity to the allocator.
ALLOCATOR ?=
# $(call LIBPATH,name): the shared library as the compiler finds it, on any
# architecture (/usr/lib/x86_64-linux-gnu/..., /usr/lib/aarch64-linux-gnu/...);
# the bare name, which the dynamic loader searches for, if it finds none.
LIBPATH = $(call FOUND_OR_NAME,$(1),$(shell $(CXX) -print-file-name=$(1)))
FOUND_OR_NAME = $(if $(realpath $(2)),$(abspath $(2)),$(1))
ifeq ($(ALLOCATOR),tcmalloc)
  PRELOAD = LD_PRELOAD=$(call LIBPATH,libtcmalloc_minimal.so.4)
else ifeq ($(ALLOCATOR),)
  PRELOAD :=
else
  $(error ALLOCATOR must be empty (glibc malloc) or tcmalloc)
endif
# make grade STORE=spec [N=... THREADS=... SECONDS=... STAGE=...]
STORE ?=
N ?= 10000000
THREADS ?= 4
SECONDS ?= 10
GRADE_FLAGS ?=
# make grade SUBMISSION=dir STAGE=stageN [PRIVATE_TESTS=dir N=... ...]: a
# student's tree built and graded part by part (docs/grading.md) by
# benchmarks/grade/submission/grade_submission.py; the JSON goes to
# $(GRADES)/<folder name>-<stage>.json. N, THREADS and SECONDS pass on only
# when given (the grader's defaults: 1,000,000, 4 and 5).
# The submission's code builds and runs in a sandbox (bubblewrap); where none
# can start the grader refuses, and UNSANDBOXED=1 grades without one (only
# code you trust).
# make leaderboard [GRADES=dir] ranks the grades there.
SUBMISSION ?=
PRIVATE_TESTS ?=
GRADES ?= $(RESULTS)/grades
SUBMISSION_FLAGS ?=
GIVEN = $(filter command line,$(origin $(1)))
GRADE_SUBMISSION = benchmarks/grade/submission
# The store a stage's tools run on unless STORE= names one.
STAGE_STORE_stage1 := avl
STAGE_STORE_stage2 := btree
STAGE_STORE_stage3 := trie_bst
STAGE_STORE_stage4 := ctrie
STAGE_STORE_stage5 := hyperion
TOOL_STORE = $(or $(STORE),$(STAGE_STORE_$(or $(STAGE),stage1)))
# make grade needs STORE= or a stage word (make stage2 grade: btree).
GRADE_STORE = $(or $(STORE),$(if $(STAGE),$(STAGE_STORE_$(STAGE))))
# Sizes for the tools: valgrind runs ~50x slower than native.
TOOL_N ?= 1000000
MASSIF_N ?= 100000
# make fuzz [STORE=spec] [SECONDS=n] [FUZZ_FLAGS=...]: libFuzzer in its own
# clang build; without STORE each input's first byte picks a store of
# benchmarks/fuzz/stores.txt. SECONDS is 60 here unless given.
FUZZ_DIR := build/fuzz
FUZZ_SECONDS = $(if $(filter command line environment,$(origin SECONDS)),$(SECONDS),60)
FUZZ_FLAGS ?=
KVBENCH = $(RELEASE_DIR)/benchmarks/kvbench
TOOL_RUN = $(KVBENCH) --in_process --allow_memory_overcommit \
  --store=$(TOOL_STORE) --dataset=course --phases=load,get,scan

.PHONY: help deps build test exercises durability-exercises bench grade leaderboard handout install \
        memcheck massif profile heapprofile format format-check clean stage1 \
        stage2 stage3 stage4 stage5 asan tsan fuzz fuzz-build fuzz-check \
        grade-check \
        draw docs-images

help:
	@echo "kvlab make targets:"
	@echo "  make test                 build everything and run every test (LONG=1 adds the long ones"
	@echo "                            and grade-check's), the arm64 cross compile of the library included"
	@echo "  make build                build everything (Debug, build/debug) without testing"
	@echo "  make stageN               build stage N (1-5, as they exist: $(strip $(STAGES)))"
	@echo "  make stageN test          run stage N's tests, conformance suite included"
	@echo "  make stageN exercises     the chapter's exercises whose answer a test checks (stages 1-5)"
	@echo "  make durability-exercises the same for docs/durability.md"
	@echo "  make bench                Release build, every store on the seven data sets at n=100,000:"
	@echo "                            results/ (bench.jsonl, results.csv, results.md, PNG charts)"
	@echo "  make bench FULL=1         the record run (10M course pairs, all of words and gcide3)"
	@echo "  make bench DOCS=1         ... and copy the report to docs/results.md and docs/img/"
	@echo "  make grade STORE=avl      the course grade: load N=10M, checked phase, 4 threads x 10 s;"
	@echo "                            thresholds in benchmarks/rubric.txt (N= THREADS= SECONDS= STAGE=)"
	@echo "  make stageN grade         the grade of the stage's store (stage1 avl ... stage5 hyperion)"
	@echo "  make grade SUBMISSION=dir STAGE=stageN   a student's tree: build, test groups,"
	@echo "                            sanitizers, workload (PRIVATE_TESTS=dir; docs/grading.md);"
	@echo "                            STAGE=stage5_memory or stage5_trie: one of stage 5's assignments"
	@echo "  make [stageN] grade-check the grader on the kit's stages and broken copies of them:"
	@echo "                            each must score what its expected.json says (docs/grading.md)"
	@echo "  make leaderboard          rank the submission grades in GRADES (results/grades)"
	@echo "  make [stageN] massif      valgrind massif on kvbench: peak heap, top allocation sites"
	@echo "  make [stageN] profile     gperftools CPU profile of kvbench: text report and call graph"
	@echo "  make [stageN] heapprofile gperftools heap profile of kvbench after load"
	@echo "                            (tools use the stage's store, or STORE=spec; results/tools/)"
	@echo "  ... ALLOCATOR=tcmalloc    bench and grade with tcmalloc instead of glibc malloc"
	@echo "  make asan test            tests under AddressSanitizer + UBSan (build/asan)"
	@echo "  make tsan test            tests under ThreadSanitizer (build/tsan)"
	@echo "  make fuzz STORE=spec SECONDS=n"
	@echo "                            the differential fuzzer (libFuzzer, clang, build/fuzz) on one"
	@echo "                            store for n s (default: every store, 60 s; docs/testing.md)"
	@echo "  make fuzz-check           every store of benchmarks/fuzz/stores.txt fuzzed 15 s"
	@echo "                            from the seed corpus (ctest -L fuzz in build/fuzz)"
	@echo "  make draw ARGS=\"--store=avl --op='put a 1' --out=dir\""
	@echo "                            kvlab-draw: one drawing of the store after each operation,"
	@echo "                            dir/index.html steps through them (docs/kvlab-draw.md)"
	@echo "  make docs-images          redraw docs/img/draw-*.svg, a few steps of each stage's store"
	@echo "  make [stageN] memcheck    valgrind memcheck over the tests, sizes scaled down"
	@echo "  make handout OUT=dir      a course handout: stubs for the core of stages 1-5"
	@echo "                            (STAGES=\"stage2 stage4\" or make stage2 handout: those only;"
	@echo "                            stage 5 is two assignments, stage5_memory and stage5_trie)"
	@echo "  make install PREFIX=dir   headers, libkvlab.a, libkvgrade.a, their .pc files, bin/kvlab-draw"
	@echo "  make deps                 install missing Debian packages (run by the others)"
	@echo "  make format / clean       clang-format every source / remove build/"
	@echo "  make format-check         fail if any tracked source is not clang-formatted"

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

# With a stage word, ctest also writes its results as JUnit XML and the
# stage's progress table follows (tests/groups.txt, docs/teaching.md); a
# stage handed out as assignments (stage 5: memory/ and trie/) has one
# table each, named after the test binary built in the assignment's folder.
GROUPS_FILE = $(if $(STAGE),$(wildcard $(STAGE)_*/tests/groups.txt $(STAGE)_*/*/tests/groups.txt))
JUNIT = $(abspath $(BUILD_DIR))/ctest-$(STAGE).xml

# The whole suite includes the aarch64 cross compile of the library (label
# portable, cmake/portable.cmake), so it installs the cross compiler first;
# the drawings' tests (label draw) need Graphviz.
test: build
	$(if $(STAGE)$(SANITIZER),,@cmake/deps.sh cross)
	@cmake/deps.sh draw
	@rm -f $(if $(GROUPS_FILE),$(JUNIT))
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 $(CTEST_LABEL) \
	  $(if $(GROUPS_FILE),--output-junit $(JUNIT)) \
	  $(if $(GROUPS_FILE),; status=$$?; cd $(CURDIR) && for groups in $(GROUPS_FILE); do \
	    /usr/bin/python3 benchmarks/tools/progress.py table $$groups $(JUNIT) \
	    --binary $$(grep -m1 "/$${groups%/tests/groups.txt}/" $(BUILD_DIR)/tests-$(STAGE).txt); \
	  done; exit $$status)

memcheck: build
	@cmake/deps.sh memcheck
	@cmake/memcheck.sh $(if $(STAGE),$(BUILD_DIR)/tests-$(STAGE).txt,$(wildcard $(BUILD_DIR)/tests-*.txt))

# Every run appends to a fresh bench.jsonl; the report is drawn even when a
# run failed, and make then exits with kvbench's worst status.
bench: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh build
	@cmake/deps.sh bench
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvbench
	@mkdir -p $(RESULTS) && rm -f $(RESULTS)/bench.jsonl
	@status=0; start=$$(date +%s); \
	for run in $(BENCH_RUNS); do \
	  echo "$(PRELOAD) $(KVBENCH) $$run --json=$(RESULTS)/bench.jsonl $(BENCH_FLAGS)"; \
	  $(PRELOAD) $(KVBENCH) $$run --json=$(RESULTS)/bench.jsonl $(BENCH_FLAGS) \
	    || status=$$?; \
	done; \
	echo "make bench: $$(( $$(date +%s) - start )) s of kvbench"; \
	/usr/bin/python3 benchmarks/tools/bench_report.py $(RESULTS) $(RESULTS)/bench.jsonl \
	  --command "make bench$(if $(FULL), FULL=$(FULL))$(if $(ALLOCATOR), ALLOCATOR=$(ALLOCATOR))$(if $(BENCH_FLAGS), BENCH_FLAGS='$(BENCH_FLAGS)')" \
	  $(if $(filter 1,$(DOCS)),--docs docs) || status=1; \
	exit $$status

grade: $(if $(SUBMISSION),,$(RELEASE_DIR)/build.ninja)
ifneq ($(SUBMISSION),)
	@cmake/deps.sh build
	@if [ -z "$(STAGE)" ]; then echo "make grade SUBMISSION=...: name the stage, e.g. STAGE=stage1 (or make stage1 grade SUBMISSION=...)" >&2; exit 2; fi
	/usr/bin/python3 $(GRADE_SUBMISSION)/grade_submission.py \
	  --submission=$(SUBMISSION) --stage=$(STAGE) --jobs=$(JOBS) \
	  --json=$(GRADES)/$(notdir $(abspath $(SUBMISSION)))-$(STAGE).json \
	  $(if $(PRIVATE_TESTS),--private-tests=$(PRIVATE_TESTS)) \
	  $(if $(call GIVEN,N),--n=$(N)) $(if $(call GIVEN,THREADS),--threads=$(THREADS)) \
	  $(if $(call GIVEN,SECONDS),--seconds=$(SECONDS)) \
	  $(if $(filter 1,$(UNSANDBOXED)),--unsandboxed) $(SUBMISSION_FLAGS)
else
	@cmake/deps.sh build
	$(if $(ALLOCATOR),@cmake/deps.sh bench)
	@if [ -z "$(GRADE_STORE)" ]; then echo "make grade: name the store, e.g. make grade STORE=avl (or make stage2 grade)" >&2; exit 2; fi
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvgrade
	@mkdir -p $(RESULTS)
	$(PRELOAD) $(RELEASE_DIR)/benchmarks/kvgrade --store=$(GRADE_STORE) --n=$(N) \
	  --threads=$(THREADS) --seconds=$(SECONDS) $(if $(STAGE),--stage=$(STAGE)) \
	  --json=$(RESULTS)/grade-$(subst :,_,$(GRADE_STORE)).json $(GRADE_FLAGS)
endif

leaderboard:
	/usr/bin/python3 $(GRADE_SUBMISSION)/leaderboard.py $(GRADES)

massif: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh memcheck
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvbench
	@mkdir -p $(RESULTS)/tools
	valgrind --tool=massif --massif-out-file=$(RESULTS)/tools/massif.$(TOOL_STORE).out \
	  $(TOOL_RUN) --n=$(MASSIF_N)
	@benchmarks/tools/massif_summary.sh $(RESULTS)/tools/massif.$(TOOL_STORE).out

profile: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh profile
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvbench
	@mkdir -p $(RESULTS)/tools
	LD_PRELOAD=$(call LIBPATH,libprofiler.so.0) CPUPROFILE=$(RESULTS)/tools/cpu.$(TOOL_STORE).prof \
	  CPUPROFILE_FREQUENCY=1000 $(TOOL_RUN) --n=$(TOOL_N)
	@benchmarks/tools/pprof_report.sh cpu $(KVBENCH) $(RESULTS)/tools/cpu.$(TOOL_STORE).prof

heapprofile: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh profile
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvbench
	@mkdir -p $(RESULTS)/tools && rm -f $(RESULTS)/tools/heap.$(TOOL_STORE).*.heap
	LD_PRELOAD=$(call LIBPATH,libtcmalloc.so.4) HEAPPROFILE=$(RESULTS)/tools/heap.$(TOOL_STORE) \
	  HEAP_PROFILE_INUSE_INTERVAL=33554432 $(TOOL_RUN) --n=$(TOOL_N) --phases=load
	@benchmarks/tools/pprof_report.sh heap $(KVBENCH) $(RESULTS)/tools/heap.$(TOOL_STORE)

# make stageN exercises: the chapter's exercises whose answer a test checks
# (label stageN_exercises). A stage in rooms (stage 5) has a test per room,
# stageN_<room>_exercises; make durability-exercises runs the durability
# chapter's (label durability_exercises).
EXERCISES = $(if $(STAGE),$(wildcard $(STAGE)_*/tests/exercises_test.cc $(STAGE)_*/*/tests/exercises_test.cc))
# stage2_btree/tests/... -> stage2_exercises; stage5_hyperion/memory/tests/...
# -> stage5_memory_exercises.
EXERCISE_TARGETS = $(foreach f,$(EXERCISES),$(if $(filter 4,$(words $(subst /, ,$(f)))),$(STAGE)_$(word 2,$(subst /, ,$(f)))_exercises,$(STAGE)_exercises))

exercises: $(BUILD_DIR)/build.ninja
	@if [ -z "$(EXERCISES)" ]; then echo "make exercises: no checkable exercises for '$(STAGE)'; stages with them: $(sort $(foreach f,$(wildcard stage*/tests/exercises_test.cc stage*/*/tests/exercises_test.cc),$(firstword $(subst _, ,$(f)))))" >&2; exit 2; fi
	@cmake/deps.sh build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target $(EXERCISE_TARGETS)
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 -L '^$(STAGE)_exercises$$'

durability-exercises: $(BUILD_DIR)/build.ninja
	@cmake/deps.sh build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target durability_exercises
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 -L '^durability_exercises$$'

# make handout OUT=dir [STAGES="stage2 stage4"] (or make stage2 handout
# OUT=dir): a student tree with the core of each stage cut out.
handout:
	@if [ -z "$(OUT)" ]; then echo "make handout: name the directory, e.g. make handout OUT=/tmp/handout" >&2; exit 2; fi
	/usr/bin/python3 benchmarks/tools/handout.py $(OUT) \
	  $(if $(filter command line environment,$(origin STAGES)),--stages "$(STAGES)",$(if $(STAGE),--stages $(STAGE)))

# The fuzz build: clang, ASan+UBSan and libFuzzer's coverage (KVLAB_FUZZ).
$(FUZZ_DIR)/build.ninja:
	@cmake/deps.sh build
	@cmake/deps.sh fuzz
	cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_COMPILER=clang++ -DKVLAB_FUZZ=ON

fuzz-build: $(FUZZ_DIR)/build.ninja
	@cmake/deps.sh fuzz
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target kvlab_fuzz kvlab_fuzz_replay

fuzz: fuzz-build
	benchmarks/fuzz/run_fuzz.sh $(FUZZ_DIR)/benchmarks/fuzz/kvlab_fuzz \
	  $(or $(STORE),any) $(FUZZ_SECONDS) $(FUZZ_DIR)/fuzz-work $(FUZZ_FLAGS)

fuzz-check: fuzz-build
	cd $(FUZZ_DIR) && ctest -j $(JOBS) --output-on-failure -L '^fuzz$$'

# make [stageN] grade-check: the submission grader on the kit's stages and
# on broken copies of them (benchmarks/grade/submission/tests/fixtures,
# docs/grading.md), one ctest test a stage; each copy must score what its
# expected.json says. The grades build the kit themselves (Release,
# ASan+UBSan, TSan for stage 4) in $(BUILD_DIR)/grade_fixtures, one stage
# after another, so this needs only the configured build directory.
grade-check: $(BUILD_DIR)/build.ninja
	@cmake/deps.sh build
	cd $(BUILD_DIR) && ctest --output-on-failure \
	  $(if $(STAGE),-R '^grade_submission_$(STAGE)$$',-L '^grade_fixtures$$')

# make draw ARGS="...": kvlab-draw (Release) with those arguments.
# make docs-images: the drawings the docs show, from docs/tools/draw_images.sh.
KVLAB_DRAW = $(RELEASE_DIR)/benchmarks/draw/kvlab-draw
ARGS ?=

draw: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh build
	@cmake/deps.sh draw
	@if [ -z "$(ARGS)" ]; then echo "make draw: give the arguments, e.g. make draw ARGS=\"--store=avl --op='put a 1' --op='put b 2' --out=draw-out\"" >&2; exit 2; fi
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvlab-draw
	$(KVLAB_DRAW) $(ARGS)

docs-images: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh build
	@cmake/deps.sh draw
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target kvlab-draw
	docs/tools/draw_images.sh $(KVLAB_DRAW) docs/img

# install_libraries is every library the install rules install, so that a
# fresh clone installs in one step.
install: $(RELEASE_DIR)/build.ninja
	@cmake/deps.sh build
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target install_libraries
	cmake --install $(RELEASE_DIR) --prefix $(abspath $(PREFIX))

format:
	@cmake/deps.sh format
	git ls-files '*.cc' '*.h' | xargs clang-format -i --style=file

# Fails, naming the files, if any tracked source is not clang-formatted.
format-check:
	@cmake/deps.sh format
	git ls-files '*.cc' '*.h' | xargs clang-format --dry-run --Werror --style=file
	@echo "format-check: every tracked source is clang-formatted"

clean:
	rm -rf build
