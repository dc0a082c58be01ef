// A kernel benchmark record → its row: the rate llmcalc's profile gives the kernel it timed, run
// alone on the GPU, by the kernel-time and collective functions the step time uses
// (llmc/kernel_timing.h); nothing here is fitted to the records.
//
// A benchmark times one kernel alone, so the datasheet profile is the isolated one
// (isolated_kernel_profile); a measured or published profile is made of isolated benchmarks
// already and is used as it is.
#include "json_read.h"
#include "llmc/fields.h"
#include "llmc/kernel_timing.h"
#include "llmc/profile.h"
#include "rows.h"

namespace llmc::validate::detail {
namespace {

std::string size_text(double bytes) {
  if (bytes >= 1073741824.0) return number_text(bytes / 1073741824.0, "%g") + " GiB";
  return number_text(bytes / 1048576.0, "%g") + " MiB";
}

}  // namespace

ValidationRow kernel_row(const Record& rec, const ValidateOptions& opt, std::set<std::string>& profiles_used) {
  const FlopConvention& c = *find_convention(rec.measured.convention);
  const KernelSpec& k = rec.kernel_spec;
  ValidationRow row = row_for(rec);
  row.kind = c.id;
  row.kernel = true;
  Scenario s = default_scenario();
  if (Status st = set_field(s, "hardware.gpu", k.gpu); !st)
    return skipped(row, make_error("kernel.gpu", st.error().message));
  const GpuSpec& gpu = s.hardware.gpu;
  const ProfilePick pick = pick_profile(k.gpu, opt);
  if (pick.profile) {
    attach_profile(s, *pick.profile);
    row.profile = pick.label;
  } else {
    // An Ampere kernel (FlashAttention-2) on Hopper runs at its own rates, not the datasheet's
    // Hopper-native ones; a measured profile has the kernels it measured.
    HardwareProfile p = isolated_kernel_profile(gpu);
    if (k.op == "attention" && k.ampere_kernel && gpu.is_hopper()) {
      p = with_ampere_attention_on_hopper(p, gpu);
      row.notes.push_back(
          "an Ampere kernel (mma.sync) on Hopper: FlashAttention-2's published H100 rates (forward 0.374, backward "
          "0.326 of peak at head dim 128)");
    }
    attach_profile(s, p);
    row.profile = "datasheet, isolated kernels (core/data/gpus/" + k.gpu + ".json)";
  }
  const HardwareSpec& hw = s.hardware;
  row.gpu = gpu.id;
  row.scenario = s;

  if (k.op == "gemm") {
    if (gpu.peak_tflops(k.dtype) <= 0)
      return skipped(row, make_error("kernel.dtype", gpu.id + " has no " + to_string(k.dtype) + " tensor-core rate"));
    const KernelTiming t = gemm_kernel_time(hw, k.dtype, k.m, k.n, k.k);
    row.predicted = 2 * k.m * k.n * k.k / t.s / 1e12;
    row.layout = std::string(to_string(k.dtype)) + " GEMM " + number_text(k.m, "%.0f") + "×" +
                 number_text(k.n, "%.0f") + "×" + number_text(k.k, "%.0f") + " (" + t.basis + ")";
  } else if (k.op == "attention") {
    if (gpu.peak_tflops(k.dtype) <= 0)
      return skipped(row, make_error("kernel.dtype", gpu.id + " has no " + to_string(k.dtype) + " tensor-core rate"));
    const double fwd_flops = 4 * k.batch * k.seq_len * k.seq_len * k.heads * k.head_dim * (k.causal ? 0.5 : 1.0);
    double flops = 0, time = 0;
    for (bool backward : {false, true}) {
      if (!(backward ? k.backward : k.forward)) continue;
      flops += backward ? 2.5 * fwd_flops : fwd_flops;
      time += attention_kernel_time(hw, k.dtype, k.batch, k.seq_len, k.seq_len, k.heads, k.heads, k.head_dim, k.causal,
                                    backward)
                  .s;
    }
    row.predicted = flops / time / 1e12;
    row.layout = std::string(to_string(k.dtype)) + " attention " +
                 (k.forward && k.backward ? "fwd+bwd"
                  : k.forward             ? "fwd"
                                          : "bwd") +
                 ", batch " + number_text(k.batch, "%g") + " × seq " + number_text(k.seq_len, "%g") + " × " +
                 number_text(k.heads, "%g") + " heads × hdim " + number_text(k.head_dim, "%g") +
                 (k.causal ? ", causal" : "");
  } else if (k.op == "hbm_copy" || k.op == "hbm_triad") {
    const KernelTiming t =
        memory_kernel_time(hw, k.op == "hbm_copy" ? MemKernel::hbm_copy : MemKernel::hbm_triad, k.bytes);
    row.predicted = k.bytes / t.s / 1e9;
    row.layout =
        std::string(k.op == "hbm_copy" ? "copy" : "triad") + " of " + size_text(k.bytes) + " moved (" + t.basis + ")";
  } else {
    if (k.algorithm != "ring")
      return skipped(
          row,
          make_error("kernel.algorithm",
                     "'" + k.algorithm +
                         "': llmcalc models NCCL's ring algorithm only (NVLS, tree and CollNet are not modelled)"));
    const double t = collective_time_s(hw, k.op, k.ranks, k.bytes);
    row.predicted = bus_bandwidth_factor(k.op, double(k.ranks)) * k.bytes / t / 1e9;  // nccl-tests' busbw
    const int64_t per_node = hw.gpus_per_node.value_or(gpu.gpus_per_node);
    row.layout = k.op + " over " + std::to_string(k.ranks) + " GPUs (" +
                 (k.ranks <= per_node ? "one node" : std::to_string((k.ranks + per_node - 1) / per_node) + " nodes") +
                 "), " + number_text(k.bytes / 1048576.0, "%.0f") + " MiB per rank, ring";
  }
  profiles_used.insert(gpu.id + ": " + row.profile + " — " + hw.profile->description);
  finish(row, c);
  return row;
}

}  // namespace llmc::validate::detail
