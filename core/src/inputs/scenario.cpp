// resolve(): defaults and every cross-field rule. Field-level ranges live in fields.cpp; GPU
// variants and the attention backend in resolve_hardware.cpp; precision recipes and their rules in
// resolve_precision.cpp; enum names in enum_names.cpp.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "llmc/scenario.h"

#include "common/detmath.h"
#include "inputs/pipeline_split.h"
#include "inputs/resolve_hardware.h"
#include "inputs/resolve_memory_savers.h"
#include "inputs/resolve_precision.h"
#include "inputs/resolve_into.h"

namespace llmc {

namespace {

Error divisibility(const std::string& field, const std::string& what, double value, const std::string& by_what,
                   double by) {
  return make_error(field, what + " (" + detail::message_number(value) + ") must be divisible by " + by_what + " (" +
                               detail::message_number(by) + ")");
}

// training.recompute_modules: Megatron-core's --recompute-modules names, comma-separated, under
// selective recompute only; each must apply to the model (MLA for mla_up_proj, MoE for moe_act).
Status resolve_recompute_modules(Resolved& r) {
  const TrainingSpec& t = r.s.training;
  const std::string& text = t.recompute_modules;
  const bool blank = text.find_first_not_of(" ,") == std::string::npos;
  if (t.recompute != Recompute::selective) {
    if (!blank)
      return make_error("training.recompute_modules", "applies to training.recompute=selective; got recompute " +
                                                          std::string(to_string(t.recompute)) + " with modules '" +
                                                          text + "'");
    return ok_status();
  }
  if (blank) {
    r.recompute_modules = kRecomputeCoreAttn;  // Megatron-core's default
    return ok_status();
  }
  static const std::pair<const char*, RecomputeModule> kNames[] = {{"core_attn", kRecomputeCoreAttn},
                                                                   {"layernorm", kRecomputeLayernorm},
                                                                   {"mla_up_proj", kRecomputeMlaUpProj},
                                                                   {"moe_act", kRecomputeMoeAct}};
  std::string name;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') {
      if (text[i] != ' ') name += text[i];
      continue;
    }
    if (name.empty()) continue;
    const auto* hit =
        std::find_if(std::begin(kNames), std::end(kNames), [&](const auto& n) { return name == n.first; });
    if (hit == std::end(kNames))
      return make_error("training.recompute_modules",
                        "unknown module '" + name +
                            "': a comma-separated list of {core_attn,layernorm,mla_up_proj,moe_act}; got '" + text +
                            "'");
    if (hit->second == kRecomputeMlaUpProj && r.m.attention != AttentionKind::mla)
      return make_error("training.recompute_modules",
                        "mla_up_proj needs MLA attention (model.attention=mla); got '" + text + "'");
    if (hit->second == kRecomputeMoeAct && !r.m.is_moe())
      return make_error("training.recompute_modules",
                        "moe_act needs routed experts (model.experts > 0); got '" + text + "'");
    name.clear();
    r.recompute_modules |= hit->second;
  }
  return ok_status();
}

