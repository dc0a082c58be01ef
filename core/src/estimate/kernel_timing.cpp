// llmc/kernel_timing.h: the public face of the kernel-time lookups (kernel_time.h) and the
// collective model (comm.cpp) for a single kernel or collective; nothing is computed here that
// the step time does not compute the same way.
#include "llmc/kernel_timing.h"

#include <memory>

#include "estimate/estimate_parts.h"
#include "estimate/comm_time.h"
#include "estimate/kernel_time.h"

namespace llmc {
namespace {

// `hw` with a profile: its own, else the GPU's datasheet one.
HardwareSpec with_profile(const HardwareSpec& hw) {
  HardwareSpec out = hw;
  if (!out.profile) out.profile = shared_datasheet_profile(out.gpu);
  return out;
}

KernelTiming timing(const detail::KernelTime& t) { return {t.s, t.rel_err, detail::to_string(t.basis)}; }

// The collective model reads the hardware and the node size only.
Resolved for_collectives(const HardwareSpec& hw) {
  Resolved r;
  r.s.hardware = with_profile(hw);
  r.gpus_per_node = hw.gpus_per_node.value_or(hw.gpu.gpus_per_node);
  return r;
}

}  // namespace

KernelTiming gemm_kernel_time(const HardwareSpec& hw, Dtype dtype, double m, double n, double k, double batch) {
  const HardwareSpec h = with_profile(hw);
  return timing(detail::gemm_time(detail::KernelProfile(h), dtype, m, n, k, batch));
}

KernelTiming attention_kernel_time(const HardwareSpec& hw, Dtype dtype, double batch, double q_len, double kv_len,
                                   double heads, double kv_heads, double head_dim, bool causal, bool backward) {
  const HardwareSpec h = with_profile(hw);
  return timing(detail::attention_time(detail::KernelProfile(h), dtype, batch, q_len, kv_len, heads, kv_heads, head_dim,
                                       causal, backward));
}

KernelTiming memory_kernel_time(const HardwareSpec& hw, MemKernel kernel, double bytes) {
  const HardwareSpec h = with_profile(hw);
  return timing(detail::memory_time(detail::KernelProfile(h), kernel, bytes));
}

double collective_time_s(const HardwareSpec& hw, const std::string& collective, int64_t ranks, double bytes) {
  return detail::collective_time_s(for_collectives(hw), collective.c_str(), ranks, bytes);
}

double moe_dispatch_time_s(const HardwareSpec& hw, EpDispatcher dispatcher, const ModelSpec& m, MoeRouting routing,
                           int64_t ranks, double tokens, double token_bytes) {
  const Resolved r = for_collectives(hw);
  if (dispatcher == EpDispatcher::alltoall)
    return detail::collective_time_s(r, "all_to_all", ranks, tokens * double(m.top_k) * token_bytes);
  const char* tier = "intra_node";
  const detail::MoeFanout fan = detail::moe_fanout(m, routing, ranks, detail::ranks_per_node(r, 1));
  return detail::deepep_seconds(r, ranks, 1, tokens, token_bytes, fan, &tier).seconds;
}

double bus_bandwidth_factor(const std::string& collective, double ranks) {
  return detail::ring_factor(collective, ranks);
}

HardwareProfile isolated_kernel_profile(const GpuSpec& gpu) { return detail::datasheet_profile_isolated(gpu); }

HardwareProfile with_ampere_attention_on_hopper(HardwareProfile p, const GpuSpec& gpu) {
  if (!gpu.is_hopper()) return p;
  for (auto& [dtype, table] : p.attention)  // bf16 and fp16: one tensor-core peak
    table = detail::datasheet_attention_table(gpu, gpu.half_dtype(), 1.0, detail::kAmpereAttentionOnHopper);
  return p;
}

}  // namespace llmc
