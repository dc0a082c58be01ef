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

#define CUDA_CHECK(call)                                                                                 \
  do {                                                                                                   \
    cudaError_t e_ = (call);                                                                             \
    if (e_ != cudaSuccess) ::llmc::bench::fail("CUDA", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); \
  } while (0)
