// Internal: the time of one kernel on this GPU, from the hardware profile. Lookup order, reported
// with every time: a measured table (log-space interpolation) → the profile's fitted curve →
// the spec peak × the datasheet's achievable fraction (constants below).
#pragma once
#include "inputs/datasheet.h"
#include "llmc/scenario.h"

namespace llmc::detail {

enum class KernelBasis { table, fit, spec };
const char* to_string(KernelBasis b);

struct KernelTime {
  double s = 0;        // seconds
  double rel_err = 0;  // one-sigma relative uncertainty of s (measured spread, or the basis's)
  KernelBasis basis = KernelBasis::spec;
};

// Tables by a small enum index, each looked up on first use (a step times one or two of the seven
// dtypes and a few of the memory-bound kernels).
template <class Table, int N>
class LazyTables {
 public:
  template <class Find>
  const Table* get(int i, Find find) const {
    if (!known_[i]) table_[i] = find(), known_[i] = true;
    return table_[i];
  }

 private:
  mutable const Table* table_[N] = {};
  mutable bool known_[N] = {};
};

// The profile entries kernel times read, looked up by name once per step instead of once per
// kernel (the lookups were a tenth of an estimate's time; docs/benchmarks.md).
class KernelProfile {
 public:
  explicit KernelProfile(const HardwareSpec& hw);
  const HardwareSpec& hw;
  double hbm_gbps = 0;  // streaming copy bandwidth: the profile's hbm_copy fit, else datasheet × fraction
  const GemmTable* gemm(Dtype d) const;  // null when the profile has no GEMM fit for d
  // The table that times `backend` (fa2, fa3, cudnn) in dtype d: the profile's table of that
  // backend, else its unnamed one (a fused kernel of unrecorded make times every backend); for
  // auto_, the unnamed one. Null when the profile has neither: the datasheet's then.
  const AttentionTable* attention(Dtype d, AttentionBackend backend = AttentionBackend::auto_) const;
  const BandwidthTable* memory(MemKernel k) const;  // null when the profile has no fit for k

 private:
  static constexpr int kDtypes = int(Dtype::int8) + 1;
  LazyTables<GemmTable, kDtypes> gemm_;
  static constexpr int kBackends = int(AttentionBackend::flex) + 1;
  LazyTables<AttentionTable, kDtypes * kBackends> attention_;
  LazyTables<BandwidthTable, kMemKernels> memory_;
};

// The busy share of the SMs once a GEMM's m×n output is cut into tiles (and its k loop into
// chunks) and those into waves of one per SM (kernel_time.cpp).
double tile_efficiency(double m, double n, double k, double batch, double sms);

// C[m×n] = A[m×k]·B[k×n] in `dtype`, `batch` independent products (batched attention GEMMs).
KernelTime gemm_time(const KernelProfile& kp, Dtype dtype, double m, double n, double k, double batch = 1);

// Fused (flash) attention of `batch` sequences: `q_len` queries against `kv_len` keys,
// `heads` query heads of `head_dim`, FLOPs 4·b·q·kv·h·d (÷2 causal), backward 2.5× forward.
// `backend`: the kernel (training.attention_backend); auto_: the profile's unnamed table.
KernelTime attention_time(const KernelProfile& kp, Dtype dtype, double batch, double q_len, double kv_len, double heads,
                          double kv_heads, double head_dim, bool causal, bool backward,
                          AttentionBackend backend = AttentionBackend::auto_);

// A memory-bound kernel moving `bytes` (read + written).
KernelTime memory_time(const KernelProfile& kp, MemKernel kernel, double bytes);

}  // namespace llmc::detail
