#include "table.h"

#include <cstdio>
#include <string>

#include "llmc/format.h"

namespace llmc::cli {
namespace {

void row(std::ostream& out, const std::string& label, const std::string& value) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-34s %s\n", label.c_str(), value.c_str());
  out << buf;
}

}  // namespace

void print_estimate_table(const Estimate& e, std::ostream& out, MemoryUnits units) {
  const Resolved& r = e.r;
  const ParallelSpec& p = r.s.parallel;
  const auto mem = [units](double bytes) { return format_bytes(bytes, units); };
  out << "llmcalc estimate: " << (r.m.name.empty() ? "model" : r.m.name) << " on " << r.gpu_count << " × "
      << r.s.hardware.gpu.name << "\n";
  out << "  layout tp=" << p.tp << " pp=" << p.pp << " dp=" << p.dp << " cp=" << p.cp << " ep=" << p.ep
      << ", micro_batch=" << r.s.training.micro_batch << ", micro-batches/step=" << r.micro_batches
      << ", seq_len=" << r.s.training.seq_len << ", " << to_string(r.s.training.precision) << ", "
      << to_string(r.s.training.optimizer) << ", ZeRO-" << r.s.training.zero_stage << "\n\n";
  out << "Parameters\n";
  row(out, "total", format_count(e.params.total));
  row(out, "active (per token)", format_count(e.params.active));
  row(out, "per GPU (most loaded)", format_count(e.params.per_gpu));
  out << "FLOPs (" << to_string(r.s.training.flops_formula) << ")\n";
  row(out, "6ND", format_flops(e.flops.six_nd));
  row(out, "model FLOPs per token", format_flops(e.flops.model_per_token));
  row(out, "model FLOPs total",
      format_flops(e.flops.model_total) + "  (" + format_count(e.flops.pflop_days) + " PFLOP-days)");
  row(out, "hardware FLOPs total", format_flops(e.flops.hardware_total));
  out << "Memory per GPU\n";
  const MemoryPerGpu& m = e.mem;
  row(out, "weights", mem(m.weights_bytes));
  row(out, "gradients", mem(m.gradients_bytes));
  row(out, "optimizer (incl. master weights)", mem(m.optimizer_bytes));
  if (m.reference_model_bytes > 0) row(out, "reference model", mem(m.reference_model_bytes));
  row(out, "activations",
      mem(m.activations_bytes) + "  (" + std::to_string(m.in_flight_micro_batches) + " micro-batch(es) in flight)");
  row(out, "logits + loss", mem(m.logits_bytes));
  row(out, "comm buffers + CUDA context", mem(m.comm_buffers_bytes + m.cuda_context_bytes));
  row(out, "allocator fragmentation", mem(m.fragmentation_bytes));
  row(out, "total",
      mem(m.total_bytes) + " of " + mem(m.capacity_bytes) + (e.fits ? "  fits" : "  DOES NOT FIT") + " (headroom " +
          mem(m.headroom_bytes) + ")");
  row(out, "largest micro-batch that fits", e.max_micro_batch ? std::to_string(e.max_micro_batch) : "none");
  row(out, "fewest GPUs that fit (this tp/pp/cp)", e.min_gpus ? std::to_string(e.min_gpus) : "none");
  out << "Time (basis: " << e.time.basis << ")\n";
  const TimeEstimate& t = e.time;
  row(out, "step",
      format_duration(t.step_s) + "  = compute " + format_duration(t.compute_s) + " + bubble " +
          format_duration(t.bubble_s) + " + exposed comm " + format_duration(t.comm_exposed_s));
  const bool ranged = t.step_high_s > t.step_low_s;  // a given MFU or TFLOP/s has no model range
  if (ranged) row(out, "step, 68 % range", format_duration(t.step_low_s) + " to " + format_duration(t.step_high_s));
  row(out, "pipeline bubble (p-1)/m", format_percent(t.bubble_fraction));
  row(out, "tokens/s", format_count(t.tokens_per_s));
  const auto days = [](double d) { return format_quantity(d, "days"); };
  row(out, "total",
      days(t.total_days) + (ranged ? "  (" + days(t.total_days_low) + " to " + days(t.total_days_high) + ")" : ""));
  row(out, "GPU-hours", format_count(t.gpu_hours));
  row(out, "cost",
      format_usd(t.cost_usd) +
          (ranged ? "  (" + format_usd(t.cost_usd_low) + " to " + format_usd(t.cost_usd_high) + ")" : ""));
  row(out, "energy (GPUs at TDP)", format_energy_kwh(t.energy_kwh));
  row(out, "MFU / HFU", format_percent(t.mfu) + " / " + format_percent(t.hfu));
  if (!e.comm.empty()) {
    out << "Communication per step\n";
    for (const CommItem& c : e.comm)
      row(out, c.name + " " + c.collective + " ×" + std::to_string(c.group) + " (" + c.tier + ")",
          format_duration(c.time_s) + (c.overlapped ? ", overlapped, exposed " : ", exposed ") +
              format_duration(c.exposed_s));
  }
  if (!e.warnings.empty()) {
    out << "Warnings\n";
    for (const std::string& w : e.warnings) out << "  - " << w << "\n";
  }
}

}  // namespace llmc::cli
