// Kernel benchmark records (kinds kernel_gemm, kernel_hbm, kernel_nccl, kernel_attention): the
// rate llmcalc's profile gives the kernel a record timed, run alone on the GPU, against the
// record's figure. The same kernel-time and collective functions the step time uses
// (kernel_time.cpp, comm.cpp) time them; nothing here is fitted to the records.
//
// A benchmark times one kernel alone, so the datasheet profile is built with its isolated GEMM and
// attention rates (KernelSetting::isolated, kernel_time.h); a measured or published profile is
// made of isolated benchmarks already and is used as it is. Each record gives one row at its
// largest size (sequence length for attention, message size for NCCL): the asymptotic rate a
// profile is about; the notes say what was timed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "estimate/estimate_parts.h"
#include "estimate/kernel_time.h"
#include "llmc/fields.h"
#include "llmc/profile.h"
#include "validate_internal.h"

namespace llmc::detail::validation {
namespace {

const json* object_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_object() ? &j.at(key) : nullptr;
}
// Fields of section `o` (named `path` in errors; null when the record has no such section), read
// as strictly as a training record's: absent is "" / nullopt, the wrong type or range an error
// naming the field.
Result<std::string> text_field(const json* o, const char* key, const char* path) {
  std::string out;
  if (o)
    if (Status st = get_string(*o, key, path, out); !st) return st.error();
  return out;
}
Result<std::optional<double>> number_field(const json* o, const char* key, const char* path, double lo, double hi) {
  std::optional<double> out;
  if (o)
    if (Status st = get_num(*o, key, path, lo, hi, out); !st) return st.error();
  return out;
}

// "16GiB", "1MiB", "32KiB", "134M", "8G", "512" → bytes: K/M/G/T with "i" are powers of 1024,
// without it of 1000 (nccl-tests prints plain bytes; the records abbreviate both ways; at the
// sizes compared the two differ by under 8 %). Sequence lengths ("2k", "16k") are powers of two
// by convention: `binary_k` reads k as 1024. 0: unreadable.
double size_value(const std::string& text, bool binary_k = false) {
  const char* s = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v) || v <= 0) return 0;
  std::string unit = lower(std::string(end));
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  if (!unit.empty() && unit.back() == 'b') unit.pop_back();  // "GiB", "GB", "B"
  if (unit.empty()) return v;
  const bool binary = (unit.size() == 2 && unit[1] == 'i') || binary_k;
  if (unit.size() > (binary ? 2u : 1u)) return 0;
  const double base = binary ? 1024.0 : 1000.0;
  switch (unit[0]) {
    case 'k': return v * base;
    case 'm': return v * base * base;
    case 'g': return v * base * base * base;
    case 't': return v * base * base * base * base;
    default: return 0;
  }
}

// The largest key of a {size: value} table, with its value; error names the table.
struct Largest {
  std::string key;
  double size = 0, value = 0;
};
Result<Largest> largest_entry(const json& table, const std::string& path, bool binary_k = false) {
  Largest best;
  for (const auto& [key, v] : table.items()) {
    const double size = size_value(key, binary_k);
    if (size <= 0) return make_error(path, "key '" + key + "' is not a size (e.g. 1MiB, 16GiB, 2k, 4096)");
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0) return make_error(path + "." + key, "must be a positive number");
    if (size > best.size) best = {key, size, v.get<double>()};
  }
  if (best.size <= 0) return make_error(path, "empty: no size to compare at");
  return best;
}

// The GEMM dtype a record names ("bf16", "fp8_e4m3fn", "FP16", "tf32").
std::optional<Dtype> gemm_dtype(const std::string& text) {
  const std::string t = lower(text);
  if (t.find("fp8") != std::string::npos || t.find("e4m3") != std::string::npos || t.find("e5m2") != std::string::npos) return Dtype::fp8;
  if (t.find("bf16") != std::string::npos || t.find("bfloat16") != std::string::npos) return Dtype::bf16;
  if (t.find("fp16") != std::string::npos || t.find("float16") != std::string::npos || t == "half") return Dtype::fp16;
  if (t.find("tf32") != std::string::npos) return Dtype::tf32;
  if (t.find("fp32") != std::string::npos || t.find("float32") != std::string::npos) return Dtype::fp32;
  if (t.find("int8") != std::string::npos) return Dtype::int8;
  return std::nullopt;
}

