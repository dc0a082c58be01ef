// resolve()'s hardware and kernel parts (resolve_hardware.h): GPU variants and the attention backend.
#include "inputs/resolve_hardware.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "common/detmath.h"

namespace llmc::detail {

std::string message_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// hardware.memory_gib / hbm_tbps / power_limit_w: a variant of the catalog GPU, written into the
// resolved GpuSpec (so the datasheet profile is built for it). Under a power limit below the TDP
// the SM clock settles where the power fits: dynamic power ∝ C·V²·f with the voltage scaling with
// the frequency along the DVFS curve, so f ∝ P^(1/3) (an approximation: static and HBM power do
// not scale). A loaded profile measured the GPU at its own clocks and bandwidth: refused there.
Status apply_gpu_variant(HardwareSpec& h, bool profile_loaded) {
  for (auto [key, set] : {std::pair{"hardware.memory_gib", h.memory_gib.has_value()},
                          {"hardware.hbm_tbps", h.hbm_tbps.has_value()},
                          {"hardware.power_limit_w", h.power_limit_w.has_value()}})
    if (set && profile_loaded)
      return make_error(
          key, std::string("a loaded hardware profile measured ") + h.gpu.name +
                   " as it is; measure the variant with llmcalc-bench, or unload the profile to use the datasheet's");
  if (h.memory_gib) h.gpu.memory_gib = *h.memory_gib;
  if (h.hbm_tbps) h.gpu.hbm_bandwidth_gbps = *h.hbm_tbps * 1000;
  if (h.power_limit_w) {
    if (h.gpu.tdp_w > 0 && *h.power_limit_w > h.gpu.tdp_w)
      return make_error("hardware.power_limit_w", "must be at most " + h.gpu.name + "'s TDP (" +
                                                      message_number(h.gpu.tdp_w) + " W); got " +
                                                      message_number(*h.power_limit_w));
    if (h.gpu.tdp_w > 0 && *h.power_limit_w < 0.25 * h.gpu.tdp_w)
      return make_error("hardware.power_limit_w", "must be at least a quarter of " + h.gpu.name + "'s TDP (" +
                                                      message_number(0.25 * h.gpu.tdp_w) +
                                                      " W), below which the clock no longer follows the power; got " +
                                                      message_number(*h.power_limit_w));
    if (h.gpu.tdp_w > 0) h.gpu.clock_ratio = detail::det_pow(*h.power_limit_w / h.gpu.tdp_w, 1.0 / 3.0);
    h.gpu.tdp_w = *h.power_limit_w;
  }
  return ok_status();
}

// training.attention_backend: the kernel that runs attention. A named backend decides
// flash_attention (and, for sdpa_math and eager, unfused_attention); auto takes the framework's
// default. Fused backends need the GPU that runs them.
Status resolve_attention_backend(Resolved& r) {
  TrainingSpec& t = r.s.training;
  const GpuSpec& gpu = r.s.hardware.gpu;
  const bool hopper_or_later = gpu.compute_capability >= 9.0;
  AttentionBackend b = t.attention_backend;
  switch (b) {
    case AttentionBackend::auto_:
      if (!t.flash_attention)
        b = t.unfused_attention == UnfusedAttention::matmul ? AttentionBackend::eager : AttentionBackend::sdpa_math;
      else
        b = t.fused_elementwise && hopper_or_later ? AttentionBackend::cudnn : AttentionBackend::fa2;
      break;
    case AttentionBackend::sdpa_math:
      t.flash_attention = false;
      if (t.unfused_attention == UnfusedAttention::matmul)
        t.unfused_attention = UnfusedAttention::sdpa_math_fp32;  // PyTorch's default: no TF32
      break;
    case AttentionBackend::eager:
      t.flash_attention = false;
      t.unfused_attention = UnfusedAttention::matmul;
      break;
    case AttentionBackend::fa2:
    case AttentionBackend::fa3:
    case AttentionBackend::cudnn:
    case AttentionBackend::triton:
    case AttentionBackend::flex:
      t.flash_attention = true;
      t.unfused_attention = UnfusedAttention::matmul;
      break;
  }
  const std::string name = to_string(b);
  if (b == AttentionBackend::fa3 && !gpu.is_hopper())
    return make_error("training.attention_backend",
                      "fa3 (FlashAttention-3) runs on Hopper GPUs (compute capability 9.x) only; " + gpu.name +
                          " is not one: use fa2 or cudnn");
  const char* kernel = b == AttentionBackend::cudnn    ? "'s fused attention"
                       : b == AttentionBackend::triton ? " (FlashAttention in Triton)"
                                                       : " (FlexAttention)";
  if ((b == AttentionBackend::cudnn || b == AttentionBackend::triton || b == AttentionBackend::flex) &&
      gpu.compute_capability < 8.0)
    return make_error("training.attention_backend",
                      name + kernel + " needs an NVIDIA GPU of compute capability 8.0 (Ampere) or newer; " + gpu.name +
                          " is not one: use " + (gpu.has_fused_attention() ? "fa2" : "sdpa_math or eager"));
  if (is_fused(b) && t.attention_backend != AttentionBackend::auto_ && !gpu.has_fused_attention())
    return make_error("training.attention_backend",
                      name + " needs bf16 tensor cores, which " + gpu.name + " lacks: use sdpa_math or eager");
  r.attention_backend = b;
  return ok_status();
}

// training.document_tokens: attention kept inside each packed document is a varlen fused kernel
// over the documents (cu_seqlens); unfused attention masks a full sequence's scores instead, which
// costs what one document per sequence does. Context parallelism's split of packed documents
// (Transformer Engine's per-document chunks) is not modelled.
Status resolve_documents(const Resolved& r) {
  const TrainingSpec& t = r.s.training;
  if (t.document_tokens == 0) return ok_status();
  auto refuse = [](const std::string& why) { return make_error("training.document_tokens", why); };
  if (t.document_tokens > t.seq_len)
    return refuse("must be at most training.seq_len (" + message_number(t.seq_len) + "); got " +
                  message_number(t.document_tokens));
  if (!t.flash_attention)
    return refuse(
        "needs flash attention (a varlen fused kernel): unfused attention computes every score of the "
        "packed sequence, masked or not; set training.document_tokens to 0");
  if (r.s.parallel.cp > 1)
    return refuse("is not modelled with context parallelism (parallel.cp " + message_number(r.s.parallel.cp) + ")");
  return ok_status();
}

}  // namespace llmc::detail
