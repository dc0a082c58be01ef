# Compiler settings shared by every target, native and wasm.
# Bit-identical results native vs wasm: no FMA contraction, no fast-math, IEEE doubles only.
add_compile_options(-ffp-contract=off)
if(EMSCRIPTEN)
  # Exceptions are on (the test framework and a few library calls use them; core itself reports
  # errors as values), and the flag must match on every object and every link (toolchain.md), except
  # for targets built without them (llmc_without_exceptions below). WebAssembly's own
  # exception handling, not Emscripten's JavaScript emulation (-fexceptions), which routes every
  # call that may throw through a JS trampoline: one estimate() took 7-14 us under node with the
  # emulation and 4-8 us with -fwasm-exceptions (docs/benchmarks.md, "estimate() as wasm").
  # Supported by Chrome 95, Firefox 100, Safari 15.2 and node 17 onwards. (../shared/docs/
  # toolchain.md writes -fexceptions; its rule, the same flag on every object and link, holds.)
  add_compile_options(-fwasm-exceptions)
  add_link_options(-fwasm-exceptions)
endif()

# llmc_without_exceptions(target): build `target` with no exception support (the embed module and
# the core library it links: no landing pads, 10.6 KB less gzipped wasm). Core reports errors as values
# and parses JSON without exceptions (common/json_util.h); a throw left in nlohmann or the C++
# library aborts instead. The flag must match on the target's objects and its link, so it applies
# to a whole chain: a library and every executable that links it.
function(llmc_without_exceptions target)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(opts ${target} ${prop})
    if(opts)
      list(REMOVE_ITEM opts -fwasm-exceptions)
      set_target_properties(${target} PROPERTIES ${prop} "${opts}")
    endif()
  endforeach()
  target_compile_options(${target} PRIVATE -fno-exceptions)
  target_compile_definitions(${target} PRIVATE JSON_NOEXCEPTION)
endfunction()
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_compile_options(-Wall -Wextra -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-restrict)  # GCC 12 false positive in <string> (GCC bug 105651)
  endif()
endif()

# llmc_wasm_node_executable(target): make a wasm target runnable by node under ctest.
#   ENVIRONMENT=node           no browser/worker loader code
#   EXIT_RUNTIME=1             main's return value becomes node's exit status (a failing doctest exits 1)
#   WASM_ASYNC_COMPILATION=0   node 20 has fetch(), which 3.1.6's async loader then misuses on a file path
#   ALLOW_MEMORY_GROWTH=1      the 16 MiB initial heap is not a limit
#   NODERAWFS=1                std::ifstream reads the real file system (golden_dump, tests' data files)
# Output from node is never a terminal worth colouring: doctest prints plain text there.
function(llmc_wasm_node_executable target)
  if(EMSCRIPTEN)
    target_link_options(${target} PRIVATE -sENVIRONMENT=node -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0
                        -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1)
    target_compile_definitions(${target} PRIVATE DOCTEST_CONFIG_COLORS_NONE)
  endif()
endfunction()