Status check_model(const ModelSpec& m) {
  if (!m.has_shape()) {
    if (m.params_override <= 0)
      return make_error("model",
                        "no model given: use --model PRESET|FILE, a shape (model.layers, model.hidden, model.heads, "
                        "model.vocab) or model.params");
    return ok_status();
  }
  if (m.hidden <= 0)
    return make_error("model.hidden", "required with model.layers; got " + detail::message_number(m.hidden));
  if (m.heads <= 0)
    return make_error("model.heads", "required with model.layers; got " + detail::message_number(m.heads));
  if (m.vocab <= 0)
    return make_error("model.vocab", "required with model.layers; got " + detail::message_number(m.vocab));
  if (m.head_dim == 0 && m.attention == AttentionKind::standard && m.hidden % m.heads != 0)
    return divisibility("model.hidden", "model.hidden", m.hidden, "model.heads (or set model.head_dim)", m.heads);
  const int64_t kv = m.kv_heads ? m.kv_heads : m.heads;
  if (kv > m.heads)
    return make_error("model.kv_heads", "must be at most model.heads (" + detail::message_number(m.heads) + "); got " +
                                            detail::message_number(kv));
  if (m.heads % kv != 0) return divisibility("model.heads", "model.heads", m.heads, "model.kv_heads", kv);
  if (m.attention == AttentionKind::mla && (m.kv_lora_rank <= 0 || m.qk_nope_head_dim <= 0 || m.v_head_dim <= 0))
    return make_error(
        "model.kv_lora_rank",
        "MLA needs model.kv_lora_rank, model.qk_nope_head_dim, model.qk_rope_head_dim and model.v_head_dim > 0");
  if (m.is_moe()) {
    if (m.top_k < 1 || m.top_k > m.experts)
      return make_error("model.top_k", "must be in [1, model.experts = " + detail::message_number(m.experts) +
                                           "]; got " + detail::message_number(m.top_k));
    if (m.moe_first_dense >= m.layers)
      return make_error("model.moe_first_dense", "must be less than model.layers (" + detail::message_number(m.layers) +
                                                     "); got " + detail::message_number(m.moe_first_dense));
    if (m.experts % m.moe_groups != 0)
      return divisibility("model.moe_groups", "model.experts", m.experts, "model.moe_groups", m.moe_groups);
    if (m.moe_group_topk > m.moe_groups)
      return make_error("model.moe_group_topk",
                        "must be in [1, model.moe_groups = " + detail::message_number(m.moe_groups) + "]; got " +
                            detail::message_number(m.moe_group_topk));
    const int64_t reachable = m.moe_group_topk * (m.experts / m.moe_groups);
    if (m.moe_groups > 1 && m.top_k > reachable)
      return make_error("model.top_k", "must be at most the experts of model.moe_group_topk groups (" +
                                           detail::message_number(reachable) + "); got " +
                                           detail::message_number(m.top_k));
  } else if (m.top_k > 0 || m.shared_experts > 0 || m.moe_groups > 1) {
    return make_error("model.experts", "model.top_k/model.shared_experts/model.moe_groups need model.experts > 0");
  }
  if (m.full_attention_every > 0 && m.sliding_window == 0)
    return make_error("model.full_attention_every", "needs model.sliding_window > 0 (the windowed layers' keys); got " +
                                                        detail::message_number(m.full_attention_every));
  return ok_status();
}

}  // namespace

