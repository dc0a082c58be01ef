// Internal: what the layer plan is written with (layer_plan.cpp: norms, residuals, MLPs, MoE, the
// layer, embedding and head; plan_attention.cpp: attention): the builder that appends ops and
// kernels, the context every op reads, and the op helpers both files use.
#pragma once
#include <cstdint>
#include <initializer_list>

#include "estimate/layer_plan.h"

namespace llmc::detail::plan_ops {

using Kind = KernelSpec::Kind;

// Appends ops and their kernels to a plan. Kernels go to the op begun last.
class Builder {
 public:
  Builder(Plan& plan, bool with_kernels) : p_(plan), kernels_(with_kernels) {
    p_.n_ops = p_.n_kernels = 0, p_.overflow = false;
  }
  Op& op(const char* name) {
    if (p_.n_ops == Plan::kMaxOps) p_.overflow = true, --p_.n_ops;  // reuse the last slot; the plan is refused
    Op& o = p_.ops[size_t(p_.n_ops++)];
    o = Op{name, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, p_.n_kernels, 0};
    return o;
  }
  // `repeat`: back-to-back runs of the same GEMM (a GEMM decomposed into chunks).
  void gemm(Pass pass, uint32_t rerun_by, Dtype d, double m, double n, double k, double batch = 1, int repeat = 1) {
    if (KernelSpec* s = next(Kind::gemm, pass, rerun_by))
      s->dtype = d, s->m = m, s->n = n, s->k = k, s->batch = batch, s->repeat = repeat;
  }
  void attention(Pass pass, uint32_t rerun_by, Dtype d, AttentionBackend backend, double batch, double q, double kv,
                 double heads, double kv_heads, double dim, int repeat = 1) {
    if (KernelSpec* s = next(Kind::attention, pass, rerun_by))
      s->dtype = d, s->backend = backend, s->batch = batch, s->q_len = q, s->kv_len = kv, s->heads = heads,
      s->kv_heads = kv_heads, s->head_dim = dim, s->repeat = repeat;
  }
  void memory(Pass pass, uint32_t rerun_by, MemKernel k, double bytes) {
    if (bytes <= 0) return;
    if (KernelSpec* s = next(Kind::memory, pass, rerun_by)) s->mem = k, s->bytes = bytes;
  }
  // Bytes of the weights this plan's ops use, as ZeRO-3 gathers them (FSDP2's copy-out, below).
  void gathered(double bytes) { gathered_bytes_ += bytes; }
  double gathered_bytes() const { return gathered_bytes_; }
  bool kernels() const { return kernels_; }
  const Op& current() const { return p_.ops[size_t(p_.n_ops - 1)]; }  // the op begun last

 private:
  KernelSpec* next(Kind kind, Pass pass, uint32_t rerun_by) {
    if (!kernels_) return nullptr;
    if (p_.n_kernels == Plan::kMaxKernels) {
      p_.overflow = true;
      return nullptr;
    }
    KernelSpec& s = p_.kernels[size_t(p_.n_kernels++)];
    s.kind = kind, s.pass = pass, s.rerun_by = rerun_by, s.repeat = 1;
    ++p_.ops[size_t(p_.n_ops - 1)].kernels;
    return &s;
  }
  Plan& p_;
  bool kernels_;
  double gathered_bytes_ = 0;
};

// What every op of one plan needs to know about the recipe and the shapes.
struct Ctx {
  const Resolved& r;
  Builder* b;                    // the plan being written
  Dtype gemm_dtype, attn_dtype;  // FP8 recipes keep attention, the output layer and the router in 16 bits
  double e;                      // activation bytes per element
  bool eager;                    // PyTorch eager: one kernel per op (training.fused_elementwise = false)
  // torch.autocast's weight casts per linear weight element and micro-batch (amp_cast_bytes).
  double amp_fwd, amp_bwd;
  double gin;  // a saved GEMM input: 1 byte under FP8 recipes that save FP8 copies, else e
  // LoRA: the MLP's linears carry adapters (all_linear), so keep their inputs; frozen matrices
  // without one need only their weight in backward (dX = dY·Wᵀ). Full training: true.
  bool mlp_trained;
  // LoRA: every base weight is frozen (requires_grad False), so its linears run no weight-gradient
  // GEMM in backward, only dX (the FLOP count's 1 × forward: flops.cpp).
  bool frozen_weights;
  // LoRA with quantised base weights: bytes per weight element of the dequantisation before each
  // GEMM of the blocks (read the stored weight, write the compute-dtype copy), forward and backward.
  double dequant;
  double T, Tn, tp, h;  // tokens per micro-batch on this rank, norm tokens, tp, hidden
  double tok_saved;     // s/cp × b: the tokens activations are kept for
  double rep;           // sequence parallelism splits the tensors outside tp regions
  bool fp8_rowwise;     // FP8 GEMMs with a scale per operand row (training.fp8_recipe rowwise)
  double lora_rank;     // LoRA's adapter rank r (training.lora_rank); 0 without LoRA
  // FSDP2 (training.fsdp_impl): bytes moved per gathered weight byte and micro-batch by the
  // copy-out after the forward's and the backward's all-gathers (read + write each); 0 otherwise.
  double copy_out_fwd, copy_out_bwd;
  double gathered_linear;  // bytes per linear weight element as ZeRO-3 gathers it
  // Batch-first sequence parallelism (training.activation_layout bsh): copies of a collective
  // pair's full T × h tensor, forward (the all-gather's and the reduce-scatter's) and backward.
  double sp_copies_fwd, sp_copies_bwd;
};

Ctx make_ctx(const Resolved& r, const PlanShape& shape);

// Where an FP8 GEMM's input comes from: a norm that already writes it in FP8 (Transformer
// Engine's LayerNormLinear), or a tensor that needs its own cast.
enum class Fp8Input { fused_into_norm, cast };

// The op helpers, each documented where it is defined (layer_plan.cpp; linear and lora_adapter in
// plan_linear.cpp).
void linear(const Ctx& c, Dtype dtype, double T, double k, double n, double batch, Fp8Input input, uint32_t rerun_by,
            bool block = true);
void lora_adapter(const Ctx& c, double T, double k, double n, double batch, uint32_t rerun_by);
void eager_pass(const Ctx& c, Pass pass, uint32_t rerun_by, double elems, std::initializer_list<double> bytes);
void eager_ops(const Ctx& c, uint32_t rerun_by, double elems, std::initializer_list<double> fwd,
               std::initializer_list<double> bwd);
void elementwise(const Ctx& c, uint32_t rerun_by, MemKernel k, double fwd_bytes, double bwd_bytes);
MemKernel norm_kernel(const ModelSpec& m);
void norm_kernels(const Ctx& c, uint32_t rerun_by, bool eager_rms);
void norm(const Ctx& c, const char* name, bool pre_norm);
void keeps_norm_output(const Ctx& c, Op& o);
void residual(const Ctx& c, const char* name, bool first);
void fsdp_copy_out(const Ctx& c);
void sp_layout_copies(const Ctx& c);

// The attention block's ops (plan_attention.cpp).
void attention_in(const Ctx& c, const ParamCounts& p);
void rotary(const Ctx& c);
void repeat_kv(const Ctx& c, bool sdpa_math_attention);
void core_attention(const Ctx& c, bool sdpa_math_attention);
void attention_out(const Ctx& c);

}  // namespace llmc::detail::plan_ops
