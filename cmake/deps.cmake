# Header-only dependencies from Debian's archive (nlohmann-json3-dev, doctest-dev, libcli11-dev).
# They are copied into the build tree and included from there, because a wasm build must never
# see /usr/include (glibc headers break it; docs: shared toolchain notes). Same for native, so
# both builds read identical headers.
set(LLMC_VENDOR_INCLUDE ${CMAKE_BINARY_DIR}/deps/include)

function(llmc_copy_headers name src)
  if(NOT EXISTS ${src})
    message(FATAL_ERROR "${name} headers not found at ${src}: run scripts/setup.sh")
  endif()
  file(COPY ${src} DESTINATION ${LLMC_VENDOR_INCLUDE})
endfunction()

# LLMC_HEADER_ROOT: where those Debian headers are (an H100 box without them can point it at the
# unpacked .debs, docs/bench.md). Only the headers the enabled targets use are required.
set(LLMC_HEADER_ROOT /usr/include CACHE PATH "directory holding nlohmann/, doctest/ and CLI/")
llmc_copy_headers(nlohmann-json ${LLMC_HEADER_ROOT}/nlohmann)
if(LLMC_BUILD_TESTS OR LLMC_BUILD_FUZZ)
  llmc_copy_headers(doctest ${LLMC_HEADER_ROOT}/doctest)
endif()
if(LLMC_BUILD_CLI)
  llmc_copy_headers(CLI11 ${LLMC_HEADER_ROOT}/CLI)
endif()

add_library(llmc_deps INTERFACE)
target_include_directories(llmc_deps SYSTEM INTERFACE ${LLMC_VENDOR_INCLUDE})