namespace detail {

Status resolve_into(const Scenario& in, Resolved& r) {
  r.s = in;
  if (auto st = check_model(in.model); !st) return st.error();
  r.m = resolved(in.model);
  const ModelSpec& m = r.m;
  TrainingSpec& t = r.s.training;
  ParallelSpec& p = r.s.parallel;
  HardwareSpec& h = r.s.hardware;

  if (h.gpu.id.empty())
    return make_error("hardware.gpu", "no GPU given (e.g. h100-sxm, a100-sxm-80gb; see `llmcalc presets`)");

  // Sequence length.
  if (t.seq_len == 0) t.seq_len = m.seq_len > 0 ? m.seq_len : 2048;

  // Tensor parallel rules (Megatron-LM: heads, query groups and ffn split across tp ranks).
  if (m.has_shape()) {
    if (m.heads % p.tp != 0) return divisibility("parallel.tp", "model.heads", m.heads, "parallel.tp", p.tp);
    if (m.kv_heads % p.tp != 0)
      return make_error("parallel.tp", "model.kv_heads (" + detail::message_number(m.kv_heads) +
                                           ") must be divisible by parallel.tp (" + detail::message_number(p.tp) +
                                           "): each tensor-parallel rank needs whole key/value groups");
    if (m.ffn_hidden % p.tp != 0)
      return divisibility("parallel.tp", "model.ffn_hidden", m.ffn_hidden, "parallel.tp", p.tp);
    const int64_t chunks = p.pp * p.virtual_stages, fewest = detail::fewest_layers(p.pp, p.virtual_stages);
    if (m.layers < fewest)
      return make_error(
          "parallel.pp",
          "model.layers (" + detail::message_number(m.layers) + ") must be at least " + detail::message_number(fewest) +
              " for parallel.pp = " + detail::message_number(p.pp) +
              " × parallel.virtual_stages = " + detail::message_number(p.virtual_stages) +
              ": every pipeline chunk holds a layer, except that the first may hold only the embedding and the last "
              "only the output layer and loss");
    r.layers_per_stage = detail::full_stage_layers(m.layers, p.pp, p.virtual_stages);
    if (r.layers_per_stage * p.pp != m.layers) {
      const int64_t first = int64_t(detail::stage_layers(r, 0)), last = int64_t(detail::stage_layers(r, p.pp - 1));
      // Which end chunks are left without a layer (the same chunk split as the memory model's).
      const int64_t v = p.virtual_stages, lps = r.layers_per_stage;
      const bool even_chunks = v > 1 && lps % v == 0;
      const bool bare_first = even_chunks && detail::first_chunks_units(lps, v, lps - first, true, 1) == 0;
      const bool bare_last = even_chunks && detail::first_chunks_units(lps, v, lps - last, false, v - 1) == last * v;
      const char* bare = bare_first && bare_last ? "; the first chunk holds only the embedding and the last only "
                                                   "the output layer and loss (Llama 3 §3.3.2)"
                         : bare_first            ? "; the first chunk holds only the embedding (Llama 3 §3.3.2)"
                         : bare_last ? "; the last chunk holds only the output layer and loss (Llama 3 §3.3.2)"
                                     : "";
      // Appended into one buffer: a chain of `+` built a dozen temporaries on every estimate of
      // such a layout, a tenth of the 405B benchmark's estimate (docs/benchmarks.md).
      std::string w;
      w.reserve(320);
      w.append("model.layers (").append(message_number(m.layers));
      w.append(") is not divisible by parallel.pp × virtual_stages (").append(message_number(chunks)).append("): ");
      if (p.pp == 2 && first == last) {
        w.append("each stage takes ").append(message_number(first)).append(" of a full stage's ");
        w.append(message_number(r.layers_per_stage)).append(" layers");
      } else if (p.pp == 2) {
        w.append("the first stage takes ").append(message_number(first)).append(" layers and the last ");
        w.append(message_number(last)).append(" (time and memory per stage; the slower stage sets the pace)");
      } else {
        w.append("stages are uneven; the middle stages take ").append(message_number(r.layers_per_stage));
        w.append(" layers, the first ").append(message_number(first)).append(" and the last ");
        w.append(message_number(last)).append(" (time and memory per stage; the slowest stage sets the pace)");
      }
      r.warnings.push_back(std::move(w.append(bare)));
    } else if (m.layers % chunks != 0)
      r.warnings.push_back("model.layers (" + detail::message_number(m.layers) +
                           ") is not divisible by parallel.pp × virtual_stages (" + detail::message_number(chunks) +
                           "): the " + detail::message_number(p.virtual_stages) + " chunks of a stage's " +
                           detail::message_number(r.layers_per_stage) +
                           " layers are uneven; time and memory count whole stages");
    if (t.seq_len % (2 * p.cp) != 0 && p.cp > 1)
      return divisibility("parallel.cp", "training.seq_len", t.seq_len, "2 × parallel.cp (load-balanced causal chunks)",
                          2 * p.cp);
    if (p.cp > 1 && p.cp_method == CpMethod::a2a && (m.heads / p.tp % p.cp != 0 || m.kv_heads / p.tp % p.cp != 0))
      return make_error("parallel.cp_method",
                        "a2a (Ulysses) splits the attention heads over the cp ranks: model.heads / tp (" +
                            detail::message_number(m.heads / p.tp) + ") and model.kv_heads / tp (" +
                            detail::message_number(m.kv_heads / p.tp) + ") must be divisible by parallel.cp (" +
                            detail::message_number(p.cp) + "); use p2p or all_gather");
  } else {
    r.layers_per_stage = 0;
  }
  if (p.virtual_stages > 1 && p.schedule != Schedule::interleaved)
    return make_error(
        "parallel.virtual_stages",
        "virtual stages > 1 need parallel.schedule=interleaved; got schedule " + std::string(to_string(p.schedule)));
  if (p.schedule == Schedule::interleaved && p.pp < 2)
    return make_error("parallel.schedule",
                      "interleaved needs parallel.pp >= 2; got pp " + detail::message_number(p.pp));

  // Experts.
  r.etp = p.etp > 0 ? p.etp : p.tp;
  if (p.ep > 1 && !m.is_moe())
    return make_error("parallel.ep", "expert parallelism needs an MoE model (model.experts > 0); got ep " +
                                         detail::message_number(p.ep));
  if (m.is_moe() && m.experts % p.ep != 0)
    return divisibility("parallel.ep", "model.experts", m.experts, "parallel.ep", p.ep);
  if (m.is_moe() && m.expert_ffn_hidden % r.etp != 0)
    return divisibility("parallel.etp", "model.expert_ffn_hidden", m.expert_ffn_hidden, "parallel.etp", r.etp);
  if (t.moe_capacity_factor != 1 && !m.is_moe())
    return make_error("training.moe_capacity_factor", "applies to MoE models (model.experts > 0); got " +
                                                          detail::message_number(t.moe_capacity_factor));
  if (m.is_moe() && m.top_k > 0 && t.moe_capacity_factor > double(m.experts) / double(m.top_k))
    return make_error(
        "training.moe_capacity_factor",
        "must be at most model.experts / model.top_k = " + detail::message_number(double(m.experts) / double(m.top_k)) +
            " (every routed copy on one expert); got " + detail::message_number(t.moe_capacity_factor));

  // GPU count and data parallelism: dp = gpu_count / (tp·pp·cp) when unset.
  const int64_t model_parallel = p.tp * p.pp * p.cp;
  if (p.dp == 0) {
    if (h.gpu_count == 0) {
      p.dp = 1;
    } else {
      if (h.gpu_count % model_parallel != 0)
        return make_error("hardware.gpu_count",
                          "must be a multiple of parallel.tp × pp × cp = " + detail::message_number(model_parallel) +
                              "; got " + detail::message_number(h.gpu_count));
      p.dp = h.gpu_count / model_parallel;
    }
  }
  r.gpu_count = model_parallel * p.dp;
  if (h.gpu_count != 0 && h.gpu_count != r.gpu_count)
    return make_error("parallel.dp", "tp × pp × cp × dp = " + detail::message_number(r.gpu_count) +
                                         " but hardware.gpu_count = " + detail::message_number(h.gpu_count));
  h.gpu_count = r.gpu_count;
  if ((p.tp * p.cp * p.dp) % (r.etp * p.ep) != 0)
    return make_error("parallel.ep", "tp × cp × dp (" + detail::message_number(p.tp * p.cp * p.dp) +
                                         ") must be divisible by ep × etp (" + detail::message_number(r.etp * p.ep) +
                                         ")");
  r.gpus_per_node = h.gpus_per_node.value_or(h.gpu.gpus_per_node);
  if (r.gpus_per_node < 1) r.gpus_per_node = 1;

  // Global batch and gradient accumulation: G = b · m · dp (sequences).
  if (t.global_batch_seqs == 0 && t.global_batch_tokens > 0) {
    const double seqs = t.global_batch_tokens / static_cast<double>(t.seq_len);
    if (seqs != std::floor(seqs) || seqs < 1)
      return make_error("training.global_batch_tokens", "must be a whole number of sequences of training.seq_len (" +
                                                            detail::message_number(t.seq_len) + " tokens); got " +
                                                            detail::message_number(t.global_batch_tokens));
    t.global_batch_seqs = static_cast<int64_t>(seqs);
  }
  if (t.global_batch_seqs == 0) {
    t.global_batch_seqs = t.micro_batch * p.dp;
    if (p.pp > 1)
      r.warnings.push_back("training.global_batch_seqs not set: using micro_batch × dp = " +
                           detail::message_number(t.global_batch_seqs) +
                           ", one micro-batch per step, so the pipeline bubble is (pp−1)/1; set the global batch");
  }
  const int64_t per_step = t.micro_batch * p.dp;
  if (t.global_batch_seqs % per_step != 0)
    return make_error("training.global_batch_seqs",
                      "must be a multiple of training.micro_batch × parallel.dp = " +
                          detail::message_number(t.micro_batch) + " × " + detail::message_number(p.dp) + " = " +
                          detail::message_number(per_step) + "; got " + detail::message_number(t.global_batch_seqs));
  r.micro_batches = t.global_batch_seqs / per_step;
  t.global_batch_tokens = static_cast<double>(t.global_batch_seqs) * static_cast<double>(t.seq_len);
  if (p.schedule == Schedule::interleaved && r.micro_batches % p.pp != 0)
    return make_error("training.global_batch_seqs", "the interleaved schedule needs the number of micro-batches (" +
                                                        detail::message_number(r.micro_batches) +
                                                        ") to be a multiple of parallel.pp (" +
                                                        detail::message_number(p.pp) + ")");

  // ZeRO / FSDP.
  r.grad_reduce_per_micro_batch = reduces_every_micro_batch(t.grad_reduce, t.zero_stage);
  if (t.zero_shard_group > 0 && (p.dp * p.cp) % t.zero_shard_group != 0)
    return divisibility("training.zero_shard_group", "parallel.dp × cp", p.dp * p.cp, "training.zero_shard_group",
                        t.zero_shard_group);
  if (t.fsdp_impl == FsdpImpl::fsdp2 && t.zero_stage != 3)
    return make_error("training.fsdp_impl",
                      "fsdp2 (PyTorch fully_shard) shards the parameters: it needs training.zero_stage = 3 (with "
                      "training.reshard_after_forward = false for ZeRO-2-like sharding); got zero_stage " +
                          detail::message_number(t.zero_stage));
  if (t.recompute == Recompute::selective_op) {
    if (!m.has_shape())
      return make_error("training.recompute",
                        "selective_op needs the model shape (model.layers, model.hidden, ...), not only model.params");
    if (m.is_moe() || m.attention != AttentionKind::standard)
      return make_error("training.recompute", std::string("selective_op (torchtitan's per-op policy) is modelled for "
                                                          "dense layers with standard attention; this model has ") +
                                                  (m.is_moe() ? "MoE layers" : "MLA attention") +
                                                  "; use none, selective or full");
    // A linear with a bias runs aten.addmm, which torchtitan's policy neither counts nor saves.
    if (m.attn_bias || m.attn_out_bias || m.mlp_bias)
      return make_error(
          "training.recompute",
          "selective_op (torchtitan's per-op policy) counts bias-free matmuls only; this model has linear biases "
          "(model.attn_bias, attn_out_bias or mlp_bias); use none, selective or full");
  }
  if (t.recompute_layers > 0 && t.recompute != Recompute::full)
    return make_error("training.recompute_layers",
                      "applies to training.recompute=full; got recompute " + std::string(to_string(t.recompute)));
  if (t.recompute_layers > r.layers_per_stage && m.has_shape())
    return make_error("training.recompute_layers", "must be at most the layers per pipeline stage (" +
                                                       detail::message_number(r.layers_per_stage) + "); got " +
                                                       detail::message_number(t.recompute_layers));
  if (auto st = resolve_recompute_modules(r); !st) return st.error();
  if (t.finetune == Finetune::lora && !m.has_shape())
    return make_error("training.finetune",
                      "LoRA needs the model shape (model.layers, model.hidden, ...), not only model.params");

  if (auto st = detail::resolve_precision(r); !st) return st.error();

  // Hardware sanity that needs the dtype.
  const double peak = h.gpu.peak_tflops(r.compute_dtype);
  if (peak <= 0)
    return make_error("training.precision", std::string(to_string(r.s.training.precision)) + " computes in " +
                                                to_string(r.compute_dtype) + ", which " + h.gpu.name +
                                                " has no tensor-core peak for; pick another precision or GPU");
  // 0 means unset; a set value below these is a typo, not a plan (and would overflow totals).
  if (h.mfu > 0 && h.mfu < 1e-3)
    return make_error("hardware.mfu", "must be 0 (unset) or in [0.001, 1]; got " + detail::message_number(h.mfu));
  if (h.achieved_tflops > 0 && h.achieved_tflops < 1e-3)
    return make_error("hardware.achieved_tflops",
                      "must be 0 (unset) or in [0.001, 100000]; got " + detail::message_number(h.achieved_tflops));
  if (h.compute_efficiency > 0 && h.compute_efficiency < 1e-3)
    return make_error("hardware.compute_efficiency",
                      "must be 0 (profile) or in [0.001, 1]; got " + detail::message_number(h.compute_efficiency));
  if (h.achieved_tflops > 0 && h.mfu > 0)
    return make_error("hardware.mfu", "give hardware.mfu or hardware.achieved_tflops, not both");
  if (h.achieved_tflops > peak)
    r.warnings.push_back("hardware.achieved_tflops (" + detail::message_number(h.achieved_tflops) +
                         ") is above the dense " + to_string(r.compute_dtype) + " peak of " + h.gpu.name + " (" +
                         detail::message_number(peak) +
                         " TFLOP/s): datasheets' larger figures count 2:4 sparsity; this rate is not achievable");
  if (auto st = detail::resolve_attention_backend(r); !st) return st.error();
  r.fused_loss = t.fused_loss == Fusion::auto_ ? t.fused_elementwise : t.fused_loss == Fusion::fused;
  r.loss_upcast = t.fused_loss != Fusion::eager_16bit;
  if (p.tp_overlap && p.tp > 1 && !t.sequence_parallel)
    r.warnings.push_back(
        "parallel.tp_overlap needs training.sequence_parallel (the overlap splits its all-gathers and "
        "reduce-scatters; Megatron-LM's --tp-comm-overlap requires it): the tensor-parallel all-reduces stay exposed");
  if (t.unfused_attention != UnfusedAttention::matmul && t.flash_attention)
    return make_error(
        "training.unfused_attention",
        std::string(to_string(t.unfused_attention)) +
            " is the attention without flash attention; set training.flash_attention=false or use matmul");
  if (t.unfused_attention == UnfusedAttention::sdpa_math_tf32 && h.gpu.peak_tf32_tflops <= 0)
    return make_error(
        "training.unfused_attention",
        h.gpu.name + " has no TF32 tensor cores (PyTorch runs these matmuls in fp32 there); use sdpa_math_fp32");
  if (auto st = detail::resolve_documents(r); !st) return st.error();
  if (t.flash_attention && !h.gpu.has_fused_attention())
    r.warnings.push_back(
        "training.flash_attention: " + h.gpu.name +
        " runs neither FlashAttention nor cuDNN's fused attention (both need an "
        "Ampere or newer GPU); the time assumes a fused kernel: set training.flash_attention to false for this GPU");
  if (auto st = detail::apply_gpu_variant(h, h.profile_loaded); !st) return st.error();
  if (h.profile_loaded && h.profile && h.profile->gpu_id != h.gpu.id)
    return make_error("hardware.profile",
                      "the loaded profile is for " + h.profile->gpu_id + " but hardware.gpu is " + h.gpu.id);
  if (!h.profile_loaded)
    h.profile = h.datasheet_gemm_mamf_fraction > 0
                    ? std::make_shared<const HardwareProfile>(datasheet_profile(h.gpu, h.datasheet_gemm_mamf_fraction))
                    : shared_datasheet_profile(h.gpu);

  if (auto st = detail::resolve_memory_savers(r); !st) return st.error();

  // Tokens: D = 20 N when unset is applied in estimate(), once N is known.
  r.tokens_defaulted = t.tokens <= 0;
  return ok_status();
}

}  // namespace detail

Result<Resolved> resolve(const Scenario& in) {
  Result<Resolved> out{std::in_place};  // one return of one object: built in the caller's slot
  if (Status st = detail::resolve_into(in, out.value()); !st) out = st.error();
  return out;
}

}  // namespace llmc
