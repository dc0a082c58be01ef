#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <curand.h>

#include <string>

#include "cuda_check.h"
#include "device_buffer.h"
#include "dtypes.h"

namespace llmc::bench {
namespace {

template <class T>
__device__ T from_f(float x);
template <>
__device__ float from_f<float>(float x) {
  return x;
}
template <>
__device__ __nv_bfloat16 from_f<__nv_bfloat16>(float x) {
  return __float2bfloat16(x);
}
template <>
__device__ __half from_f<__half>(float x) {
  return __float2half(x);
}
template <>
__device__ __nv_fp8_e4m3 from_f<__nv_fp8_e4m3>(float x) {
  return __nv_fp8_e4m3(x);
}

template <class T>
__global__ void cast_from_f32(const float* src, T* dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = from_f<T>(src[i]);
}

template <class T>
__global__ void cast_to_f32(const T* src, float* dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = float(src[i]);
}

void curand_check(curandStatus_t st, const char* call) {
  if (st != CURAND_STATUS_SUCCESS) fail("cuRAND", call, __FILE__, __LINE__, "status " + std::to_string(int(st)));
}

constexpr int kBlocks = 1024, kThreads = 256;

}  // namespace

void fill_normal(void* dst, Elem e, std::size_t count, float stddev, uint64_t seed, cudaStream_t s) {
  curandGenerator_t g;
  curand_check(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10), "curandCreateGenerator");
  curand_check(curandSetStream(g, s), "curandSetStream");
  curand_check(curandSetPseudoRandomGeneratorSeed(g, seed), "curandSetPseudoRandomGeneratorSeed");
  // curandGenerateNormal needs an even count; generate in fp32 chunks and cast.
  const std::size_t chunk = std::size_t(1) << 26;  // 256 MiB of fp32 at most
  DeviceBuffer tmp(std::min(count + 1, chunk) * sizeof(float));
  for (std::size_t off = 0; off < count; off += chunk) {
    const std::size_t n = std::min(chunk, count - off);
    const std::size_t even = (n + 1) & ~std::size_t(1);
    curand_check(curandGenerateNormal(g, tmp.as<float>(), even, 0.0f, stddev), "curandGenerateNormal");
    switch (e) {
      case Elem::f32:
        cast_from_f32<<<kBlocks, kThreads, 0, s>>>(tmp.as<float>(), static_cast<float*>(dst) + off, n);
        break;
      case Elem::bf16:
        cast_from_f32<<<kBlocks, kThreads, 0, s>>>(tmp.as<float>(), static_cast<__nv_bfloat16*>(dst) + off, n);
        break;
      case Elem::f16:
        cast_from_f32<<<kBlocks, kThreads, 0, s>>>(tmp.as<float>(), static_cast<__half*>(dst) + off, n);
        break;
      case Elem::fp8_e4m3:
        cast_from_f32<<<kBlocks, kThreads, 0, s>>>(tmp.as<float>(), static_cast<__nv_fp8_e4m3*>(dst) + off, n);
        break;
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(s));  // tmp is reused by the next chunk
  }
  curandDestroyGenerator(g);
}

void to_f32(const void* src, Elem e, float* dst, std::size_t n, cudaStream_t s) {
  switch (e) {
    case Elem::f32:
      CUDA_CHECK(cudaMemcpyAsync(dst, src, n * 4, cudaMemcpyDeviceToDevice, s));
      break;
    case Elem::bf16:
      cast_to_f32<<<kBlocks, kThreads, 0, s>>>(static_cast<const __nv_bfloat16*>(src), dst, n);
      break;
    case Elem::f16:
      cast_to_f32<<<kBlocks, kThreads, 0, s>>>(static_cast<const __half*>(src), dst, n);
      break;
    case Elem::fp8_e4m3:
      cast_to_f32<<<kBlocks, kThreads, 0, s>>>(static_cast<const __nv_fp8_e4m3*>(src), dst, n);
      break;
  }
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace llmc::bench
