# SPDX-License-Identifier: Apache-2.0
# Checks of relayout-bench's interface, run by ctest as
#   cmake -DBENCH=<path to relayout-bench> -DCHECK=perf_smoke|usage -P bench_tests.cmake
#
# perf_smoke: --mode=P --csv --repeats=3 on two tiny problems prints exactly the header line and
#             one row per problem, in input order, with four positive numbers; exit status 0.
# usage:      --help exits 0 and documents the options; bad options, bad case syntax, a
#             missing batch file and an empty case list exit 2 with a message on stderr; a
#             data type relayout lacks is skipped with its reason (exit 0).
# onednn:     (builds with the oneDNN peer) --mode=P on a reorder and a shuffle prints the
#             peer's version line and, per row, oneDNN's time, the speed-up and its impl name.
cmake_minimum_required(VERSION 3.16)

if(NOT BENCH OR NOT CHECK)
  message(FATAL_ERROR "usage: cmake -DBENCH=<relayout-bench> -DCHECK=perf_smoke|usage|onednn -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

# run(<expected exit status> args...): runs BENCH, fails unless the status matches; leaves the
# output in OUT and ERR.
function(run expected)
  execute_process(COMMAND ${BENCH} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(REPLACE ";" " " cmd "${ARGN}")
  if(NOT rc STREQUAL "${expected}")
    message(FATAL_ERROR "relayout-bench ${cmd}: exit status ${rc}, expected ${expected}\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
  set(ERR "${err}" PARENT_SCOPE)
endfunction()

if(CHECK STREQUAL "perf_smoke")
  set(case1 "--reorder --sdt=f32 --ddt=f32 --stag=nchw --dtag=nChw16c 2x30x7x7")
  set(case2 "--shuffle --dir=FWD_D --dt=f32 --tag=nhwc --axis=1 --group=4 1x16x3x3")
  run(0 --mode=P --csv --repeats=3 --reorder --sdt=f32 --ddt=f32 --stag=nchw --dtag=nChw16c
      2x30x7x7 --shuffle --tag=nhwc --group=4 1x16x3x3)
  string(REGEX REPLACE "\n$" "" out "${OUT}")
  string(REPLACE "\n" ";" lines "${out}")
  list(LENGTH lines n)
  if(NOT n EQUAL 3)
    message(FATAL_ERROR "expected 3 lines (header + 2 rows), got ${n}:\n${OUT}")
  endif()
  list(GET lines 0 header)
  if(NOT header STREQUAL "case,time_ms,gbps,memcpy_gbps,ratio")
    message(FATAL_ERROR "bad CSV header: '${header}'")
  endif()
  foreach(i 1 2)
    list(GET lines ${i} row)
    string(REPLACE "," ";" fields "${row}") # these two cases contain no comma
    list(LENGTH fields nf)
    if(NOT nf EQUAL 5)
      message(FATAL_ERROR "row ${i} has ${nf} fields, expected 5: '${row}'")
    endif()
    list(GET fields 0 c)
    if(NOT c STREQUAL "${case${i}}")
      message(FATAL_ERROR "row ${i} is for '${c}', expected '${case${i}}'")
    endif()
    foreach(k 1 2 3 4)
      list(GET fields ${k} v)
      if(NOT v MATCHES "^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" OR v MATCHES "^[0.]+$")
        message(FATAL_ERROR "row ${i}, field ${k}: '${v}' is not a positive number")
      endif()
    endforeach()
  endforeach()
  message(STATUS "perf smoke ok:\n${OUT}")
elseif(CHECK STREQUAL "usage")
  run(0 --help)
  foreach(opt --mode=C --mode=P --csv --repeats= --min-time-ms= --threads= --max-isa= --seed=
          --batch= Examples)
    string(FIND "${OUT}" "${opt}" at)
    if(at LESS 0)
      message(FATAL_ERROR "--help does not mention ${opt}")
    endif()
  endforeach()
  run(2 --bogus=1 2x2)
  run(2 --mode=X 2x2)
  run(2 --mode 2x2)
  run(2 --threads=-1 2x2)
  run(2 --repeats=0 --mode=P 2x2)
  run(2 --max-isa=sse2 2x2)
  run(2 --csv 2x2)
  run(2 --sdt=f65 2x2)
  # a type relayout lacks is a skip with its reason, not an error nor a failure
  run(0 --sdt=f32,f64 2x2)
  if(NOT OUT MATCHES "tests:2 passed:1 failed:0 skipped:1\n  skipped: 1: f64 is not supported")
    message(FATAL_ERROR "--sdt=f64: expected one skip with its reason, got:\n${OUT}")
  endif()
  run(2 2xx3)
  run(2 --batch=/nonexistent/relayout-bench-cases.txt)
  run(2 --mode=C)
  if(NOT ERR MATCHES "no cases")
    message(FATAL_ERROR "no message for an empty case list: '${ERR}'")
  endif()
  message(STATUS "usage ok")
elseif(CHECK STREQUAL "onednn")
  run(0 --mode=P --min-time-ms=5 --reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nChw16c
      --attr-scales=src:common:0.5 2x30x7x7 --shuffle --tag=nhwc --group=4 1x16x3x3)
  if(NOT OUT MATCHES "# oneDNN peer: oneDNN 2\\.")
    message(FATAL_ERROR "no oneDNN peer line:\n${OUT}")
  endif()
  string(REGEX MATCHALL "\n +[0-9]+ [^\n]* [0-9.]+ +[0-9.]+  [a-z_0-9]+:[a-z_0-9]+ +--(reorder|shuffle)"
         rows "${OUT}")
  list(LENGTH rows n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "expected 2 rows with oneDNN's time, speed-up and impl, got ${n}:\n${OUT}")
  endif()
  message(STATUS "onednn ok:\n${OUT}")
else()
  message(FATAL_ERROR "unknown CHECK '${CHECK}'")
endif()
