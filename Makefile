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
# STAGE=stage4_wormhole names an assignment in a room of a stage, as the
# grader does (docs/grading.md): make builds and tests its stage (STAGE
# becomes stage4), shows the room's progress table alone, and grades,
# packages and hands out the assignment (ASSIGNMENT, ROOM=wormhole).
ASSIGNMENT := $(STAGE)
override STAGE := $(firstword $(subst _, ,$(STAGE)))
ROOM := $(patsubst $(STAGE)_%,%,$(filter $(STAGE)_%,$(ASSIGNMENT)))

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
# Tests labelled `long` only run with LONG=1: stage 5's 2,000,000-operation
# differential runs, the handout of every stage built and run on its stubs
# (handout_stubs_fail; make test builds stage 1's), and `make install` from
# a fresh Release build (install_and_build_outside_program; make test still
# installs its own build in grade_outside_program), and the out-of-memory
# sweep of every store at full size (front_allocation_failure_full; make
# test runs it at half size) and stage 5's (stage5_out_of_memory_full),
# stage 5's trie groups run on the reference
# (handout_groups_stage5_trie; make test lints its groups.txt), and the
# library compiled for arm64 (cross_compile_aarch64, whose cross compiler
# only LONG=1 installs; make test keeps stage4_portable_test, stage 4 on
# the portable search); .ci/run runs handout_stubs_fail as a step of its
# own (the others are run before a change to what they cover is merged:
# .ci/run's header). So do those labelled `grade_fixtures` (the
# submission grader on the kit's stages and broken copies of them, which
# build the kit again in Release and under the sanitizers: make
# grade-check, stage 1's a CI step), and those labelled `grade_end_to_end`
# (the Gradescope package and the handout's Classroom workflow, each
# building a kit of its own: make grade-check LONG=1).
CTEST_LABEL += $(if $(LONG),,-LE '^(long|grade_fixtures|grade_end_to_end)$$')
JOBS ?= 2
PREFIX ?= /usr/local
# Libraries cmake/deps.sh put in the checkout for want of root: every
# build, the grader's included, looks there first (cmake/local_deps.cmake).
ifneq ($(wildcard .deps/root/usr),)
  export KVLAB_DEPS_ROOT := $(CURDIR)/.deps/root
endif
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
# make grade SUBMISSION=dir STAGE=stageN|stageN_room [PRIVATE_TESTS=dir ...]: a
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
# An assignment in a room with a store of its own (the grader's
# STAGE_STORES); the others run their stage's.
ROOM_ASSIGNMENTS := stage3_ect stage4_wormhole
STAGE_STORE_stage3_ect := ect
STAGE_STORE_stage4_wormhole := wormhole
ASSIGNMENT_STORE = $(or $(STAGE_STORE_$(ASSIGNMENT)),$(STAGE_STORE_$(STAGE)))
TOOL_STORE = $(or $(STORE),$(if $(STAGE),$(ASSIGNMENT_STORE),$(STAGE_STORE_stage1)))
# make grade needs STORE= or a stage word (make stage2 grade: btree).
GRADE_STORE = $(or $(STORE),$(if $(STAGE),$(ASSIGNMENT_STORE)))
# The rubric section kvgrade judges by: the assignment named, else the one
# whose store STORE= names (wormhole: stage4_wormhole), else the store's
# stage (kvgrade's default).
GRADE_SECTION = $(or $(ASSIGNMENT),$(firstword $(foreach a,$(ROOM_ASSIGNMENTS),$(if $(filter $(STAGE_STORE_$(a)),$(firstword $(subst :, ,$(STORE)))),$(a)))))
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
        grade-check gradescope collect grade-class gradebook \
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
	@echo "                            STAGE=stage3_ect, stage4_wormhole: stage 3's and 4's rooms"
	@echo "                            (stage3 is the pointer tries alone, stage4 the ctrie alone);"
	@echo "                            STAGE=stage5_memory or stage5_trie: one of stage 5's (stage5: both)"
	@echo "  make [stageN] grade-check the grader on the kit's stages and broken copies of them:"
	@echo "                            each must score what its expected.json says (docs/grading.md)"
	@echo "  make leaderboard          rank the submission grades in GRADES (results/grades)"
	@echo "  make gradescope STAGE=stageN OUT=file.zip   a Gradescope autograder package"
	@echo "                            (PRIVATE_TESTS=dir; docs/teaching.md, the instructor's loop)"
	@echo "  make collect REPOS=list.txt OUT=dir   a class's repositories (or ARCHIVES=dir),"
	@echo "                            one folder each, checked for the handout's kit commit"
	@echo "  make grade-class SUBMISSIONS=dir STAGE=stageN   grade them all into GRADES"
	@echo "  make gradebook [CSV=file] the grades in GRADES as CSV for a gradebook"
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
	@echo "                            stage 4 is stage4 and stage4_wormhole, stage 5 stage5_memory and"
	@echo "                            stage5_trie; make test STAGE=stage4_wormhole: the room's table)"
	@echo "  make install PREFIX=dir   headers, libkvlab.a, libkvgrade.a, their .pc files, bin/kvlab-draw"
	@echo "  make deps                 install missing Debian packages (run by the others; a stage's"
	@echo "                            actions install only what the stages use: cmake/deps.sh stage)"
	@echo "  make format / clean       clang-format every source / remove build/"
	@echo "  make format-check         fail if any tracked source is not clang-formatted"

