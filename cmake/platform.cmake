# Compiler settings shared by every target, native and wasm.
# Bit-identical results native vs wasm: no FMA contraction, no fast-math, IEEE doubles only.
add_compile_options(-ffp-contract=off)
if(EMSCRIPTEN)
  # -fexceptions must match on every object and every link (toolchain.md), since the JSON
  # parser reports errors by exception (caught inside core).
  add_compile_options(-fexceptions)
  add_link_options(-fexceptions)
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_compile_options(-Wall -Wextra -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-restrict)  # GCC 12 false positive in <string> (GCC bug 105651)
  endif()
endif()

# llmc_wasm_node_executable(target): make a wasm target runnable by node under ctest.
function(llmc_wasm_node_executable target)
  if(EMSCRIPTEN)
    target_link_options(${target} PRIVATE -sENVIRONMENT=node -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0
                        -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1)
  endif()
endfunction()
