// A linear layer's kernels (plan_ops.h): its GEMMs, the FP8 casts of their inputs under either
// scaling recipe, the dequantisation of quantised base weights, and LoRA's adapters.
#include <algorithm>

#include "estimate/placement.h"
#include "estimate/plan_ops.h"

namespace llmc::detail::plan_ops {

// torchao's rowwise FP8 (training.fp8_recipe): each GEMM scales its two operands along their free
// axes, so x, W and dY are each cast twice, once per GEMM that reads them (torchao float8
// Float8LinearConfig.from_recipe_name). A cast scaled along rows reads e bytes per element and
// writes 1 (its row's amax fuses in); one scaled along columns reads e twice (the amax over
// columns, then the cast) and writes 1. Forward: x and W by rows; backward: dY both ways, x and W
// by columns (x is kept in 16 bits). The backward GEMMs run cuBLAS's per-tensor kernel and the
// scales are applied to their outputs after (torchao addmm_float8_unwrapped: CUTLASS's rowwise
// kernel is slow without fast accumulation): a pass over dX and dW in eager PyTorch, fused into
// the next op by torch.compile (left out there). The forward's CUTLASS rowwise GEMM is timed at
// the FP8 rate (most shapes run at 90-100 % of the per-tensor kernel: pytorch/pytorch#147971).
static void rowwise_fp8_casts(const Ctx& c, double T, double k, double n, double batch, uint32_t rerun_by) {
  const double by_rows = c.e + 1, by_cols = 2 * c.e + 1;
  const bool dw = !c.frozen_weights;  // LoRA's frozen weights: no dW GEMM, so no x or dY by columns
  c.b->memory(Pass::fwd, rerun_by, MemKernel::cast, T * k * batch * by_rows);
  c.b->memory(Pass::fwd, rerun_by, MemKernel::cast, k * n * batch * by_rows);
  c.b->memory(Pass::bwd, 0, MemKernel::cast, T * n * batch * by_rows);
  if (dw) c.b->memory(Pass::bwd, 0, MemKernel::cast, T * n * batch * by_cols);
  if (dw) c.b->memory(Pass::bwd, 0, MemKernel::cast, T * k * batch * by_cols);
  c.b->memory(Pass::bwd, 0, MemKernel::cast, k * n * batch * by_cols);
  if (c.eager) c.b->memory(Pass::bwd, 0, MemKernel::hbm_copy, (T * k + (dw ? k * n : 0)) * batch * 2 * c.e);
}

// TP overlap (parallel.tp_overlap) decomposes a GEMM next to a tensor-parallel collective into
// chunks of rows, each its own GEMM as its piece of the collective arrives or leaves: smaller
// GEMMs that fill fewer waves of SMs (kernel_time.cpp) and each pay a launch. Per GEMM of the
// op begun last, how many chunks. Transformer Engine's userbuffers (NeMo's TP-overlap configs):
// the all-gather before a column-parallel GEMM and the all-gather of dY before a row-parallel
// GEMM's dX by ring exchange, tp chunks; the row-parallel forward GEMM before its
// reduce-scatter pipelined in 4 splits; the column-parallel dX and the weight gradients run whole
// beside a bulk collective. PyTorch's async TP (torch._inductor micro_pipeline_tp) fuses an
// all-gather or reduce-scatter with the one matmul next to it in tp chunks, which backward's
// column-parallel dX is not (pytorch/pytorch#149946): the same split, with tp for the pipeline.
// Its reduce-scatter sends each chunk's partial product whole and sums the tp partials it
// receives in a kernel of its own (torch.distributed._symmetric_memory,
// _fused_matmul_reduce_scatter_impl: stacked_partials, then torch.sum), where NCCL's ring reduces
// inside the collective: T × n elements read and T/tp × n written on the compute stream.
struct TpChunks {
  int fwd = 1, dx = 1;
  bool sums_partials = false;
};
static TpChunks tp_chunks(const Ctx& c) {
  const ParallelSpec& par = c.r.s.parallel;
  const Op& op = c.b->current();
  if (!tp_overlap_running(c.r) || !op.tp_window) return {};
  const int tp = int(par.tp);
  const bool async_tp = async_tp_running(c.r), gathers_fused = !async_tp_leaves_all_gathers(c.r);
  // Column-parallel: the all-gather, then the GEMM (unfused with rowwise FP8).
  if (op.tp_collectives == 0) return gathers_fused ? TpChunks{tp, 1} : TpChunks{};
  // Row-parallel: the GEMM, then its reduce-scatter; dX after the all-gather of dY.
  return {async_tp ? tp : std::min(tp, 4), gathers_fused ? tp : 1, async_tp};
}

// A linear layer y[T×n] = x[T×k]·W[k×n] of this rank: forward, and backward dX + dW (dX alone for
// LoRA's frozen base weights, whose adapters are lora_adapter's kernels). FP8 GEMMs
// need FP8 inputs, and the weight-gradient GEMM needs them transposed (Hopper's FP8 tensor cores
// take only the TN layout): Transformer Engine casts the forward input and the backward output
// gradient with a fused cast-transpose (read e bytes, write two FP8 copies); a norm that outputs
// FP8 leaves only the transpose (read 1, write 1). Weights are cast once per step (left out).
// Rowwise scaling (training.fp8_recipe) casts as rowwise_fp8_casts above instead.
// Under autocast each micro-batch casts the weight forward and its gradient backward.
// `rerun_by`: the rules that run its forward kernels again in backward; `block`: a transformer
// block's linear (LoRA's quantised base weights), not the output layer or the router.
void linear(const Ctx& c, Dtype dtype, double T, double k, double n, double batch, Fp8Input input, uint32_t rerun_by,
            bool block) {
  if (!c.b->kernels() || T <= 0 || k <= 0 || n <= 0) return;
  if (block && c.dequant > 0) {  // QLoRA-style base weights, dequantised for the forward and for backward's dX
    c.b->memory(Pass::fwd, rerun_by, MemKernel::cast, k * n * batch * c.dequant);
    c.b->memory(Pass::bwd, 0, MemKernel::cast, k * n * batch * c.dequant);
  }
  c.b->gathered(k * n * batch * c.gathered_linear);
  const TpChunks split = block ? tp_chunks(c) : TpChunks{};
  c.b->gemm(Pass::fwd, rerun_by, dtype, T / split.fwd, n, k, batch, split.fwd);
  if (split.sums_partials) c.b->memory(Pass::fwd, rerun_by, MemKernel::hbm_copy, T * n * c.e * (1 + 1 / c.tp));
  if (c.amp_fwd > 0) {  // a recomputed forward casts the weight again
    c.b->memory(Pass::fwd, rerun_by, MemKernel::cast, k * n * batch * c.amp_fwd);
    c.b->memory(Pass::bwd, 0, MemKernel::cast, k * n * batch * c.amp_bwd);
  }
  c.b->gemm(Pass::bwd, 0, dtype, T / split.dx, k, n, batch, split.dx);
  if (!c.frozen_weights) c.b->gemm(Pass::bwd, 0, dtype, k, n, T, batch);
  if (dtype == Dtype::fp8 && c.fp8_rowwise) {
    rowwise_fp8_casts(c, T, k, n, batch, rerun_by);
  } else if (dtype == Dtype::fp8) {
    const double x_bytes_per_elem = input == Fp8Input::fused_into_norm ? 2 : c.e + 2;
    c.b->memory(Pass::fwd, rerun_by, MemKernel::cast, T * k * batch * x_bytes_per_elem);
    c.b->memory(Pass::bwd, 0, MemKernel::cast, T * n * batch * (c.e + 2));
  }
}

// A LoRA adapter (Hu et al. 2021) beside a frozen linear of this rank's input width k, output
// width n: forward u = x·A (r columns) and y += u·B; backward dB = uᵀ·dY, du = dY·Bᵀ, dA = xᵀ·du and
// dX += du·Aᵀ, in 16 bits. Rank-r GEMMs are memory-bound: they read x and dY again and add into
// dX, which the GEMM time's HBM floor counts (kernel_time.cpp); the adds are taken as the GEMMs'
// accumulating epilogues (β = 1). The FLOP count leaves the adapters out (a fraction r/n of the
// layer's); they are kernels here.
void lora_adapter(const Ctx& c, double T, double k, double n, double batch, uint32_t rerun_by) {
  if (c.lora_rank <= 0 || !c.b->kernels() || T <= 0 || k <= 0 || n <= 0) return;
  const double r = c.lora_rank;
  const Dtype d = c.attn_dtype;
  c.b->gemm(Pass::fwd, rerun_by, d, T, r, k, batch);
  c.b->gemm(Pass::fwd, rerun_by, d, T, n, r, batch);
  c.b->gemm(Pass::bwd, 0, d, r, n, T, batch);  // dB
  c.b->gemm(Pass::bwd, 0, d, T, r, n, batch);  // du
  c.b->gemm(Pass::bwd, 0, d, k, r, T, batch);  // dA
  c.b->gemm(Pass::bwd, 0, d, T, k, r, batch);  // dX += du·Aᵀ
}

}  // namespace llmc::detail::plan_ops