deps:
	@cmake/deps.sh all

# Each build directory is configured once; Ninja re-runs CMake when a
# CMakeLists.txt changes. A stage's actions need only the packages of the
# stages (cmake/deps.sh stage: compiler, Abseil, GoogleTest); the whole kit's
# need the benchmarks layer's too (cmake/deps.sh build: Judy, libhat-trie,
# ISA-L, zlib), which CMake then must find (KVLAB_BENCHMARKS=ON,
# cmake/benchmarks_deps.cmake). A build directory first configured for a
# stage is configured again, with ON, before a whole-kit build.
DEPS_GROUP = $(if $(STAGE),stage,build)
WITH_BENCHMARKS = grep -q '^KVLAB_WITH_BENCHMARKS:INTERNAL=ON$$' $(1)/CMakeCache.txt \
  || cmake -DKVLAB_BENCHMARKS=ON $(1)

$(BUILD_DIR)/build.ninja:
	@cmake/deps.sh $(DEPS_GROUP)
	cmake -S . -B $(@D) -G Ninja $(CMAKE_ARGS) $(if $(STAGE),,-DKVLAB_BENCHMARKS=ON)

$(RELEASE_DIR)/build.ninja:
	@cmake/deps.sh build
	cmake -S . -B $(@D) -G Ninja -DCMAKE_BUILD_TYPE=Release -DKVLAB_BENCHMARKS=ON

build: $(BUILD_DIR)/build.ninja
	@cmake/deps.sh $(DEPS_GROUP)
	$(if $(STAGE),,@$(call WITH_BENCHMARKS,$(BUILD_DIR)))
	cmake --build $(BUILD_DIR) -j $(JOBS) $(if $(STAGE),--target $(STAGE))

# A stage word alone builds that stage; before an action it only narrows it.
stage1 stage2 stage3 stage4 stage5:
	@if [ -z "$(ACTIONS)" ]; then $(MAKE) --no-print-directory build STAGE=$@; fi

asan tsan:
	@if [ -z "$(ACTIONS)" ]; then $(MAKE) --no-print-directory build SANITIZER=$@; fi

