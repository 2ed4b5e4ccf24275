# SPDX-License-Identifier: Apache-2.0
# The WebAssembly module behind bindings/js (included by the top-level CMakeLists.txt under
# emcmake). One build tree makes one flavour (RELAYOUT_WASM_SIMD / RELAYOUT_WASM_THREADS) with
# two glues over the same objects:
#   js/node/relayout.js   CommonJS, -sENVIRONMENT=node  (EXPORT_ES6 glue fails in Node:
#                         docs/web.md), beside a package.json {"type":"commonjs"} so its
#                         pthread worker loads inside the "type":"module" npm package;
#   js/web/relayout.mjs   ES module, -sENVIRONMENT=web,worker.
# The exports are generated from include/relayout.h: every RL_API function, plus malloc/free.
# No embind: bindings/js/ calls the C ABI.

file(STRINGS ${PROJECT_SOURCE_DIR}/include/relayout.h rl_api_lines REGEX "^RL_API ")
set(rl_exports _malloc _free)
foreach(line IN LISTS rl_api_lines)
  if(line MATCHES "(rl_[a-z0-9_]+)\\(")
    list(APPEND rl_exports _${CMAKE_MATCH_1})
  endif()
endforeach()
list(JOIN rl_exports "," rl_exports_csv)

set(rl_wasm_link_options
  -sMODULARIZE=1 -sEXPORT_NAME=createRelayoutModule
  "-sEXPORTED_FUNCTIONS=${rl_exports_csv}"
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sMAXIMUM_MEMORY=1GB -sTOTAL_STACK=1MB
  -sWASM_BIGINT=1 -sFILESYSTEM=0 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
  -sINCOMING_MODULE_JS_API=wasmBinary,instantiateWasm,locateFile,mainScriptUrlOrBlob,poolSize,print,printErr
  --post-js ${PROJECT_SOURCE_DIR}/bindings/js/wasm-post.js)
if(RELAYOUT_WASM_THREADS)
  # The pool is preloaded (the module resolves once its workers are up) and sized by the
  # loader to the engine's threads - 1; STRICT=2 makes a thread beyond it an error, not a hang.
  list(APPEND rl_wasm_link_options "-sPTHREAD_POOL_SIZE=Module['poolSize']||1"
       -sPTHREAD_POOL_SIZE_STRICT=2 -Wno-pthreads-mem-growth)
endif()

foreach(glue node web)
  set(t relayout_wasm_${glue})
  add_executable(${t} $<TARGET_OBJECTS:relayout_objects>)
  target_link_libraries(${t} PRIVATE relayout_options)
  set_target_properties(${t} PROPERTIES OUTPUT_NAME relayout
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/js/${glue}
    LINK_DEPENDS ${PROJECT_SOURCE_DIR}/bindings/js/wasm-post.js)
  target_link_options(${t} PRIVATE ${rl_wasm_link_options})
endforeach()
set_target_properties(relayout_wasm_node PROPERTIES SUFFIX .js)
target_link_options(relayout_wasm_node PRIVATE -sENVIRONMENT=node)
set_target_properties(relayout_wasm_web PROPERTIES SUFFIX .mjs)
target_link_options(relayout_wasm_web PRIVATE -sENVIRONMENT=web,worker -sEXPORT_ES6=1)
file(WRITE ${PROJECT_BINARY_DIR}/js/node/package.json "{ \"type\": \"commonjs\" }\n")