// The GPU a kernel record ran on, resolved with the profile it is timed with. For the datasheet
// profile the GEMM and attention rates are the isolated ones.
struct KernelGpu {
  Resolved r;
  std::string label;
  bool datasheet = false;  // timed with the datasheet profile, not a measured or published one
};
Result<KernelGpu> kernel_gpu(const json& j, const ValidateOptions& opt, std::vector<std::string>& notes) {
  const Result<std::string> gpu_text = text_field(object_at(j, "hardware"), "gpu", "hardware");
  if (!gpu_text) return gpu_text.error();
  const std::string& text = *gpu_text;
  if (text.empty()) return make_error("hardware.gpu", "missing: the GPU the kernel ran on");
  const std::string gpu = gpu_id_for(text);
  if (gpu.empty()) return make_error("hardware.gpu", "no llmcalc GPU matches '" + text + "'");
  notes.push_back("GPU '" + text + "' → " + gpu);
  Scenario s = default_scenario();
  if (auto st = set_field(s, "hardware.gpu", gpu); !st) return st.error();
  // The scenario is only a carrier for the GPU and its profile: any model, a 16-bit dtype the GPU has.
  if (auto st = set_field(s, "model.preset", "llama3.1-8b"); !st) return st.error();
  s.training.precision = s.hardware.gpu.half_dtype() == Dtype::bf16 ? Precision::bf16_mixed : Precision::fp16_mixed;
  s.training.flash_attention = s.hardware.gpu.has_fused_attention();
  const ProfilePick pick = pick_profile(gpu, opt);
  attach_profile(s, pick.profile ? *pick.profile : datasheet_profile(s.hardware.gpu, KernelSetting::isolated));
  Result<Resolved> r = resolve(s);
  if (!r) return r.error();
  return KernelGpu{*r, pick.profile ? pick.label : "datasheet, isolated kernels (core/data/gpus/" + gpu + ".json)", !pick.profile};
}

ValidationRow kernel_row(const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes) {
  ValidationRow row;
  row.id = id;
  row.kind = kind;
  row.status = "compared";
  row.convention = kind;
  row.gpu = g.r.s.hardware.gpu.id;
  row.profile = g.label;
  row.scenario = g.r.s;
  row.notes = std::move(notes);
  return row;
}

// cuBLASLt / torch.mm GEMM: TFLOP/s = 2·m·n·k / time.
Result<std::vector<ValidationRow>> gemm_rows(const json& j, const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes) {
  const json* k = object_at(j, "kernel");
  if (!k) return make_error("kernel", "missing: the GEMM's dtype and shape");
  const Result<std::string> dtype_text = text_field(k, "dtype", "kernel");
  if (!dtype_text) return dtype_text.error();
  const std::optional<Dtype> d = gemm_dtype(*dtype_text);
  if (!d) return make_error("kernel.dtype", "not a GEMM dtype llmcalc times (bf16, fp16, fp8, tf32, fp32, int8); got '" + *dtype_text + "'");
  double m = 0, n = 0, kk = 0;
  for (const auto& [key, dst] : {std::pair{"m", &m}, {"n", &n}, {"k", &kk}}) {
    const Result<std::optional<double>> v = number_field(k, key, "kernel", 1, 1e8);
    if (!v) return v.error();
    *dst = v->value_or(0);
  }
  if (m <= 0 || n <= 0 || kk <= 0) {
    // "shape_MxNxK": "1024x10240x5120"
    const Result<std::string> shape_text = text_field(k, "shape_MxNxK", "kernel");
    if (!shape_text) return shape_text.error();
    const std::string shape = lower(*shape_text);
    if (std::sscanf(shape.c_str(), "%lfx%lfx%lf", &m, &n, &kk) != 3 || m <= 0 || n <= 0 || kk <= 0)
      return make_error("kernel.m", "the shape needs positive m, n and k (or shape_MxNxK as '1024x2048x4096')");
  }
  if (m > 1e8 || n > 1e8 || kk > 1e8) return make_error("kernel.m", "m, n and k must be at most 1e8");
  const Result<std::optional<double>> measured = number_field(object_at(j, "measured"), "tflops", "measured", 0, 1e6);
  if (!measured) return measured.error();
  if (!*measured || **measured <= 0) return make_error("measured.tflops", "missing or not positive");
  if (g.r.s.hardware.gpu.peak_tflops(*d) <= 0) return make_error("kernel.dtype", g.r.s.hardware.gpu.id + " has no " + to_string(*d) + " tensor-core rate");
  const KernelProfile kp(g.r.s.hardware);
  const KernelTime t = gemm_time(kp, *d, m, n, kk);
  ValidationRow row = kernel_row(id, kind, g, std::move(notes));
  row.metric = "tflops";
  row.unit = "TFLOP/s";
  row.measured = **measured;
  row.predicted = 2 * m * n * kk / t.s / 1e12;
  row.layout = std::string(to_string(*d)) + " GEMM " + number_text(m, "%.0f") + "×" + number_text(n, "%.0f") + "×" + number_text(kk, "%.0f") + " (" + to_string(t.basis) + ")";
  finish_row(row);
  return std::vector<ValidationRow>{row};
}