# With a stage word, ctest also writes its results as JUnit XML and the
# stage's progress table follows (tests/groups.txt, docs/teaching.md); a
# stage with rooms (stage 4: its own code and wormhole/; stage 5: memory/
# and trie/) has one table each, named after the test binary built in the
# assignment's folder; STAGE=stage4_wormhole shows the room's alone.
GROUPS_FILE = $(if $(STAGE),$(if $(ROOM),$(wildcard $(STAGE)_*/$(ROOM)/tests/groups.txt),$(wildcard $(STAGE)_*/tests/groups.txt $(STAGE)_*/*/tests/groups.txt)))
JUNIT = $(abspath $(BUILD_DIR))/ctest-$(STAGE).xml
# ctest's console output, kept for the table: it names the signal a crashed
# test died of, which the JUnit file leaves out.
CTEST_LOG = $(abspath $(BUILD_DIR))/ctest-$(STAGE).log

# The whole suite includes the aarch64 cross compile of the library (label
# portable, cmake/portable.cmake), so it installs the cross compiler first;
# the drawings' tests (label draw) need Graphviz.
test: build
	$(if $(LONG),$(if $(STAGE)$(SANITIZER),,@cmake/deps.sh cross))
	$(if $(STAGE),,@cmake/deps.sh draw)
	@rm -f $(if $(GROUPS_FILE),$(JUNIT) $(CTEST_LOG))
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 $(CTEST_LABEL) \
	  $(if $(GROUPS_FILE),--output-junit $(JUNIT) | tee $(CTEST_LOG)) \
	  $(if $(GROUPS_FILE),; status=$${PIPESTATUS[0]}; cd $(CURDIR) && for groups in $(GROUPS_FILE); do \
	    /usr/bin/python3 benchmarks/tools/progress.py table $$groups $(JUNIT) \
	    --ctest-log $(CTEST_LOG) \
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
	  --submission=$(SUBMISSION) --stage=$(ASSIGNMENT) --jobs=$(JOBS) \
	  --json=$(GRADES)/$(notdir $(abspath $(SUBMISSION)))-$(ASSIGNMENT).json \
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
	  --threads=$(THREADS) --seconds=$(SECONDS) $(if $(GRADE_SECTION),--stage=$(GRADE_SECTION)) \
	  --json=$(RESULTS)/grade-$(subst :,_,$(GRADE_STORE)).json $(GRADE_FLAGS)
endif

leaderboard:
	/usr/bin/python3 $(GRADE_SUBMISSION)/leaderboard.py $(GRADES)

# The instructor's loop (docs/teaching.md): a Gradescope package; or
# collect a class's trees (REPOS=file of "name url" lines, or ARCHIVES=dir;
# BEFORE=date takes each repository's last commit before it), grade them
# all, and the gradebook's CSV (CSV=file, default GRADES/grades.csv).
SUBMISSIONS ?=
gradescope:
	@if [ -z "$(STAGE)" ] || [ -z "$(OUT)" ]; then echo "make gradescope: name the stage and the zip, e.g. make gradescope STAGE=stage1 OUT=stage1-autograder.zip" >&2; exit 2; fi
	/usr/bin/python3 $(GRADE_SUBMISSION)/gradescope/package.py --stage $(ASSIGNMENT) --out $(OUT) \
	  $(if $(PRIVATE_TESTS),--private-tests=$(PRIVATE_TESTS)) \
	  $(if $(SUBMISSION_FLAGS),--grader-flags="$(SUBMISSION_FLAGS)")

collect:
	@if [ -z "$(OUT)" ] || [ -z "$(REPOS)$(ARCHIVES)" ]; then echo "make collect: name the list or folder and where to put them, e.g. make collect REPOS=class.txt OUT=submissions" >&2; exit 2; fi
	/usr/bin/python3 $(GRADE_SUBMISSION)/collect.py --out $(OUT) \
	  $(if $(REPOS),--repos $(REPOS),--archives $(ARCHIVES)) \
	  $(if $(BEFORE),--before "$(BEFORE)") $(if $(KIT_COMMIT),--kit-commit $(KIT_COMMIT))

grade-class:
	@cmake/deps.sh build
	@if [ -z "$(STAGE)" ] || [ -z "$(SUBMISSIONS)" ]; then echo "make grade-class: name the folder and the stage, e.g. make grade-class SUBMISSIONS=submissions STAGE=stage1" >&2; exit 2; fi
	/usr/bin/python3 $(GRADE_SUBMISSION)/grade_class.py --submissions $(SUBMISSIONS) \
	  --stage $(ASSIGNMENT) --grades $(GRADES) --jobs $(JOBS) \
	  $(if $(PRIVATE_TESTS),--private-tests=$(PRIVATE_TESTS)) \
	  --grader-flags="$(if $(call GIVEN,N),--n=$(N)) $(if $(call GIVEN,THREADS),--threads=$(THREADS)) $(if $(call GIVEN,SECONDS),--seconds=$(SECONDS)) $(SUBMISSION_FLAGS)"

gradebook:
	/usr/bin/python3 $(GRADE_SUBMISSION)/gradebook.py $(GRADES) $(if $(CSV),--out $(CSV))

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
	@cmake/deps.sh stage
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
	  $(if $(filter command line environment,$(origin STAGES)),--stages "$(STAGES)",$(if $(STAGE),--stages $(ASSIGNMENT)))

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
# docs/grading.md), one ctest test a stage or assignment in a room
# (grade_submission_stage3_ect, grade_submission_stage4_wormhole; make
# stage3 grade-check runs stage 3's and its room's, make stage4 grade-check
# stage 4's and its room's, STAGE=stage4_wormhole the room's alone); each
# copy must score what its
# expected.json says. The grades build the kit themselves (Release,
# ASan+UBSan, TSan for stage 4) in $(BUILD_DIR)/grade_fixtures, one stage
# after another, so this needs only the configured build directory. LONG=1
# adds the Gradescope package and the Classroom workflow end to end (label
# grade_end_to_end), which build a kit of their own from nothing.
grade-check: $(BUILD_DIR)/build.ninja
	@cmake/deps.sh build
	@$(call WITH_BENCHMARKS,$(BUILD_DIR))
	cd $(BUILD_DIR) && ctest --output-on-failure \
	  $(if $(STAGE),-R '^grade_submission_$(if $(ROOM),$(ASSIGNMENT),$(STAGE)(_[a-z0-9]+)?)$$',-L '^grade_fixtures$$$(if $(LONG),|^grade_end_to_end$$)')

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
