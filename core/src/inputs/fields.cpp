// The input field registry (see fields.h). One row per field; ranges are the physically or
// practically meaningful ones, and every error says field, range and the value given.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/json_util.h"
#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "llmc/number_input.h"

namespace llmc {
namespace {

std::string fmt_int(int64_t v) { return std::to_string(v); }
std::string fmt_num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
std::string fmt_bool(bool v) { return v ? "true" : "false"; }
template <class E>
std::string fmt_enum(E v) {
  return to_string(v);
}
template <class T>
std::string fmt_opt_dtype(const std::optional<T>& v) {
  return v ? std::string(to_string(*v)) : std::string();
}

int choice_index(const char* choices, const std::string& text) {
  int idx = 0;
  std::string cur;
  for (const char* c = choices;; ++c) {
    if (*c == '|' || *c == 0) {
      if (cur == text) return idx;
      cur.clear();
      ++idx;
      if (*c == 0) break;
    } else {
      cur += *c;
    }
  }
  return -1;
}

std::string choices_text(const char* choices) {
  std::string out = choices;
  for (char& c : out)
    if (c == '|') c = ',';
  return "one of {" + out + "}";
}

// The embed module (llmc_core_small, built with LLMC_LEAN_TEXTS) never shows help texts: it
// leaves them out, as it leaves out the presets' citations (its size budget, docs/benchmarks.md).
#ifdef LLMC_LEAN_TEXTS
#define LLMC_HELP(text) ""
#else
#define LLMC_HELP(text) text
#endif

#define INT(KEY, EXPR, MIN, MAX, HELP)                                                           \
  FieldInfo {                                                                                    \
    KEY, FieldKind::integer, MIN, MAX, "", LLMC_HELP(HELP),                                      \
        [](Scenario& s, double n, bool, const std::string&) { EXPR = static_cast<int64_t>(n); }, \
        [](const Scenario& s) { return fmt_int(EXPR); }                                          \
  }
#define NUM(KEY, EXPR, MIN, MAX, HELP)                                     \
  FieldInfo {                                                              \
    KEY, FieldKind::number, MIN, MAX, "", LLMC_HELP(HELP),                 \
        [](Scenario& s, double n, bool, const std::string&) { EXPR = n; }, \
        [](const Scenario& s) { return fmt_num(EXPR); }                    \
  }
#define OPTNUM(KEY, EXPR, MIN, MAX, HELP)                                       \
  FieldInfo {                                                                   \
    KEY, FieldKind::number, MIN, MAX, "", LLMC_HELP(HELP),                      \
        [](Scenario& s, double n, bool, const std::string&) { EXPR = n; },      \
        [](const Scenario& s) { return EXPR ? fmt_num(*EXPR) : std::string(); } \
  }
#define BOOL(KEY, EXPR, HELP)                                              \
  FieldInfo {                                                              \
    KEY, FieldKind::boolean, 0, 1, "", LLMC_HELP(HELP),                    \
        [](Scenario& s, double, bool b, const std::string&) { EXPR = b; }, \
        [](const Scenario& s) { return fmt_bool(EXPR); }                   \
  }
#define OPTBOOL(KEY, EXPR, HELP)                                                 \
  FieldInfo {                                                                    \
    KEY, FieldKind::boolean, 0, 1, "", LLMC_HELP(HELP),                          \
        [](Scenario& s, double, bool b, const std::string&) { EXPR = b; },       \
        [](const Scenario& s) { return EXPR ? fmt_bool(*EXPR) : std::string(); } \
  }
#define CHOICE(KEY, EXPR, TYPE, CHOICES, HELP)                                                                  \
  FieldInfo {                                                                                                   \
    KEY, FieldKind::choice, 0, 0, CHOICES, LLMC_HELP(HELP),                                                     \
        [](Scenario& s, double n, bool, const std::string&) { EXPR = static_cast<TYPE>(static_cast<int>(n)); }, \
        [](const Scenario& s) { return fmt_enum(EXPR); }                                                        \
  }
#define OPTDTYPE(KEY, EXPR, HELP)                                                                                \
  FieldInfo {                                                                                                    \
    KEY, FieldKind::choice, 0, 0, "fp32|tf32|bf16|fp16|fp8|fp4|int8", LLMC_HELP(HELP),                           \
        [](Scenario& s, double n, bool, const std::string&) { EXPR = static_cast<Dtype>(static_cast<int>(n)); }, \
        [](const Scenario& s) { return fmt_opt_dtype(EXPR); }                                                    \
  }
#define TEXT(KEY, EXPR, HELP)                                                                                     \
  FieldInfo {                                                                                                     \
    KEY, FieldKind::text, 0, 0, "", LLMC_HELP(HELP),                                                              \
        [](Scenario& s, double, bool, const std::string& t) { EXPR = t; }, [](const Scenario& s) { return EXPR; } \
  }

constexpr double kBig = 1e7;      // sizes: hidden, ffn, vocab ...
constexpr double kTokens = 1e16;  // training tokens

std::vector<FieldInfo> make_fields() {
  return {
      // model
      TEXT("model.name", s.model.name, "display name"),
      NUM("model.params", s.model.params_override, 0, 1e14,
          "parameter count N; overrides the shape's count (0: from shape)"),
      INT("model.layers", s.model.layers, 0, 10000, "transformer layers (0: size-only model)"),
      INT("model.hidden", s.model.hidden, 0, kBig, "hidden size h"),
      INT("model.heads", s.model.heads, 0, 100000, "attention heads a"),
      INT("model.kv_heads", s.model.kv_heads, 0, 100000, "key/value heads (GQA/MQA; 0: = heads)"),
      INT("model.head_dim", s.model.head_dim, 0, 100000, "head dimension (0: hidden / heads)"),
      INT("model.ffn_hidden", s.model.ffn_hidden, 0, kBig, "MLP inner size (0: 4h for gelu, 8h/3 for gated)"),
      CHOICE("model.mlp", s.model.mlp, MlpKind, "gelu|swiglu|geglu", "MLP kind: gelu 2 matrices, swiglu/geglu 3"),
      INT("model.vocab", s.model.vocab, 0, kBig, "vocabulary size V"),
      BOOL("model.tied_embeddings", s.model.tied_embeddings, "output layer shares the embedding matrix"),
      BOOL("model.attn_bias", s.model.attn_bias, "q/k/v projection biases"),
      BOOL("model.attn_out_bias", s.model.attn_out_bias, "attention output projection bias"),
      BOOL("model.mlp_bias", s.model.mlp_bias, "MLP biases"),
      CHOICE("model.norm", s.model.norm, NormKind, "layernorm|rmsnorm", "normalisation"),
      INT("model.norms_per_layer", s.model.norms_per_layer, 0, 8, "norms per layer (2; Gemma 2: 4)"),
      CHOICE("model.position", s.model.position, PositionKind, "rotary|learned", "position encoding"),
      INT("model.max_positions", s.model.max_positions, 0, kBig, "learned position table size (0: seq_len)"),
      INT("model.seq_len", s.model.seq_len, 0, kBig, "the model's pre-training sequence length"),
      BOOL("model.dropout", s.model.dropout, "dropout layers present (adds masks to activations)"),
      INT("model.experts", s.model.experts, 0, 100000, "routed experts (0: dense)"),
      INT("model.top_k", s.model.top_k, 0, 100000, "experts per token"),
      INT("model.shared_experts", s.model.shared_experts, 0, 1000, "always-active shared experts"),
      INT("model.expert_ffn_hidden", s.model.expert_ffn_hidden, 0, kBig, "expert MLP inner size (0: ffn_hidden)"),
      INT("model.shared_expert_ffn_hidden", s.model.shared_expert_ffn_hidden, 0, kBig,
          "total shared-expert width (0: shared_experts × expert_ffn_hidden)"),
      INT("model.moe_first_dense", s.model.moe_first_dense, 0, 10000, "leading dense layers before MoE layers"),
      INT("model.moe_every", s.model.moe_every, 1, 10000, "every n-th layer is MoE"),
      INT("model.moe_groups", s.model.moe_groups, 1, 100000,
          "group-limited routing (DeepSeek-V3): the experts form this many equal groups (1: no groups)"),
      INT("model.moe_group_topk", s.model.moe_group_topk, 1, 100000,
          "group-limited routing: a token's experts come from this many of its best groups"),
      INT("model.sliding_window", s.model.sliding_window, 0, kBig,
          "sliding-window attention: keys a query attends back to in windowed layers (0: none)"),
      INT("model.full_attention_every", s.model.full_attention_every, 0, 10000,
          "with a sliding window: every n-th layer attends to the whole sequence (Gemma 2, GPT-OSS: 2; 0: none)"),
      CHOICE("model.attention", s.model.attention, AttentionKind, "standard|mla", "attention kind"),
      INT("model.q_lora_rank", s.model.q_lora_rank, 0, kBig, "MLA query low-rank dim (0: full rank)"),
      INT("model.kv_lora_rank", s.model.kv_lora_rank, 0, kBig, "MLA key/value latent dim"),
      INT("model.qk_rope_head_dim", s.model.qk_rope_head_dim, 0, 100000, "MLA rotary head dim"),
      INT("model.qk_nope_head_dim", s.model.qk_nope_head_dim, 0, 100000, "MLA non-rotary head dim"),
      INT("model.v_head_dim", s.model.v_head_dim, 0, 100000, "MLA value head dim"),
      // training
      NUM("training.tokens", s.training.tokens, 0, kTokens, "training tokens D (0: 20 × params)"),
      INT("training.seq_len", s.training.seq_len, 0, kBig, "sequence length (0: model.seq_len or 2048)"),
      INT("training.document_tokens", s.training.document_tokens, 0, 1e7,
          "documents packed into each sequence with attention inside each one only (cu_seqlens: Transformer Engine's "
          "THD format, FlashAttention varlen; packed fine-tuning sets such as SQuAD): their length in tokens (mixed "
          "lengths: Σl²/Σl), the keys a query attends to; 0: one document fills the sequence"),
      INT("training.micro_batch", s.training.micro_batch, 1, 1 << 20, "sequences per micro-batch per replica"),
      INT("training.global_batch_seqs", s.training.global_batch_seqs, 0, 1e9,
          "global batch in sequences (0: from tokens, else micro_batch × dp)"),
      NUM("training.global_batch_tokens", s.training.global_batch_tokens, 0, 1e12,
          "global batch in tokens (alternative)"),
      CHOICE("training.precision", s.training.precision, Precision, "fp32|bf16_mixed|fp16_mixed|fp8_mixed|bf16_pure",
             "precision recipe"),
      OPTDTYPE("training.weight_dtype", s.training.weight_dtype, "parameter storage dtype (default: from precision)"),
      OPTDTYPE("training.grad_dtype", s.training.grad_dtype, "gradient dtype (default: from precision)"),
      OPTDTYPE("training.optimizer_state_dtype", s.training.optimizer_state_dtype,
               "optimizer state dtype (default: fp32; bf16_pure: bf16)"),
      OPTBOOL("training.master_weights", s.training.master_weights,
              "keep fp32 master weights (default: from precision)"),
      BOOL("training.grad_fp32_accum_buffer", s.training.grad_fp32_accum_buffer,
           "fp32 gradient buffer beside 16-bit grads"),
      CHOICE("training.optimizer", s.training.optimizer, Optimizer, "adamw|adam8bit|sgd_momentum|adafactor|lion",
             "optimizer"),
      CHOICE("training.optimizer_kernel", s.training.optimizer_kernel, OptimizerKernel, "auto|fused|foreach",
             "AdamW step as one fused kernel (FusedAdam, torch fused=True) or torch's foreach passes; auto: fused with "
             "fused_elementwise, "
             "foreach under PyTorch eager"),
      INT("training.zero_stage", s.training.zero_stage, 0, 3, "ZeRO stage 0-3 (3 = FSDP full shard; 'fsdp' accepted)"),
      INT("training.zero_shard_group", s.training.zero_shard_group, 0, 1e7, "hybrid shard group size (0: all of dp)"),
      CHOICE("training.grad_reduce", s.training.grad_reduce, GradReduce, "auto|micro_batch|step",
             "when data-parallel gradients are reduced: after every micro-batch into sharded gradients (DeepSpeed "
             "ZeRO-2/3, FSDP) or once per step, "
             "accumulating whole gradients locally (DDP, Megatron, FSDP no_sync); auto: micro_batch under ZeRO-2/3, "
             "step under ZeRO-0/1"),
      BOOL("training.reshard_after_forward", s.training.reshard_after_forward,
           "ZeRO-3: free each layer's gathered weights after its forward and gather them again in backward (FSDP2 "
           "default); false keeps the stage's layers gathered: one all-gather per micro-batch, or per step with "
           "grad_reduce=step (torchtitan with pipeline parallelism)"),
      CHOICE("training.fsdp_impl", s.training.fsdp_impl, FsdpImpl, "flat|fsdp2",
             "ZeRO-3: flat, gathered weights are views of the all-gather's buffer (FSDP1, DeepSpeed, Megatron "
             "FSDP); fsdp2, PyTorch fully_shard, which copies each all-gather's output into every parameter on the "
             "compute stream (a memory-bound kernel per gather)"),
      CHOICE("training.activation_layout", s.training.activation_layout, ActivationLayout, "sbh|bsh",
             "activations sequence first (sbh: Megatron, Transformer Engine) or batch first (bsh: PyTorch DTensor's "
             "SequenceParallel, torchtitan): with sequence parallelism bsh copies the full tensor after every "
             "all-gather and before every reduce-scatter that is not fused into a matmul"),
      BOOL("training.loss_parallel", s.training.loss_parallel,
           "tensor parallelism: cross-entropy on each rank's vocabulary shard (Megatron, torchtitan); false "
           "all-gathers the whole logits on every tp rank first (a DTensor output layer with Replicate output)"),
      BOOL("training.cpu_offload_optimizer", s.training.cpu_offload_optimizer, "optimizer states in host memory"),
      CHOICE("training.recompute", s.training.recompute, Recompute, "none|selective|full|selective_op",
             "activation recomputation: selective = Megatron's (training.recompute_modules; default the attention "
             "core), full = whole layers, selective_op = torchtitan's per-op policy"),
      TEXT("training.recompute_modules", s.training.recompute_modules,
           "with selective: what it recomputes, comma-separated from {core_attn,layernorm,mla_up_proj,moe_act} "
           "(Megatron-core --recompute-modules; empty: core_attn)"),
      INT("training.recompute_layers", s.training.recompute_layers, 0, 10000,
          "with full: recompute this many layers per stage (0: all)"),
      BOOL("training.flash_attention", s.training.flash_attention, "fused attention without the s² matrix"),
      CHOICE("training.unfused_attention", s.training.unfused_attention, UnfusedAttention,
             "matmul|sdpa_math_tf32|sdpa_math_fp32",
             "without flash attention: batched GEMMs + softmax in the compute dtype (Megatron, Llama reference, HF "
             "eager), or PyTorch's math SDPA in fp32 with TF32 or fp32 matmuls"),
      CHOICE("training.attention_backend", s.training.attention_backend, AttentionBackend,
             "auto|fa2|fa3|cudnn|sdpa_math|eager|triton|flex",
             "the attention kernel: fa2 FlashAttention-2 (PyTorch SDPA's flash backend), fa3 FlashAttention-3 "
             "(Hopper), cudnn (Transformer Engine on "
             "Hopper), sdpa_math PyTorch's math SDPA, eager batched GEMMs + softmax, triton FlashAttention "
             "written in Triton (MPT's attn_impl triton), flex PyTorch's FlexAttention; auto: the framework's default "
             "(cudnn under fused kernels on Hopper "
             "and later, else fa2; without flash attention, unfused_attention); a named one sets flash_attention"),
      BOOL("training.fused_elementwise", s.training.fused_elementwise,
           "fused norm/activation/rotary/loss/optimizer kernels (false: PyTorch eager ops, their kernel times and the "
           "tensors autograd keeps)"),
      CHOICE("training.fused_loss", s.training.fused_loss, Fusion, "auto|fused|eager|eager_16bit",
             "the final norm and cross-entropy as fused kernels (Megatron's vocab-parallel loss, torch.compile) or "
             "PyTorch eager ops with fp32 logits (torchtitan compiles only the blocks), or on the 16-bit logits "
             "(eager_16bit); auto: as fused_elementwise"),
      CHOICE(
          "training.kernel_launch", s.training.kernel_launch, KernelLaunch, "python|native|cuda_graphs",
          "how the host issues kernels: python one at a time from PyTorch (a step of short kernels waits for "
          "it), native from a C++/CUDA loop (llm.c), cuda_graphs replayed from captured graphs (--enable-cuda-graph, "
          "JAX/XLA): no host wait"),
      INT("training.loss_chunks", s.training.loss_chunks, 1, 4096,
          "the loss's fp32 work one chunk of the logits at a time (torchtune's CEWithChunkedOutputLoss: 8); the "
          "16-bit logits stay whole; 1: all at once"),
      BOOL("training.activation_offload", s.training.activation_offload,
           "saved activations copied to host memory in forward and back in backward on a side stream (torchtune's "
           "enable_activation_offloading); the GPU keeps two layers' worth in transit"),
      BOOL("training.optimizer_in_backward", s.training.optimizer_in_backward,
           "each parameter's optimizer step runs in backward as soon as its gradient is ready, which is then freed "
           "(torchtune's optimizer_in_bwd): one micro-batch per step, one data-parallel replica"),
      BOOL("training.fp8_params", s.training.fp8_params,
           "with fp8_mixed: linear weights stored in FP8 (Megatron --fp8-param-gather, NeMo's FP8 recipes; ZeRO "
           "gathers them in FP8); false: 16-bit weights beside Transformer Engine's cached FP8 copy"),
      CHOICE("training.fp8_recipe", s.training.fp8_recipe, Fp8Recipe, "tensorwise|rowwise",
             "with fp8_mixed: FP8 scales per tensor (Transformer Engine, torchao tensorwise) or per row of every GEMM "
             "operand (torchao rowwise: each operand cast once per GEMM that reads it)"),
      BOOL("training.sequence_parallel", s.training.sequence_parallel, "Megatron sequence parallelism (with tp)"),
      CHOICE("training.finetune", s.training.finetune, Finetune, "full|lora", "full training or LoRA adapters"),
      INT("training.lora_rank", s.training.lora_rank, 1, 65536, "LoRA rank r"),
      CHOICE("training.lora_targets", s.training.lora_targets, LoraTargets, "all_linear|attention|qv",
             "the matrices LoRA adapts: every linear layer (PEFT all-linear), the attention projections q,k,v,o, or q "
             "and v; frozen matrices without "
             "an adapter keep no input for backward"),
      OPTDTYPE("training.base_weight_dtype", s.training.base_weight_dtype,
               "with LoRA: storage of the frozen base weights (QLoRA's NF4 as fp4, 8-bit as int8/fp8), dequantised "
               "before each GEMM (default: weight_dtype)"),
      BOOL("training.reference_model", s.training.reference_model, "keep a frozen reference model (DPO)"),
      NUM("training.moe_capacity_factor", s.training.moe_capacity_factor, 1, 1e4,
          "MoE: routed tokens the busiest expert rank processes over an even share (Megatron's "
          "--moe-expert-capacity-factor with inputs padded to capacity, or dropless routing's max/mean load); 1: "
          "balanced; at most model.experts / model.top_k"),
      CHOICE("training.moe_routing", s.training.moe_routing, MoeRouting, "random|contiguous",
             "which experts a token goes to, for where its copies travel: random (a balanced router, or "
             "Megatron's forced balancing by random logits), contiguous (top_k consecutive experts: NeMo "
             "AutoModel's FakeBalancedGate)"),
      CHOICE("training.flops_formula", s.training.flops_formula, FlopsFormula, "detailed|6nd", "FLOPs basis"),
      BOOL("training.causal_attention_flops", s.training.causal_attention_flops,
           "halve the attention s² FLOPs for a causal mask"),
      NUM("training.bytes_per_token_on_disk", s.training.bytes_per_token_on_disk, 0, 1e6, "dataset storage per token"),
      // parallel
      INT("parallel.tp", s.parallel.tp, 1, 1024, "tensor parallel size"),
      INT("parallel.pp", s.parallel.pp, 1, 1024, "pipeline parallel size"),
      INT("parallel.dp", s.parallel.dp, 0, 1e7, "data parallel size (0: gpu_count / (tp·pp·cp))"),
      INT("parallel.cp", s.parallel.cp, 1, 1024, "context parallel size"),
      INT("parallel.ep", s.parallel.ep, 1, 65536, "expert parallel size"),
      INT("parallel.etp", s.parallel.etp, 0, 1024, "expert tensor parallel size (0: tp)"),
      INT("parallel.virtual_stages", s.parallel.virtual_stages, 1, 1024,
          "model chunks per pipeline rank (interleaved)"),
      CHOICE("parallel.schedule", s.parallel.schedule, Schedule, "afab|1f1b|interleaved|zero_bubble",
             "pipeline schedule"),
      BOOL("parallel.dp_overlap", s.parallel.dp_overlap, "overlap gradient reduction with backward"),
      BOOL("parallel.param_gather_overlap", s.parallel.param_gather_overlap,
           "ZeRO-1/2: gather the updated parameters behind the next forward (Megatron --overlap-param-gather); "
           "false: after the optimizer step, waited for (DeepSpeed ZeRO-1/2, PyTorch ZeroRedundancyOptimizer, "
           "nanotron)"),
      CHOICE("parallel.param_gather", s.parallel.param_gather, ParamGather, "all_gather|broadcast",
             "ZeRO-1/2: the updated parameters back to every rank by one all-gather, or by a broadcast from each "
             "rank of its shard in turn, each paying a ring's latency (InternEvo's broadcast_params)"),
      NUM("parallel.dp_bucket_mb", s.parallel.dp_bucket_mb, 0, 1e6,
          "gradient bucket size in MB of the data-parallel reduction (0: the framework's: Megatron-core max(40M, 1M x "
          "dp) parameters under fused "
          "kernels, PyTorch DDP's 25 MB under eager ones); the last bucket cannot hide behind the backward"),
      BOOL("parallel.tp_overlap", s.parallel.tp_overlap, "overlap tensor-parallel comm with GEMMs"),
      CHOICE("parallel.tp_overlap_method", s.parallel.tp_overlap_method, TpOverlapMethod, "userbuffers|async_tp",
             "how tp_overlap overlaps: userbuffers (Transformer Engine, Megatron's --tp-comm-overlap) in both "
             "passes, async_tp (PyTorch's micro-pipelined TP, torchtitan) in every pass but the backward's "
             "reduce-scatters, which it cannot fuse"),
      BOOL("parallel.cp_overlap", s.parallel.cp_overlap, "overlap ring-attention exchange with attention"),
      BOOL("parallel.pp_overlap", s.parallel.pp_overlap,
           "interleaved schedule: overlap the steady phase's pipeline sends with the next model chunk's compute "
           "(Megatron-core overlap_p2p_comm, its default with virtual stages); fill and drain sends stay exposed"),
      CHOICE("parallel.cp_method", s.parallel.cp_method, CpMethod, "p2p|all_gather|a2a",
             "how context parallelism exchanges keys and values: p2p ring passing K,V blocks during attention "
             "(Megatron's default), all_gather "
             "K,V before attention (Llama 3), a2a Ulysses all-to-alls over heads"),
      BOOL("parallel.ep_overlap", s.parallel.ep_overlap,
           "overlap expert-parallel all-to-all with another micro-batch's compute (DualPipe, Megatron EP A2A overlap)"),
      CHOICE("parallel.ep_dispatcher", s.parallel.ep_dispatcher, EpDispatcher, "alltoall|deepep",
             "how the expert all-to-all sends a token: alltoall, one copy per routed expert (NCCL; Megatron's "
             "alltoall dispatcher); deepep, once per destination node over the network, then over NVLink to each "
             "rank there (DeepEP, Megatron's flex dispatcher with DeepEP or HybridEP)"),
      // hardware
      INT("hardware.gpu_count", s.hardware.gpu_count, 0, 1e7, "GPUs (0: tp·pp·cp·dp)"),
      FieldInfo{
          "hardware.gpus_per_node", FieldKind::integer, 1, 100000, "",
          LLMC_HELP("GPUs per node / scale-up domain (default: from GPU)"),
          [](Scenario& s, double n, bool, const std::string&) { s.hardware.gpus_per_node = static_cast<int64_t>(n); },
          [](const Scenario& s) {
            return s.hardware.gpus_per_node ? fmt_int(*s.hardware.gpus_per_node) : std::string();
          }},
      OPTNUM("hardware.memory_gib", s.hardware.memory_gib, 1, 1e5,
             "GPU memory in GiB of this variant (default: from GPU; e.g. an H100 with 96 GB)"),
      OPTNUM("hardware.hbm_tbps", s.hardware.hbm_tbps, 0.01, 1000,
             "HBM bandwidth in TB/s of this variant (default: from GPU; e.g. 2.4 for HBM2e)"),
      OPTNUM("hardware.power_limit_w", s.hardware.power_limit_w, 1, 1e5,
             "board power limit below the GPU's TDP: compute-bound rates scale with the sustained clock, taken as "
             "(limit / TDP)^(1/3); energy uses the limit"),
      OPTNUM("hardware.price_per_gpu_hour_usd", s.hardware.price_per_gpu_hour_usd, 0, 1e6,
             "price per GPU-hour (default: from GPU)"),
      OPTNUM("hardware.intra_node_bandwidth_gbps", s.hardware.intra_node_bandwidth_gbps, 0.001, 1e6,
             "per-GPU one-way scale-up GB/s"),
      OPTNUM("hardware.inter_node_bandwidth_gbps", s.hardware.inter_node_bandwidth_gbps, 0.001, 1e6,
             "per-GPU one-way network GB/s"),
      NUM("hardware.mfu", s.hardware.mfu, 0, 1, "end-to-end model FLOPs utilisation (fixes step time)"),
      NUM("hardware.achieved_tflops", s.hardware.achieved_tflops, 0, 1e5,
          "sustained model TFLOP/s per GPU (fixes step time)"),
      NUM("hardware.compute_efficiency", s.hardware.compute_efficiency, 0, 1,
          "flat kernel efficiency (0: from profile)"),
      NUM("hardware.cuda_context_gib", s.hardware.cuda_context_gib, 0, 64, "CUDA context per GPU, GiB"),
      NUM("hardware.fragmentation_fraction", s.hardware.fragmentation_fraction, 0, 1,
          "allocator reserve beyond allocated"),
      INT("hardware.nccl_sms", s.hardware.nccl_sms, 0, 1024,
          "SMs a running NCCL collective holds (0: overlapped communication costs compute nothing)"),
  };
}

}  // namespace

const std::vector<FieldInfo>& scenario_fields() {
  static const std::vector<FieldInfo> fields = make_fields();  // immutable table, built once
  return fields;
}

const FieldInfo* find_field(const std::string& key) {
  for (const FieldInfo& f : scenario_fields())
    if (key == f.key) return &f;
  return nullptr;
}

static std::string range_text(const FieldInfo& f) {
  // Exact bounds that parse_number() reads back: "[1, 1048576]", "[0, 1e16]", "[0.001, 1e6]".
  auto n = [](double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, std::fabs(v) < 1e7 ? "%.15g" : "%.7g", v);  // 1e16 prints "1e+16": write "1e16"
    std::string t = buf;
    if (const size_t e = t.find("e+"); e != std::string::npos) t.erase(e + 1, t[e + 2] == '0' ? 2 : 1);
    return t;
  };
  return "[" + n(f.min) + ", " + n(f.max) + "]";
}

