# Profile registry dependencies (native only), from Debian's archive (scripts/setup.sh core):
#   PkgConfig::LLMC_HTTPLIB  libcpp-httplib-dev: httplib.h + libcpp-httplib.so; its pkg-config file
#                            adds -DCPPHTTPLIB_OPENSSL_SUPPORT (TLS server and client), zlib, brotli
#   OpenSSL::Crypto          libssl-dev (pulled in by the former): SHA-256, random tokens, CRYPTO_memcmp
#   SQLite::SQLite3          libsqlite3-dev: the registry's database
# Included before the options so they can default to "found".
#   LLMC_REGISTRY_CLIENT_FOUND   cpp-httplib + libcrypto: `llmcalc profile push|list|pull`, llmcalc-bench --upload
#   LLMC_REGISTRY_FOUND          also SQLite: `llmcalc serve`
#   LLMC_REGISTRY_MISSING        what was not found (for messages)
set(LLMC_REGISTRY_CLIENT_FOUND FALSE)
set(LLMC_REGISTRY_FOUND FALSE)
set(LLMC_REGISTRY_MISSING "")
if(EMSCRIPTEN)
  set(LLMC_REGISTRY_MISSING "a native compiler (this is an Emscripten build)")
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LLMC_HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)
  endif()
  if(NOT TARGET PkgConfig::LLMC_HTTPLIB)
    list(APPEND LLMC_REGISTRY_MISSING "cpp-httplib (libcpp-httplib-dev, found through pkg-config)")
  endif()
  find_package(OpenSSL QUIET COMPONENTS Crypto)
  if(NOT TARGET OpenSSL::Crypto)
    list(APPEND LLMC_REGISTRY_MISSING "OpenSSL libcrypto (libssl-dev)")
  endif()
  if(NOT LLMC_REGISTRY_MISSING)
    set(LLMC_REGISTRY_CLIENT_FOUND TRUE)
  endif()
  find_package(SQLite3 QUIET)
  if(NOT TARGET SQLite::SQLite3)
    list(APPEND LLMC_REGISTRY_MISSING "SQLite (libsqlite3-dev)")
  endif()
  if(NOT LLMC_REGISTRY_MISSING)
    set(LLMC_REGISTRY_FOUND TRUE)
  endif()
endif()
