// GEMM throughput through cuBLASLt: bf16, fp16, tf32, fp8 (e4m3, sm_89+), a log grid plus the
// chosen model's layer shapes. For each shape the heuristic proposes up to 8 algorithms; each
// gets a short trial and the fastest is measured (the "maximum achievable" of mamf-finder).
// Layout: column-major "TN" (A stored k×m and transposed, B k×n), the layout fp8 requires,
// used for every dtype so they are comparable.
#include <cublasLt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "dtypes.h"
#include "suites.h"

#define LT_CHECK(call) LLMC_LIB_CHECK("cuBLASLt", cublasStatus_t, CUBLAS_STATUS_SUCCESS, cublasLtGetStatusString, call)

namespace llmc::bench {
namespace {

struct GemmDtype {
  const char* name;  // profile key
  Elem in, out;
  cudaDataType_t a_type, c_type;
  cublasComputeType_t compute;
  int min_cc;  // compute capability ×10
  double tol;  // max |D − ref| / max |ref| in the correctness check
};

const GemmDtype kDtypes[] = {
    {"bf16", Elem::bf16, Elem::bf16, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 80, 2e-2},
    {"fp16", Elem::f16, Elem::f16, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 70, 1e-2},
    {"tf32", Elem::f32, Elem::f32, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 80, 1e-2},
    // fp8 inputs, bf16 output (as Transformer Engine runs its forward GEMMs).
    {"fp8", Elem::fp8_e4m3, Elem::bf16, CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 89, 3e-2},
};

constexpr std::size_t kWorkspaceBytes = 32u << 20;  // cuBLAS's recommendation for Hopper

// One configured problem: descriptors, buffers, and the candidate algorithms.
class LtGemm {
 public:
  LtGemm(cublasLtHandle_t lt, const GemmDtype& d, const GemmShape& s, void* workspace, cudaStream_t stream)
      : lt_(lt), ws_(workspace), d_(d), s_(s) {
    LT_CHECK(cublasLtMatmulDescCreate(&op_, d.compute, CUDA_R_32F));
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    LT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    LT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (d.in == Elem::fp8_e4m3) {
      const int8_t fast = 1;  // fp8 fast accumulation, as in Transformer Engine's forward pass
      LT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    }
    LT_CHECK(cublasLtMatrixLayoutCreate(&a_, d.a_type, uint64_t(s.k), uint64_t(s.m), int64_t(s.k)));
    LT_CHECK(cublasLtMatrixLayoutCreate(&b_, d.a_type, uint64_t(s.k), uint64_t(s.n), int64_t(s.k)));
    LT_CHECK(cublasLtMatrixLayoutCreate(&c_, d.c_type, uint64_t(s.m), uint64_t(s.n), int64_t(s.m)));
    A_ = DeviceBuffer(std::size_t(s.m) * s.k * elem_bytes(d.in));
    B_ = DeviceBuffer(std::size_t(s.k) * s.n * elem_bytes(d.in));
    D_ = DeviceBuffer(std::size_t(s.m) * s.n * elem_bytes(d.out));
    // B scaled by 1/√k keeps fp16 outputs O(1) (fp16 overflows at 65504). Not for fp8: e4m3's
    // smallest normal is 2^-6, so 1/√k would make most of B subnormals and zeros, unlike real
    // data. fp8 takes unit variance, as MAMF's torch.randn; its bf16 output holds the √k growth.
    // (On the H100 of gpu/measurements/2026-11-22-*, 8192³ ran at 1546 TFLOP/s scaled, 1535 not.)
    const float b_scale = d.in == Elem::fp8_e4m3 ? 1.0f : float(1 / std::sqrt(double(s.k)));
    fill_normal(A_.get(), d.in, std::size_t(s.m) * s.k, 1.0f, 1, stream);
    fill_normal(B_.get(), d.in, std::size_t(s.k) * s.n, b_scale, 2, stream);

    cublasLtMatmulPreference_t pref;
    LT_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    const uint64_t ws = kWorkspaceBytes;
    LT_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    algos_.resize(8);
    int returned = 0;
    const cublasStatus_t st =
        cublasLtMatmulAlgoGetHeuristic(lt, op_, a_, b_, c_, c_, pref, 8, algos_.data(), &returned);
    cublasLtMatmulPreferenceDestroy(pref);
    algos_.resize(st == CUBLAS_STATUS_SUCCESS ? std::size_t(returned) : 0);
  }
  ~LtGemm() {
    cublasLtMatrixLayoutDestroy(a_);
    cublasLtMatrixLayoutDestroy(b_);
    cublasLtMatrixLayoutDestroy(c_);
    cublasLtMatmulDescDestroy(op_);
  }
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  std::size_t algo_count() const { return algos_.size(); }
  void run(std::size_t algo, cudaStream_t s) const {
    const float alpha = 1, beta = 0;
    LT_CHECK(cublasLtMatmul(lt_, op_, &alpha, A_.get(), a_, B_.get(), b_, &beta, D_.get(), c_, D_.get(), c_,
                            &algos_[algo].algo, ws_, kWorkspaceBytes, s));
  }
  // Largest |D − ref| / largest |ref| against a double-precision host GEMM of the same inputs.
  double check(cudaStream_t s) const {
    const std::size_t na = std::size_t(s_.m) * s_.k, nb = std::size_t(s_.k) * s_.n, nd = std::size_t(s_.m) * s_.n;
    DeviceBuffer f(std::max({na, nb, nd}) * sizeof(float));
    std::vector<float> a(na), b(nb), dd(nd);
    auto fetch = [&](const DeviceBuffer& src, Elem e, std::vector<float>& dst) {
      to_f32(src.get(), e, f.as<float>(), dst.size(), s);
      CUDA_CHECK(cudaMemcpyAsync(dst.data(), f.get(), dst.size() * sizeof(float), cudaMemcpyDeviceToHost, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
    };
    run(0, s);
    fetch(A_, d_.in, a);
    fetch(B_, d_.in, b);
    fetch(D_, d_.out, dd);
    double err = 0, ref_max = 0;
    for (int64_t j = 0; j < s_.n; ++j)
      for (int64_t i = 0; i < s_.m; ++i) {
        double acc = 0;
        for (int64_t p = 0; p < s_.k; ++p) acc += double(a[std::size_t(p + i * s_.k)]) * b[std::size_t(p + j * s_.k)];
        err = std::max(err, std::fabs(acc - dd[std::size_t(i + j * s_.m)]));
        ref_max = std::max(ref_max, std::fabs(acc));
      }
    return ref_max > 0 ? err / ref_max : err;
  }

 private:
  cublasLtHandle_t lt_;
  void* ws_;
  const GemmDtype& d_;
  GemmShape s_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  DeviceBuffer A_, B_, D_;
  std::vector<cublasLtMatmulHeuristicResult_t> algos_;
};

std::vector<GemmShape> shapes_for(const BenchContext& ctx) {
  std::vector<GemmShape> all = gemm_grid(ctx.opt.quick);
  for (const GemmShape& s : ctx.model_shapes)
    if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
  return all;
}

int supported_dtypes(const BenchContext& ctx) {
  int n = 0;
  for (const GemmDtype& d : kDtypes) n += ctx.prop.major * 10 + ctx.prop.minor >= d.min_cc;
  return n;
}

}  // namespace

int gemm_measurement_count(const BenchContext& ctx) {
  return int(shapes_for(ctx).size()) * std::max(1, supported_dtypes(ctx));
}

void run_gemm_suite(BenchContext& ctx) {
  cublasLtHandle_t lt;
  LT_CHECK(cublasLtCreate(&lt));
  DeviceBuffer workspace(kWorkspaceBytes);
  const int cc = ctx.prop.major * 10 + ctx.prop.minor;
  const std::vector<GemmShape> shapes = shapes_for(ctx);
  for (const GemmDtype& d : kDtypes) {
    if (cc < d.min_cc) {
      ctx.note(std::string("gemm ") + d.name + ": skipped (needs compute capability " + std::to_string(d.min_cc / 10) +
               "." + std::to_string(d.min_cc % 10) + ", this GPU has " + std::to_string(cc / 10) + "." +
               std::to_string(cc % 10) + ")");
      continue;
    }
    {  // Correctness before timing: a 256³ problem against the host.
      LtGemm small(lt, d, GemmShape{256, 256, 256, "check"}, workspace.get(), ctx.stream);
      if (small.algo_count() == 0) {
        ctx.note(std::string("gemm ") + d.name + ": cuBLASLt offers no algorithm on this GPU; skipped");
        continue;
      }
      const double err = small.check(ctx.stream);
      if (!(err <= d.tol)) {
        ctx.note(std::string("gemm ") + d.name + ": correctness check FAILED (relative error " + std::to_string(err) +
                 " > " + std::to_string(d.tol) + "); not timed");
        ctx.correctness_failed = true;
        continue;
      }
    }
    GemmTable& table = ctx.profile.gemm[d.name];
    for (const GemmShape& s : shapes) {
      char label[160];
      std::snprintf(label, sizeof label, "gemm %s %lldx%lldx%lld %s", d.name, (long long)s.m, (long long)s.n,
                    (long long)s.k, s.label.c_str());
      if (ctx.progress) ctx.progress->step(label, ctx.policy.budget_s);
      try {
        LtGemm g(lt, d, s, workspace.get(), ctx.stream);
        if (g.algo_count() == 0) {
          ctx.note(std::string(label) + ": no cuBLASLt algorithm for this shape; skipped");
          continue;
        }
        // Algorithm selection: short trials, keep the fastest.
        std::size_t best = 0;
        double best_t = 1e30;
        const int reps = ctx.opt.quick ? 2 : 3;
        for (std::size_t a = 0; a < g.algo_count(); ++a) {
          const double t = ctx.quick_median([&](cudaStream_t st) { g.run(a, st); }, reps);
          if (t < best_t) best_t = t, best = a;
        }
        const std::vector<double> secs = ctx.time("gemm", label, [&](cudaStream_t st) { g.run(best, st); },
                                                  {{"dtype", d.name},
                                                   {"m", s.m},
                                                   {"n", s.n},
                                                   {"k", s.k},
                                                   {"source", s.label},
                                                   {"algo_index", best},
                                                   {"algos_tried", g.algo_count()}});
        table.points.push_back(gemm_point(s, secs));
      } catch (const BenchError& e) {
        // Out of memory for the largest shapes on small GPUs is expected: note it, go on.
        cudaGetLastError();
        ctx.note(std::string(label) + ": " + e.what());
      }
    }
  }
  cublasLtDestroy(lt);
}

}  // namespace llmc::bench
