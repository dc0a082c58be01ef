// Element types the suites generate, convert and time.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace llmc::bench {

enum class Elem { f32, bf16, f16, fp8_e4m3 };
inline std::size_t elem_bytes(Elem e) { return e == Elem::f32 ? 4 : e == Elem::fp8_e4m3 ? 1 : 2; }

// Fills `count` elements with N(0, stddev²) from curand (Philox, fixed seed: reproducible inputs).
void fill_normal(void* dst, Elem e, std::size_t count, float stddev, uint64_t seed, cudaStream_t s);
// Converts `count` elements of `e` to fp32 (to check results on the host).
void to_f32(const void* src, Elem e, float* dst, std::size_t count, cudaStream_t s);

}  // namespace llmc::bench