// STREAM-type HBM benchmark: the streaming-copy rate of a large array. One row: copy, else triad,
// scale/mul, add (read-only kernels such as dot move half the traffic of a copy per element and
// are not what the time model's copies do).
Result<std::vector<ValidationRow>> hbm_rows(const json& j, const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes) {
  const json* ms = object_at(j, "measured");
  if (!ms) return make_error("measured", "missing");
  for (const char* op : {"copy", "triad", "scale", "mul", "add"}) {
    for (const auto& [suffix, to_gbps] : {std::pair<const char*, double>{"_tbps", 1000.0}, {"_gbps", 1.0}}) {
      for (const auto& [key, v] : ms->items()) {
        if (lower(key) != std::string(op) + suffix || !v.is_number()) continue;
        const double gbps = v.get<double>() * to_gbps;
        if (!std::isfinite(gbps) || gbps <= 0) return make_error("measured." + key, "must be a positive number");
        const KernelProfile kp(g.r.s.hardware);
        const bool triad = std::string(op) == "triad" || std::string(op) == "add";
        const double bytes = 1073741824.0;  // a large array: the streaming rate, launch cost negligible
        const KernelTime t = memory_time(kp, triad ? MemKernel::hbm_triad : MemKernel::hbm_copy, bytes);
        ValidationRow row = kernel_row(id, kind, g, std::move(notes));
        row.metric = key;
        row.unit = "GB/s";
        row.measured = gbps;
        row.predicted = bytes / t.s / 1e9;
        row.layout = std::string(op) + " of 1 GiB moved (" + to_string(t.basis) + ")";
        row.notes.push_back("array size not compared: the record's largest arrays stream at the profile's HBM rate");
        finish_row(row);
        return std::vector<ValidationRow>{row};
      }
    }
  }
  return make_error("measured", "no copy, triad, scale, mul or add bandwidth (keys such as copy_TBps or triad_GBps)");
}

// nccl-tests' names for what it times.
std::string collective_name(const std::string& text) {
  std::string t = lower(text);
  t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == '_' || c == '-' || c == ' '; }), t.end());
  for (const auto& [prefix, name] : {std::pair{"allreduce", "all_reduce"}, {"allgather", "all_gather"}, {"reducescatter", "reduce_scatter"},
                                      {"alltoall", "all_to_all"}, {"sendrecv", "send_recv"}})
    if (t.rfind(prefix, 0) == 0) return name;
  return "";
}

