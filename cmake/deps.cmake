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

llmc_copy_headers(nlohmann-json /usr/include/nlohmann)
llmc_copy_headers(doctest /usr/include/doctest)
llmc_copy_headers(CLI11 /usr/include/CLI)

add_library(llmc_deps INTERFACE)
target_include_directories(llmc_deps SYSTEM INTERFACE ${LLMC_VENDOR_INCLUDE})