Status set_field(Scenario& s, const std::string& key, const std::string& text) {
  if (key == "model.preset") {
    Result<ModelPreset> p = find_model_preset(text);
    if (!p) return make_error(key, p.error().message);
    s.model = p->model;
    return ok_status();
  }
  if (key == "hardware.gpu") {
    Result<GpuSpec> g = find_gpu(text);
    if (!g) return make_error(key, g.error().message);
    s.hardware.gpu = *g;
    // A loaded profile of this very GPU stays (naming the GPU a profile was loaded for is no
    // change); one of another GPU gives way to the new GPU's datasheet profile.
    const bool keep = s.hardware.profile_loaded && s.hardware.profile && s.hardware.profile->gpu_id == g->id;
    if (!keep) {
      s.hardware.profile = shared_datasheet_profile(*g);
      s.hardware.profile_loaded = false;
    }
    return ok_status();
  }
  const FieldInfo* f = find_field(key);
  if (!f) return make_error(key, "unknown field (see `llmcalc explain --fields` or docs/json-contract.md)");
  const std::string given = "got '" + text + "'";
  switch (f->kind) {
    case FieldKind::integer:
    case FieldKind::number: {
      std::string t = text;
      if (key == "training.zero_stage" && t == "fsdp") t = "3";
      // What engineers type: 1e9, 1.5T, 8k, 4Ki, 2^20, 45% (number_input.h).
      const Result<double> parsed = parse_number(t);
      if (!parsed)
        return make_error(key, std::string("must be ") + (f->kind == FieldKind::integer ? "an integer" : "a number") +
                                   " in " + range_text(*f) + "; " + given + ": " + parsed.error().message);
      const double v = *parsed;
      if (f->kind == FieldKind::integer && v != std::floor(v))
        return make_error(key, "must be an integer in " + range_text(*f) + "; " + given);
      if (v < f->min || v > f->max)
        return make_error(key, std::string("must be ") + (f->kind == FieldKind::integer ? "an integer" : "a number") +
                                   " in " + range_text(*f) + "; " + given);
      f->set(s, v, false, t);
      return ok_status();
    }
    case FieldKind::boolean: {
      if (text == "true" || text == "1")
        f->set(s, 1, true, text);
      else if (text == "false" || text == "0")
        f->set(s, 0, false, text);
      else
        return make_error(key, "must be true or false; " + given);
      return ok_status();
    }
    case FieldKind::choice: {
      const int idx = choice_index(f->choices, text);
      if (idx < 0) return make_error(key, "must be " + choices_text(f->choices) + "; " + given);
      f->set(s, idx, false, text);
      return ok_status();
    }
    case FieldKind::text:
      if (!detail::valid_utf8(text) || text.size() > 256)
        return make_error(key, "must be UTF-8 text of at most 256 bytes");
      f->set(s, 0, false, text);
      return ok_status();
  }
  return ok_status();
}

Scenario default_scenario() {
  Scenario s;
  (void)set_field(s, "hardware.gpu", "h100-sxm");
  return s;
}

}  // namespace llmc