Result<ValidationRow> nccl_row(const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes, const std::string& collective,
                               int64_t ranks, double bytes, double measured, const std::string& metric) {
  const double t = collective_time_s(g.r, collective.c_str(), ranks, bytes);
  if (!(t > 0)) return make_error("hardware.gpu_count", "a collective needs at least 2 GPUs; got " + std::to_string(ranks));
  ValidationRow row = kernel_row(id, kind, g, std::move(notes));
  row.metric = metric;
  row.unit = "GB/s";
  row.measured = measured;
  row.predicted = ring_factor(collective, double(ranks)) * bytes / t / 1e9;  // nccl-tests' busbw
  const int64_t per_node = g.r.gpus_per_node;
  row.layout = collective + " over " + std::to_string(ranks) + " GPUs (" + (ranks <= per_node ? "one node" : std::to_string((ranks + per_node - 1) / per_node) + " nodes") +
               "), " + number_text(bytes / 1048576.0, "%.0f") + " MiB per rank, ring";
  finish_row(row);
  return row;
}

// nccl-tests bus bandwidth: at the largest size of busbw_GBps_by_size, or one row per
// "<collective>_ring_busbw_GBps" entry at kernel.payload. NCCL's NVLS, tree and CollNet
// algorithms are not modelled (comm.cpp: rings), so figures for them are left out.
Result<std::vector<ValidationRow>> nccl_rows(const json& j, const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes) {
  const json* k = object_at(j, "kernel");
  const json* ms = object_at(j, "measured");
  if (!ms) return make_error("measured", "missing");
  const Result<std::optional<double>> count = number_field(object_at(j, "hardware"), "gpu_count", "hardware", 2, 1e6);
  if (!count) return count.error();
  if (!*count || **count != std::floor(**count)) return make_error("hardware.gpu_count", "the GPUs in the collective: a whole number from 2; got " + (*count ? number_text(**count, "%g") : std::string("none")));
  const int64_t ranks = int64_t(**count);
  const Result<std::string> algorithm_text = text_field(k, "algorithm", "kernel"), collective_text = text_field(k, "collective", "kernel"),
                            payload_text = text_field(k, "payload", "kernel");
  for (const Result<std::string>* r : {&algorithm_text, &collective_text, &payload_text})
    if (!*r) return r->error();
  const std::string algorithm = lower(*algorithm_text);
  if (algorithm.find("nvls") != std::string::npos || algorithm.find("tree") != std::string::npos || algorithm.find("collnet") != std::string::npos)
    return make_error("kernel.algorithm", "'" + *algorithm_text + "': llmcalc models NCCL's ring algorithm only (NVLS, tree and CollNet are not modelled)");
  std::vector<ValidationRow> rows;
  if (ms->contains("busbw_GBps_by_size") && ms->at("busbw_GBps_by_size").is_object()) {
    const std::string collective = collective_name(*collective_text);
    if (collective.empty()) return make_error("kernel.collective", "not a collective llmcalc times (all_reduce, all_gather, reduce_scatter, all_to_all, send_recv); got '" + *collective_text + "'");
    Result<Largest> big = largest_entry(ms->at("busbw_GBps_by_size"), "measured.busbw_GBps_by_size");
    if (!big) return big.error();
    Result<ValidationRow> row = nccl_row(id, kind, g, notes, collective, ranks, big->size, big->value, "busbw_GBps at " + big->key);
    if (!row) return row.error();
    rows.push_back(*row);
  } else {
    const double payload = size_value(*payload_text);
    for (const auto& [key, v] : ms->items()) {
      const std::string lk = lower(key);
      const size_t at = lk.find("_ring_busbw_gbps");
      if (at == std::string::npos || at + 16 != lk.size() || !v.is_number()) continue;
      const std::string collective = collective_name(lk.substr(0, at));
      if (collective.empty() || v.get<double>() <= 0) continue;
      if (payload <= 0) return make_error("kernel.payload", "the message size of " + key + " (e.g. 16GiB)");
      Result<ValidationRow> row = nccl_row(id, kind, g, notes, collective, ranks, payload, v.get<double>(), key);
      if (!row) return row.error();
      rows.push_back(*row);
    }
    if (!rows.empty()) {
      for (const auto& [key, v] : ms->items())
        if (lower(key).find("nvls") != std::string::npos) rows.front().notes.push_back(key + " left out: NCCL's NVLS algorithm is not modelled");
    }
  }
  if (rows.empty()) return make_error("measured", "no bus bandwidth: busbw_GBps_by_size, or <collective>_ring_busbw_GBps with kernel.payload");
  return rows;
}

