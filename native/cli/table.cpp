#include "table.h"

#include <cstdio>
#include <string>

namespace llmc::cli {
namespace {

void row(std::ostream& out, const std::string& label, const std::string& value) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-34s %s\n", label.c_str(), value.c_str());
  out << buf;
}
std::string fmt(double v, const char* unit) { return format_value(v, unit); }
std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

void print_estimate_table(const Estimate& e, std::ostream& out) {
  const Resolved& r = e.r;
  const ParallelSpec& p = r.s.parallel;
  out << "llmcalc estimate: " << (r.m.name.empty() ? "model" : r.m.name) << " on " << r.gpu_count << " × " << r.s.hardware.gpu.name << "\n";
  out << "  layout tp=" << p.tp << " pp=" << p.pp << " dp=" << p.dp << " cp=" << p.cp << " ep=" << p.ep << ", micro_batch=" << r.s.training.micro_batch
      << ", micro-batches/step=" << r.micro_batches << ", seq_len=" << r.s.training.seq_len << ", " << to_string(r.s.training.precision) << ", "
      << to_string(r.s.training.optimizer) << ", ZeRO-" << r.s.training.zero_stage << "\n\n";
  out << "Parameters\n";
  row(out, "total", sci(e.params.total));
  row(out, "active (per token)", sci(e.params.active));
  row(out, "per GPU (most loaded)", sci(e.params.per_gpu));
  out << "FLOPs (" << to_string(r.s.training.flops_formula) << ")\n";
  row(out, "6ND", sci(e.flops.six_nd));
  row(out, "model FLOPs per token", sci(e.flops.model_per_token));
  row(out, "model FLOPs total", sci(e.flops.model_total) + "  (" + sci(e.flops.pflop_days) + " PFLOP-days)");
  row(out, "hardware FLOPs total", sci(e.flops.hardware_total));
  out << "Memory per GPU\n";
  const MemoryPerGpu& m = e.mem;
  row(out, "weights", fmt(m.weights_bytes, "bytes"));
  row(out, "gradients", fmt(m.gradients_bytes, "bytes"));
  row(out, "optimizer (incl. master weights)", fmt(m.optimizer_bytes, "bytes"));
  if (m.reference_model_bytes > 0) row(out, "reference model", fmt(m.reference_model_bytes, "bytes"));
  row(out, "activations", fmt(m.activations_bytes, "bytes") + "  (" + std::to_string(m.in_flight_micro_batches) + " micro-batch(es) in flight)");
  row(out, "logits + loss", fmt(m.logits_bytes, "bytes"));
  row(out, "comm buffers + CUDA context", fmt(m.comm_buffers_bytes + m.cuda_context_bytes, "bytes"));
  row(out, "allocator fragmentation", fmt(m.fragmentation_bytes, "bytes"));
  row(out, "total", fmt(m.total_bytes, "bytes") + " of " + fmt(m.capacity_bytes, "bytes") + (e.fits ? "  fits" : "  DOES NOT FIT") +
                        " (headroom " + fmt(m.headroom_bytes, "bytes") + ")");
  row(out, "largest micro-batch that fits", e.max_micro_batch ? std::to_string(e.max_micro_batch) : "none");
  row(out, "fewest GPUs that fit (this tp/pp/cp)", e.min_gpus ? std::to_string(e.min_gpus) : "none");
  out << "Time (basis: " << e.time.basis << ")\n";
  const TimeEstimate& t = e.time;
  row(out, "step", fmt(t.step_s, "s") + "  = compute " + fmt(t.compute_s, "s") + " + bubble " + fmt(t.bubble_s, "s") + " + exposed comm " +
                       fmt(t.comm_exposed_s, "s"));
  const bool ranged = t.step_high_s > t.step_low_s;  // a given MFU or TFLOP/s has no model range
  if (ranged)
    row(out, "step, one-sigma range", fmt(t.step_low_s, "s") + " to " + fmt(t.step_high_s, "s"));
  row(out, "pipeline bubble (p-1)/m", fmt(t.bubble_fraction, "fraction"));
  row(out, "tokens/s", sci(t.tokens_per_s));
  row(out, "total", fmt(t.total_days, "days") +
                        (ranged ? "  (" + fmt(t.total_days_low, "days") + " to " + fmt(t.total_days_high, "days") + ")" : ""));
  row(out, "GPU-hours", sci(t.gpu_hours));
  row(out, "cost", "$" + sci(t.cost_usd) + (ranged ? "  ($" + sci(t.cost_usd_low) + " to $" + sci(t.cost_usd_high) + ")" : ""));
  row(out, "energy (GPUs at TDP)", sci(t.energy_kwh) + " kWh");
  row(out, "MFU / HFU", fmt(t.mfu, "fraction") + " / " + fmt(t.hfu, "fraction"));
  if (!e.comm.empty()) {
    out << "Communication per step\n";
    for (const CommItem& c : e.comm)
      row(out, c.name + " " + c.collective + " ×" + std::to_string(c.group) + " (" + c.tier + ")",
          fmt(c.time_s, "s") + (c.overlapped ? ", overlapped, exposed " : ", exposed ") + fmt(c.exposed_s, "s"));
  }
  if (!e.warnings.empty()) {
    out << "Warnings\n";
    for (const std::string& w : e.warnings) out << "  - " << w << "\n";
  }
}

}  // namespace llmc::cli
