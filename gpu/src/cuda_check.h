// Error checks for the CUDA libraries: a failed call throws BenchError naming the call, the file
// and line, and the library's own message, so a suite fails with a sentence, never a crash.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace llmc::bench {

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const char* lib, const char* call, const char* file, int line, const std::string& msg) {
  throw BenchError(std::string(lib) + " call failed: " + call + " (" + file + ":" + std::to_string(line) + "): " + msg);
}

}  // namespace llmc::bench

// The one check every library's macro is made of: `call` returns a `status_type`; anything but
// `ok` fails with the library's name and `message(status)`.
#define LLMC_LIB_CHECK(lib, status_type, ok, message, call)                           \
  do {                                                                                \
    status_type s_ = (call);                                                          \
    if (s_ != (ok)) ::llmc::bench::fail(lib, #call, __FILE__, __LINE__, message(s_)); \
  } while (0)

#define CUDA_CHECK(call) LLMC_LIB_CHECK("CUDA", cudaError_t, cudaSuccess, cudaGetErrorString, call)