// "FlashAttention-2", "FlashAttention 2", "flash-attn 2.x", "FA2", "flash_attn_2": the Ampere-era kernels.
bool names_flash_attention_2(const std::string& impl) {
  std::string t;
  for (char ch : lower(impl)) t += std::isalnum(static_cast<unsigned char>(ch)) ? ch : ' ';
  std::string squeezed;
  for (char ch : t) if (ch != ' ') squeezed += ch;
  return squeezed.find("flashattention2") != std::string::npos || squeezed.find("flashattn2") != std::string::npos ||
         (" " + t + " ").find(" fa2 ") != std::string::npos;
}

// FlashAttention's benchmark (benchmarks/benchmark_flash_attention.py): hidden 2048 split into
// 2048 / head_dim heads, 16384 tokens per batch, FLOPs 4·b·s²·h·d (halved when causal), backward
// 2.5 × forward; TFLOP/s = FLOPs / time.
Result<std::vector<ValidationRow>> attention_rows(const json& j, const std::string& id, const std::string& kind, const KernelGpu& g, std::vector<std::string> notes) {
  const json* k = object_at(j, "kernel");
  if (!k) return make_error("kernel", "missing: head_dim, causal and direction");
  const Result<std::optional<double>> head_dim = number_field(k, "head_dim", "kernel", 1, 1024);
  if (!head_dim) return head_dim.error();
  if (!*head_dim) return make_error("kernel.head_dim", "missing: a number from 1 to 1024");
  const double d = **head_dim;
  std::optional<bool> causal_given;
  if (Status st = get_bool(*k, "causal", "kernel", causal_given); !st) return st.error();
  if (!causal_given) return make_error("kernel.causal", "missing: true or false");
  const bool causal = *causal_given;
  const Result<std::string> dir_text = text_field(k, "direction", "kernel"), dtype_text = text_field(k, "dtype", "kernel"), impl_text = text_field(k, "impl", "kernel");
  for (const Result<std::string>* r : {&dir_text, &dtype_text, &impl_text})
    if (!*r) return r->error();
  const std::string dir = lower(*dir_text);
  const bool fwd = dir.find("fwd") != std::string::npos || dir.find("forward") != std::string::npos;
  const bool bwd = dir.find("bwd") != std::string::npos || dir.find("backward") != std::string::npos;
  if (!fwd && !bwd) return make_error("kernel.direction", "fwd, bwd or fwd+bwd; got '" + *dir_text + "'");
  const Result<std::optional<double>> tokens_given = number_field(k, "total_tokens_per_batch", "kernel", 1, 1e9);
  if (!tokens_given) return tokens_given.error();
  double tokens = tokens_given->value_or(0);
  if (tokens <= 0) tokens = 16384, notes.push_back("tokens per batch not given: 16384, FlashAttention's benchmark");
  const Result<std::optional<double>> heads_given = number_field(k, "heads", "kernel", 1, 1e5), nheads_given = number_field(k, "nheads", "kernel", 1, 1e5);
  if (!heads_given) return heads_given.error();
  if (!nheads_given) return nheads_given.error();
  double heads = heads_given->value_or(nheads_given->value_or(0));
  if (heads <= 0) heads = std::max(1.0, std::floor(2048 / d)), notes.push_back("heads not given: 2048 / head_dim = " + number_text(heads, "%g") + ", FlashAttention's benchmark");
  const json* ms = object_at(j, "measured");
  if (!ms || !ms->contains("tflops_by_seqlen") || !ms->at("tflops_by_seqlen").is_object()) return make_error("measured.tflops_by_seqlen", "missing: TFLOP/s by sequence length");
  Result<Largest> big = largest_entry(ms->at("tflops_by_seqlen"), "measured.tflops_by_seqlen", true);
  if (!big) return big.error();
  const double s = big->size;
  if (s > tokens || s > 1e7) return make_error("measured.tflops_by_seqlen", "sequence length " + big->key + " exceeds the tokens per batch (" + number_text(tokens, "%g") + ")");
  const double batch = std::floor(tokens / s);
  const Dtype dt = g.r.s.hardware.gpu.half_dtype();
  // Fused attention is timed in 16-bit (training recipes keep it there, FP8 ones included): a
  // record in another dtype is not predicted at a 16-bit rate.
  if (const std::optional<Dtype> named = gemm_dtype(*dtype_text); named && *named != Dtype::bf16 && *named != Dtype::fp16)
    return make_error("kernel.dtype", "llmcalc times fused attention in 16-bit (bf16/fp16) only; got '" + *dtype_text + "'");
  const std::string& impl = *impl_text;
  HardwareSpec hw = g.r.s.hardware;
  if (g.datasheet && hw.gpu.is_hopper() && names_flash_attention_2(impl)) {
    // An Ampere kernel on Hopper: the datasheet's attention rates are Hopper-native kernels'.
    HardwareProfile p = *hw.profile;
    for (auto& [dtype, table] : p.attention)  // bf16 and fp16, one tensor-core peak
      table = datasheet_attention_table(hw.gpu, dt, 1.0, kAmpereAttentionOnHopper);
    hw.profile = std::make_shared<const HardwareProfile>(std::move(p));
    notes.push_back("implementation '" + impl + "': an Ampere kernel (mma.sync) on Hopper, at FlashAttention-2's published H100 rates (forward 0.374, backward 0.326 of peak at head dim 128), not the Hopper-native ones");
  } else if (!impl.empty()) {
    notes.push_back("implementation '" + impl + "': llmcalc times the profile's fused attention" + (g.datasheet ? std::string(" (the datasheet's: the GPU generation's own kernels)") : std::string()));
  }
  const KernelProfile kp(hw);
  const double fwd_flops = 4 * batch * s * s * heads * d * (causal ? 0.5 : 1.0);
  double flops = 0, t = 0;
  if (fwd) flops += fwd_flops, t += attention_time(kp, dt, batch, s, s, heads, heads, d, causal, false).s;
  if (bwd) flops += 2.5 * fwd_flops, t += attention_time(kp, dt, batch, s, s, heads, heads, d, causal, true).s;
  ValidationRow row = kernel_row(id, kind, g, std::move(notes));
  row.metric = "tflops at seq " + big->key;
  row.unit = "TFLOP/s";
  row.measured = big->value;
  row.predicted = flops / t / 1e12;
  row.layout = std::string(to_string(dt)) + " attention " + (fwd && bwd ? "fwd+bwd" : fwd ? "fwd" : "bwd") + ", batch " + number_text(batch, "%g") + " × seq " + number_text(s, "%g") + " × " +
               number_text(heads, "%g") + " heads × hdim " + number_text(d, "%g") + (causal ? ", causal" : "");
  finish_row(row);
  return std::vector<ValidationRow>{row};
}

}  // namespace

