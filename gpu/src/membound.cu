// Memory-bound kernels written here, each the simplest fast form of what training runs between
// GEMMs: HBM copy and triad (the bandwidth ceiling), RMSNorm, softmax, SwiGLU, rotary embedding,
// the AdamW step and an fp32→bf16 cast. Achieved GB/s = bytes read + written / time. Each kernel
// is checked against a host reference on a small input before it is timed.
#include <cuda_bf16.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "dtypes.h"
#include "suites.h"

namespace llmc::bench {
namespace {

using bf16 = __nv_bfloat16;
constexpr int kThreads = 256;

// ---- kernels -------------------------------------------------------------------------------
__global__ void copy_kernel(const float4* __restrict__ src, float4* __restrict__ dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c,
                             float s, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

__device__ float block_sum(float v) {
  __shared__ float warp_part[32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warp_part[threadIdx.x >> 5] = v;
  __syncthreads();
  float t = threadIdx.x < (blockDim.x >> 5) ? warp_part[threadIdx.x] : 0.f;
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
  __shared__ float total;
  if (threadIdx.x == 0) total = t;
  __syncthreads();
  const float r = total;
  __syncthreads();  // warp_part and total are reused by the next call
  return r;
}

__device__ float block_max(float v) {
  __shared__ float warp_part[32];
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0) warp_part[threadIdx.x >> 5] = v;
  __syncthreads();
  float t = threadIdx.x < (blockDim.x >> 5) ? warp_part[threadIdx.x] : -INFINITY;
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o >>= 1) t = fmaxf(t, __shfl_xor_sync(0xffffffffu, t, o));
  __shared__ float total;
  if (threadIdx.x == 0) total = t;
  __syncthreads();
  const float r = total;
  __syncthreads();
  return r;
}

// One block per row: y = x / sqrt(mean(x²) + eps) · w.
__global__ void rmsnorm_kernel(const bf16* __restrict__ x, const bf16* __restrict__ w, bf16* __restrict__ y, int cols,
                               float eps) {
  const bf16* xr = x + std::size_t(blockIdx.x) * cols;
  bf16* yr = y + std::size_t(blockIdx.x) * cols;
  float ss = 0;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float v = __bfloat162float(xr[i]);
    ss += v * v;
  }
  const float inv = rsqrtf(block_sum(ss) / cols + eps);
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    yr[i] = __float2bfloat16(__bfloat162float(xr[i]) * inv * __bfloat162float(w[i]));
}

// One block per row: numerically stable softmax.
__global__ void softmax_kernel(const bf16* __restrict__ x, bf16* __restrict__ y, int cols) {
  const bf16* xr = x + std::size_t(blockIdx.x) * cols;
  bf16* yr = y + std::size_t(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, __bfloat162float(xr[i]));
  m = block_max(m);
  float s = 0;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) s += __expf(__bfloat162float(xr[i]) - m);
  const float inv = 1.f / block_sum(s);
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    yr[i] = __float2bfloat16(__expf(__bfloat162float(xr[i]) - m) * inv);
}

// out = silu(gate) · up.
__global__ void swiglu_kernel(const bf16* __restrict__ gate, const bf16* __restrict__ up, bf16* __restrict__ out,
                              std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float g = __bfloat162float(gate[i]);
    out[i] = __float2bfloat16(g / (1.f + __expf(-g)) * __bfloat162float(up[i]));
  }
}

// Rotary embedding, Llama's half-split pairing (i, i + d/2), in place on x[tokens][heads][d];
// cos/sin tables [tokens][d/2] in fp32.
__global__ void rotary_kernel(bf16* __restrict__ x, const float* __restrict__ cs, const float* __restrict__ sn,
                              std::size_t tokens, int heads, int d) {
  const int half = d / 2;
  const std::size_t n = tokens * heads * half;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const int j = int(i % half);
    const std::size_t th = i / half;  // token·heads + head
    const std::size_t t = th / heads;
    bf16* v = x + th * d;
    const float a = __bfloat162float(v[j]), b = __bfloat162float(v[j + half]);
    const float c = cs[t * half + j], s = sn[t * half + j];
    v[j] = __float2bfloat16(a * c - b * s);
    v[j + half] = __float2bfloat16(b * c + a * s);
  }
}

