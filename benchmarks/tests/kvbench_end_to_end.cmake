# End-to-end test of the kvbench binary: cmake -DKVBENCH=<path>
# -DWORK_DIR=<dir> -P kvbench_end_to_end.cmake
#
# Runs a small real benchmark and checks its exit status and JSON lines, then
# checks that bad flags and debug builds are refused with exit status 2.

if(NOT KVBENCH OR NOT WORK_DIR)
  message(FATAL_ERROR "set -DKVBENCH=<kvbench binary> -DWORK_DIR=<scratch dir>")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
# A nested path: kvbench must create the parent directories itself.
set(json "${WORK_DIR}/results/bench.jsonl")

execute_process(
  COMMAND "${KVBENCH}" --allow_debug --n=2000 --seconds=0.2
          --store=std_map,avl --dataset=course,seq_int "--json=${json}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kvbench exited ${status}, expected 0\n${err}")
endif()
foreach(expected "== data set course" "== data set seq_int" "std_map" "avl"
                 "load Mops/s" "P/M MOPS/GiB")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the table lacks '${expected}'")
  endif()
endforeach()

if(NOT EXISTS "${json}")
  message(FATAL_ERROR "no JSON file at ${json}")
endif()
file(STRINGS "${json}" lines)
list(LENGTH lines count)
if(NOT count EQUAL 4)
  message(FATAL_ERROR "expected 4 JSON lines (2 stores x 2 data sets), got ${count}")
endif()
set(build_type "")
foreach(line IN LISTS lines)
  # string(JSON) fails the script on malformed JSON.
  string(JSON status GET "${line}" status)
  string(JSON store GET "${line}" store)
  string(JSON dataset GET "${line}" dataset)
  string(JSON n GET "${line}" n)
  string(JSON load GET "${line}" metrics load_mops)
  string(JSON bytes GET "${line}" metrics rss_bytes_per_key)
  string(JSON build_type GET "${line}" build type)
  if(NOT status STREQUAL "ok" OR NOT n EQUAL 2000)
    message(FATAL_ERROR "bad record for ${store}/${dataset}: ${line}")
  endif()
  if(dataset STREQUAL "course")
    string(JSON checked GET "${line}" metrics course_checked)
    string(JSON ops GET "${line}" metrics course_ops_per_s)
    # std_map's GetNth walks, so kvbench caps its checked phase at 5x
    # --seconds; under sanitizers that cap can end it early.
    if(store STREQUAL "std_map")
      if(checked LESS 1)
        message(FATAL_ERROR "std_map: checked no course operation")
      endif()
    elseif(NOT checked EQUAL 10000)
      message(FATAL_ERROR "${store}: checked ${checked} course operations, not 10000")
    endif()
  endif()
endforeach()

# Refusals: each must exit 2 with a message naming the problem.
function(expect_refusal message_part)
  execute_process(COMMAND "${KVBENCH}" ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 2)
    message(FATAL_ERROR "kvbench ${ARGN}: exited ${status}, expected 2\n${err}")
  endif()
  string(FIND "${err}" "${message_part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "kvbench ${ARGN}: stderr lacks '${message_part}':\n${err}")
  endif()
endfunction()
expect_refusal("--n" --allow_debug --n=0)
expect_refusal("--n" --allow_debug --n=200000001)
expect_refusal("std_map" --allow_debug --store=nosuchstore)
expect_refusal("unknown data set" --allow_debug --dataset=nope)
expect_refusal("--course_ops" --allow_debug --course_ops=-1)
if(NOT build_type STREQUAL "Release")
  expect_refusal("WARNING" --n=10 --store=std_map --dataset=course)
endif()
# --dataset_stats prints one line per data set, from any build type, and
# --in_process runs a store without a child.
execute_process(
  COMMAND "${KVBENCH}" --dataset_stats --dataset=course,course_v3 --n=1000
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kvbench --dataset_stats exited ${status}\n${err}")
endif()
foreach(expected "course: count 1,000 | key bytes" "course_v3: count 1,000"
                 "shared prefix with the sorted predecessor")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "--dataset_stats output lacks '${expected}':\n${out}")
  endif()
endforeach()
execute_process(
  COMMAND "${KVBENCH}" --allow_debug --in_process --n=500 --store=avl
          --dataset=course_v3 --phases=load,get,scan
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "== data set course_v3" at)
if(NOT status EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "kvbench --in_process exited ${status}:\n${out}\n${err}")
endif()
# --course_ops: every thread runs exactly that many course operations, and
# the header and the JSON line say so.
set(fixed_json "${WORK_DIR}/fixed.jsonl")
execute_process(
  COMMAND "${KVBENCH}" --allow_debug --n=1000 --store=ctrie --dataset=course
          --threads=2 --course_ops=700 "--json=${fixed_json}"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "course threads 2 x 700 ops" at)
if(NOT status EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "kvbench --course_ops exited ${status}:\n${out}\n${err}")
endif()
file(STRINGS "${fixed_json}" fixed_line)
string(JSON planned GET "${fixed_line}" course_ops)
string(JSON done GET "${fixed_line}" metrics course_ops)
if(NOT planned EQUAL 700 OR NOT done EQUAL 1400)
  message(FATAL_ERROR "--course_ops=700 x 2 threads: planned ${planned}, did ${done}")
endif()
message("kvbench end-to-end: OK")