std::vector<ValidationRow> kernel_rows(const json& j, const std::string& id, const std::string& kind, const ValidateOptions& opt, std::set<std::string>& profiles_used) {
  using Rows = Result<std::vector<ValidationRow>> (*)(const json&, const std::string&, const std::string&, const KernelGpu&, std::vector<std::string>);
  Rows rows_of = kind == "kernel_gemm" ? gemm_rows : kind == "kernel_hbm" ? hbm_rows : kind == "kernel_nccl" ? nccl_rows : kind == "kernel_attention" ? attention_rows : nullptr;
  if (!rows_of) return {skipped(id, kind, make_error("kind", "kernel kind not modelled (llmcalc compares kernel_gemm, kernel_hbm, kernel_nccl and kernel_attention records)"))};
  std::vector<std::string> notes;
  Result<KernelGpu> g = kernel_gpu(j, opt, notes);
  if (!g) return {skipped(id, kind, g.error())};
  Result<std::vector<ValidationRow>> rows = rows_of(j, id, kind, *g, notes);
  if (!rows) return {skipped(id, kind, rows.error())};
  profiles_used.insert(g->r.s.hardware.gpu.id + ": " + g->label + " — " + g->r.s.hardware.profile->description);
  return *rows;
}

}  // namespace llmc::detail::validation