// AdamW with fp32 params, grads and moments (the optimizer step of mixed-precision training).
__global__ void adamw_kernel(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                             float* __restrict__ v, std::size_t n, float lr, float b1, float b2, float eps, float wd,
                             float c1, float c2) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float gi = g[i];
    const float mi = b1 * m[i] + (1 - b1) * gi;
    const float vi = b2 * v[i] + (1 - b2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] = p[i] * (1 - lr * wd) - lr * (mi / c1) / (sqrtf(vi / c2) + eps);
  }
}

__global__ void cast_kernel(const float* __restrict__ src, bf16* __restrict__ dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16(src[i]);
}

// ---- host helpers --------------------------------------------------------------------------
uint16_t to_bf16_bits(float f) {  // round to nearest even, as __float2bfloat16
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float from_bf16_bits(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::vector<float> host_normal(std::size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}
std::vector<uint16_t> host_bf16(const std::vector<float>& f) {
  std::vector<uint16_t> out(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) out[i] = to_bf16_bits(f[i]);
  return out;
}
template <class T>
DeviceBuffer upload(const std::vector<T>& h) {
  DeviceBuffer d(h.size() * sizeof(T));
  CUDA_CHECK(cudaMemcpy(d.get(), h.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
std::vector<T> download(const DeviceBuffer& d, std::size_t n) {
  std::vector<T> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
// Largest |got − want| / max(1, |want|), with bf16 outputs decoded.
double max_err_bf16(const std::vector<uint16_t>& got, const std::vector<float>& want) {
  double e = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    e = std::max(e, std::fabs(double(from_bf16_bits(got[i])) - want[i]) / std::max(1.0, std::fabs(double(want[i]))));
  return e;
}

unsigned grid_for(std::size_t n, int sms) {
  return unsigned(std::min<std::size_t>((n + kThreads - 1) / kThreads, std::size_t(sms) * 32));
}

constexpr int kRowCols = 4096;  // rmsnorm / softmax row width (a common hidden size)
constexpr int kHeadDim = 128, kHeads = 32;

// One kernel of the suite: bytes moved per element, a correctness check, a timed launcher for
// `n` elements (the launcher owns its buffers).
struct Kernel {
  const char* name;
  double bytes_per_elem;
  std::function<double(int sms)> check;  // relative error
  double tol;
  std::function<std::function<void(cudaStream_t)>(std::size_t n, int sms, std::vector<DeviceBuffer>& keep)> make;
};

// Elements per whole unit of work (a float4, a row, a token's heads): sizes round down to it.
std::size_t granule_of(const std::string& name) {
  if (name == "hbm_copy" || name == "hbm_triad") return 4;
  if (name == "rmsnorm" || name == "softmax") return kRowCols;
  if (name == "rotary") return std::size_t(kHeads) * kHeadDim;
  return 1;
}

std::vector<Kernel> kernels() {
  std::vector<Kernel> k;
  k.push_back({"hbm_copy", 8,
               [](int sms) {
                 const std::size_t n = 1 << 14;
                 auto h = host_normal(n, 1);
                 DeviceBuffer s = upload(h), d(n * 4);
                 copy_kernel<<<grid_for(n / 4, sms), kThreads>>>(s.as<float4>(), d.as<float4>(), n / 4);
                 auto got = download<float>(d, n);
                 return got == h ? 0.0 : 1.0;
               },
               0,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 n &= ~std::size_t(3);
                 keep.emplace_back(n * 4);
                 keep.emplace_back(n * 4);
                 fill_normal(keep[0].get(), Elem::f32, n, 1, 3, nullptr);
                 float4* s = keep[0].as<float4>();
                 float4* d = keep[1].as<float4>();
                 return std::function<void(cudaStream_t)>(
                     [=](cudaStream_t st) { copy_kernel<<<grid_for(n / 4, sms), kThreads, 0, st>>>(s, d, n / 4); });
               }});
  k.push_back({"hbm_triad", 12,
               [](int sms) {
                 const std::size_t n = 1 << 14;
                 auto b = host_normal(n, 1), c = host_normal(n, 2);
                 DeviceBuffer db = upload(b), dc = upload(c), da(n * 4);
                 triad_kernel<<<grid_for(n / 4, sms), kThreads>>>(da.as<float4>(), db.as<float4>(), dc.as<float4>(),
                                                                  3.f, n / 4);
                 auto a = download<float>(da, n);
                 double e = 0;
                 for (std::size_t i = 0; i < n; ++i) e = std::max(e, double(std::fabs(a[i] - (b[i] + 3.f * c[i]))));
                 return e;
               },
               1e-5,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 n &= ~std::size_t(3);
                 for (int i = 0; i < 3; ++i) keep.emplace_back(n * 4);
                 fill_normal(keep[1].get(), Elem::f32, n, 1, 4, nullptr);
                 fill_normal(keep[2].get(), Elem::f32, n, 1, 5, nullptr);
                 float4 *a = keep[0].as<float4>(), *b = keep[1].as<float4>(), *c = keep[2].as<float4>();
                 return std::function<void(cudaStream_t)>([=](cudaStream_t st) {
                   triad_kernel<<<grid_for(n / 4, sms), kThreads, 0, st>>>(a, b, c, 3.f, n / 4);
                 });
               }});
  k.push_back({"rmsnorm", 4,
               [](int) {
                 const int rows = 8, cols = kRowCols;
                 auto x = host_bf16(host_normal(std::size_t(rows) * cols, 1)), w = host_bf16(host_normal(cols, 2));
                 DeviceBuffer dx = upload(x), dw = upload(w), dy(x.size() * 2);
                 rmsnorm_kernel<<<rows, kThreads>>>(dx.as<bf16>(), dw.as<bf16>(), dy.as<bf16>(), cols, 1e-5f);
                 auto y = download<uint16_t>(dy, x.size());
                 std::vector<float> want(x.size());
                 for (int r = 0; r < rows; ++r) {
                   double ss = 0;
                   for (int i = 0; i < cols; ++i)
                     ss += double(from_bf16_bits(x[std::size_t(r * cols + i)])) *
                           from_bf16_bits(x[std::size_t(r * cols + i)]);
                   const double inv = 1 / std::sqrt(ss / cols + 1e-5);
                   for (int i = 0; i < cols; ++i)
                     want[std::size_t(r * cols + i)] =
                         float(from_bf16_bits(x[std::size_t(r * cols + i)]) * inv * from_bf16_bits(w[std::size_t(i)]));
                 }
                 return max_err_bf16(y, want);
               },
               2e-2,
               [](std::size_t n, int, std::vector<DeviceBuffer>& keep) {
                 const std::size_t rows = std::max<std::size_t>(1, n / kRowCols);
                 keep.emplace_back(rows * kRowCols * 2);
                 keep.emplace_back(kRowCols * 2);
                 keep.emplace_back(rows * kRowCols * 2);
                 fill_normal(keep[0].get(), Elem::bf16, rows * kRowCols, 1, 6, nullptr);
                 fill_normal(keep[1].get(), Elem::bf16, kRowCols, 1, 7, nullptr);
                 bf16 *x = keep[0].as<bf16>(), *w = keep[1].as<bf16>(), *y = keep[2].as<bf16>();
                 return std::function<void(cudaStream_t)>([=](cudaStream_t st) {
                   rmsnorm_kernel<<<unsigned(rows), kThreads, 0, st>>>(x, w, y, kRowCols, 1e-5f);
                 });
               }});
  k.push_back({"softmax", 4,
               [](int) {
                 const int rows = 8, cols = kRowCols;
                 auto x = host_bf16(host_normal(std::size_t(rows) * cols, 1));
                 DeviceBuffer dx = upload(x), dy(x.size() * 2);
                 softmax_kernel<<<rows, kThreads>>>(dx.as<bf16>(), dy.as<bf16>(), cols);
                 auto y = download<uint16_t>(dy, x.size());
                 std::vector<float> want(x.size());
                 for (int r = 0; r < rows; ++r) {
                   double m = -1e30, s = 0;
                   for (int i = 0; i < cols; ++i) m = std::max(m, double(from_bf16_bits(x[std::size_t(r * cols + i)])));
                   for (int i = 0; i < cols; ++i) s += std::exp(from_bf16_bits(x[std::size_t(r * cols + i)]) - m);
                   for (int i = 0; i < cols; ++i)
                     want[std::size_t(r * cols + i)] =
                         float(std::exp(from_bf16_bits(x[std::size_t(r * cols + i)]) - m) / s);
                 }
                 // Outputs are ~1/4096: compare relative to the largest output of the row set.
                 double e = 0, top = 0;
                 for (std::size_t i = 0; i < want.size(); ++i) {
                   e = std::max(e, std::fabs(double(from_bf16_bits(y[i])) - want[i]));
                   top = std::max(top, double(want[i]));
                 }
                 return e / top;
               },
               2e-2,
               [](std::size_t n, int, std::vector<DeviceBuffer>& keep) {
                 const std::size_t rows = std::max<std::size_t>(1, n / kRowCols);
                 keep.emplace_back(rows * kRowCols * 2);
                 keep.emplace_back(rows * kRowCols * 2);
                 fill_normal(keep[0].get(), Elem::bf16, rows * kRowCols, 1, 8, nullptr);
                 bf16 *x = keep[0].as<bf16>(), *y = keep[1].as<bf16>();
                 return std::function<void(cudaStream_t)>(
                     [=](cudaStream_t st) { softmax_kernel<<<unsigned(rows), kThreads, 0, st>>>(x, y, kRowCols); });
               }});
  k.push_back({"swiglu", 6,
               [](int sms) {
                 const std::size_t n = 1 << 14;
                 auto g = host_bf16(host_normal(n, 1)), u = host_bf16(host_normal(n, 2));
                 DeviceBuffer dg = upload(g), du = upload(u), dout(n * 2);
                 swiglu_kernel<<<grid_for(n, sms), kThreads>>>(dg.as<bf16>(), du.as<bf16>(), dout.as<bf16>(), n);
                 auto y = download<uint16_t>(dout, n);
                 std::vector<float> want(n);
                 for (std::size_t i = 0; i < n; ++i) {
                   const double gi = from_bf16_bits(g[i]);
                   want[i] = float(gi / (1 + std::exp(-gi)) * from_bf16_bits(u[i]));
                 }
                 return max_err_bf16(y, want);
               },
               2e-2,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 for (int i = 0; i < 3; ++i) keep.emplace_back(n * 2);
                 fill_normal(keep[0].get(), Elem::bf16, n, 1, 9, nullptr);
                 fill_normal(keep[1].get(), Elem::bf16, n, 1, 10, nullptr);
                 bf16 *g = keep[0].as<bf16>(), *u = keep[1].as<bf16>(), *o = keep[2].as<bf16>();
                 return std::function<void(cudaStream_t)>(
                     [=](cudaStream_t st) { swiglu_kernel<<<grid_for(n, sms), kThreads, 0, st>>>(g, u, o, n); });
               }});
  // Rotary: x read + written (4 bytes per element); the cos/sin tables add 4 bytes per token·d/2
  // (1/(2·heads) of the x traffic), counted in bytes_per_elem as 4 + 4/heads.
  k.push_back({"rotary", 4.0 + 4.0 / kHeads,
               [](int sms) {
                 const std::size_t tokens = 16;
                 const std::size_t n = tokens * kHeads * kHeadDim;
                 auto x = host_bf16(host_normal(n, 1));
                 std::vector<float> c(tokens * kHeadDim / 2), s(c.size());
                 for (std::size_t t = 0; t < tokens; ++t)
                   for (int j = 0; j < kHeadDim / 2; ++j) {
                     const double ang = double(t) * std::pow(500000.0, -2.0 * j / kHeadDim);
                     c[t * kHeadDim / 2 + std::size_t(j)] = float(std::cos(ang));
                     s[t * kHeadDim / 2 + std::size_t(j)] = float(std::sin(ang));
                   }
                 DeviceBuffer dx = upload(x), dc = upload(c), ds = upload(s);
                 rotary_kernel<<<grid_for(n / 2, sms), kThreads>>>(dx.as<bf16>(), dc.as<float>(), ds.as<float>(),
                                                                   tokens, kHeads, kHeadDim);
                 auto y = download<uint16_t>(dx, n);
                 std::vector<float> want(n);
                 const int half = kHeadDim / 2;
                 for (std::size_t th = 0; th < tokens * kHeads; ++th)
                   for (int j = 0; j < half; ++j) {
                     const std::size_t t = th / kHeads;
                     const double a = from_bf16_bits(x[th * kHeadDim + std::size_t(j)]),
                                  b = from_bf16_bits(x[th * kHeadDim + std::size_t(j + half)]);
                     const double cc = c[t * half + std::size_t(j)], ss = s[t * half + std::size_t(j)];
                     want[th * kHeadDim + std::size_t(j)] = float(a * cc - b * ss);
                     want[th * kHeadDim + std::size_t(j + half)] = float(b * cc + a * ss);
                   }
                 return max_err_bf16(y, want);
               },
               2e-2,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 const std::size_t tokens = std::max<std::size_t>(1, n / (kHeads * kHeadDim));
                 keep.emplace_back(tokens * kHeads * kHeadDim * 2);
                 keep.emplace_back(tokens * kHeadDim / 2 * 4);
                 keep.emplace_back(tokens * kHeadDim / 2 * 4);
                 fill_normal(keep[0].get(), Elem::bf16, tokens * kHeads * kHeadDim, 1, 11, nullptr);
                 fill_normal(keep[1].get(), Elem::f32, tokens * kHeadDim / 2, 1, 12, nullptr);
                 fill_normal(keep[2].get(), Elem::f32, tokens * kHeadDim / 2, 1, 13, nullptr);
                 bf16* x = keep[0].as<bf16>();
                 float *c = keep[1].as<float>(), *s = keep[2].as<float>();
                 const std::size_t pairs = tokens * kHeads * kHeadDim / 2;
                 return std::function<void(cudaStream_t)>([=](cudaStream_t st) {
                   rotary_kernel<<<grid_for(pairs, sms), kThreads, 0, st>>>(x, c, s, tokens, kHeads, kHeadDim);
                 });
               }});
  // AdamW: p, m, v read and written, g read: 7 fp32 accesses = 28 bytes per parameter.
  k.push_back({"adamw", 28,
               [](int sms) {
                 const std::size_t n = 1 << 14;
                 auto p = host_normal(n, 1), g = host_normal(n, 2), m = host_normal(n, 3), v = host_normal(n, 4);
                 for (float& x : v) x = std::fabs(x);
                 DeviceBuffer dp = upload(p), dg = upload(g), dm = upload(m), dv = upload(v);
                 const float lr = 1e-3f, b1 = 0.9f, b2 = 0.95f, eps = 1e-8f, wd = 0.1f, c1 = 0.5f, c2 = 0.3f;
                 adamw_kernel<<<grid_for(n, sms), kThreads>>>(dp.as<float>(), dg.as<float>(), dm.as<float>(),
                                                              dv.as<float>(), n, lr, b1, b2, eps, wd, c1, c2);
                 auto pr = download<float>(dp, n);
                 double e = 0;
                 for (std::size_t i = 0; i < n; ++i) {
                   const double mi = b1 * double(m[i]) + (1 - b1) * g[i],
                                vi = b2 * double(v[i]) + (1 - b2) * double(g[i]) * g[i];
                   const double want = p[i] * (1 - lr * wd) - lr * (mi / c1) / (std::sqrt(vi / c2) + eps);
                   e = std::max(e, std::fabs(pr[i] - want) / std::max(1.0, std::fabs(want)));
                 }
                 return e;
               },
               1e-5,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 for (int i = 0; i < 4; ++i) {
                   keep.emplace_back(n * 4);
                   fill_normal(keep.back().get(), Elem::f32, n, 1, uint64_t(20 + i), nullptr);
                 }
                 float *p = keep[0].as<float>(), *g = keep[1].as<float>(), *m = keep[2].as<float>(),
                       *v = keep[3].as<float>();
                 // v is random normal here, possibly negative: sqrt of a negative is NaN, which
                 // costs the same bandwidth; the values are never used.
                 return std::function<void(cudaStream_t)>([=](cudaStream_t st) {
                   adamw_kernel<<<grid_for(n, sms), kThreads, 0, st>>>(p, g, m, v, n, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f,
                                                                       0.5f, 0.3f);
                 });
               }});
  k.push_back({"cast", 6,
               [](int sms) {
                 const std::size_t n = 1 << 14;
                 auto x = host_normal(n, 1);
                 DeviceBuffer dx = upload(x), dy(n * 2);
                 cast_kernel<<<grid_for(n, sms), kThreads>>>(dx.as<float>(), dy.as<bf16>(), n);
                 auto y = download<uint16_t>(dy, n);
                 for (std::size_t i = 0; i < n; ++i)
                   if (y[i] != to_bf16_bits(x[i])) return 1.0;
                 return 0.0;
               },
               0,
               [](std::size_t n, int sms, std::vector<DeviceBuffer>& keep) {
                 keep.emplace_back(n * 4);
                 keep.emplace_back(n * 2);
                 fill_normal(keep[0].get(), Elem::f32, n, 1, 30, nullptr);
                 float* x = keep[0].as<float>();
                 bf16* y = keep[1].as<bf16>();
                 return std::function<void(cudaStream_t)>(
                     [=](cudaStream_t st) { cast_kernel<<<grid_for(n, sms), kThreads, 0, st>>>(x, y, n); });
               }});
  return k;
}

}  // namespace

int membound_measurement_count(const BenchContext& ctx) {
  return int(kernels().size() * bandwidth_sizes_bytes(ctx.opt.quick).size());
}

void run_membound_suite(BenchContext& ctx) {
  const int sms = ctx.prop.multiProcessorCount;
  for (const Kernel& k : kernels()) {
    const double err = k.check(sms);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    if (!(err <= k.tol)) {
      ctx.note(std::string("membound ") + k.name + ": correctness check FAILED (error " + std::to_string(err) + " > " +
               std::to_string(k.tol) + "); not timed");
      ctx.correctness_failed = true;
      continue;
    }
    BandwidthTable& table = ctx.profile.memory_bound[k.name];
    for (int64_t bytes : bandwidth_sizes_bytes(ctx.opt.quick)) {
      const std::size_t g = granule_of(k.name);
      const std::size_t n = std::max(g, std::size_t(double(bytes) / k.bytes_per_elem) / g * g);
      const std::string label = std::string("membound ") + k.name + " " + std::to_string(bytes >> 20) + " MiB";
      if (ctx.progress) ctx.progress->step(label, ctx.policy.budget_s);
      try {
        std::vector<DeviceBuffer> keep;
        keep.reserve(8);
        auto launch = k.make(n, sms, keep);
        CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<double> secs =
            ctx.time("membound", label, launch, {{"kernel", k.name}, {"bytes", bytes}, {"elements", n}});
        table.points.push_back(bandwidth_point(double(n) * k.bytes_per_elem, secs));
      } catch (const BenchError& e) {
        cudaGetLastError();
        ctx.note(label + ": " + e.what());
      }
    }
  }
}

}  // namespace llmc::bench
