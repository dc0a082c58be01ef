// llmc-published-profiles RECORDS.json OUT_DIR
//
// Builds the bundled profiles of GPUs not measured here (site/profiles/<gpu>.published.json)
// from published kernel measurements: the kernel records of validation/sources/public.json, the raw
// transcriptions that validation/public.json's records were converted from (GEMM,
// FlashAttention, STREAM-type HBM, nccl-tests). Each profile names the records it was built
// from; the fits are the bench's own (finalize_profile), so a published table and a measured one
// are read by the time model the same way. docs/profile-schema.md "Published profiles".
//
// The record → profile mapping is a fixed, reviewed list below, not a text match: a record's
// GPU string is free text ("A100 80GB (form factor not stated ...)"), and a wrong GPU in a
// profile is worse than a missing point.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "llmc/catalog.h"
#include "llmc/profile.h"
#include "llmc_bench/atomic_write.h"
#include "llmc_bench/profile_builder.h"

namespace {

using json = nlohmann::json;
using namespace llmc;

// fp16 and bf16 run on the same tensor cores at the same datasheet peak (A100 312, H100 989
// TFLOP/s): a point measured in one stands for both.
const std::vector<const char*> kSixteenBit = {"bf16", "fp16"};

struct Fail {
  std::string what;
};

// The records of one GPU's profile, by kind.
struct Recipe {
  const char* gpu;
  const char* description;
  std::vector<const char*> gemm;       // kernel_gemm records
  std::vector<const char*> attention;  // FlashAttention-2 fwd+bwd records
  const char* hbm;                     // STREAM-type record: copy and triad
  const char* all_reduce;              // nccl-tests all_reduce busbw by size, 8 GPUs
  const char* ring_gather_scatter;     // all_gather / reduce_scatter ring busbw, 8 GPUs ("" = none)
  double compute_efficiency;           // informational (schema v1 requires it)
  const char* compute_efficiency_citation;
  const char* inter_node_citation;
};

const std::vector<Recipe>& recipes() {
  static const std::vector<Recipe> r = {
      {"a100-sxm-80gb",
       "A100 SXM4 80GB from published kernel measurements (cuBLASLt GEMM, FlashAttention-2, BabelStream, nccl-tests)",
       {"azure_a100_cublaslt_fp16_4096x4096x4096", "azure_a100_cublaslt_fp16_8192x8192x8192",
        "azure_a100_cublaslt_fp16_16384x16384x16384", "azure_a100_cublaslt_fp16_6144x12288x12288",
        "azure_a100_cublaslt_fp16_802816x192x768", "azure_a100_cublaslt_fp16_1024x2145x1024", "mamf_a100_sxm_bf16"},
       {"fa2_a100_fwdbwd_hdim128_noncausal", "fa2_a100_fwdbwd_hdim128_causal", "fa2_a100_fwdbwd_hdim64_noncausal",
        "fa2_a100_fwdbwd_hdim64_causal"},
       "azure_a100_babelstream",
       "nccl_allreduce_a100_8gpu_nccltests",
       "",
       0.47,
       "compute_efficiency 0.47 (informational; the time model uses the kernel tables): Narayanan et al. 2021 "
       "(arXiv:2104.04473) Table 1, 137-163 TFLOP/s per A100 of 312 dense (0.44-0.52, mean 0.47), counting recompute "
       "FLOPs",
       "inter_node busbw: 0.9 x one 200 Gb/s HDR InfiniBand NIC per GPU (DGX A100), the datasheet-profile rule; not "
       "measured"},
      {"h100-sxm",
       "H100 SXM 80GB from published kernel measurements (cuBLASLt GEMM, FlashAttention-2, BabelStream, nccl-tests)",
       {"mamf_h100_sxm_bf16", "mamf_h100_sxm_fp8_e4m3fn", "azure_h100_cublaslt_fp8_4096x4096x4096",
        "azure_h100_cublaslt_fp8_8192x8192x8192", "azure_h100_cublaslt_fp8_16384x16384x16384",
        "azure_h100_cublaslt_fp8_32768x32768x32768", "azure_h100_cublaslt_fp8_6144x12288x12288",
        "azure_h100_cublaslt_fp8_802816x192x768", "azure_h100_cublaslt_fp8_1024x2145x1024"},
       {"fa2_h100_fwdbwd_hdim128_noncausal", "fa2_h100_fwdbwd_hdim128_causal", "fa2_h100_fwdbwd_hdim64_noncausal",
        "fa2_h100_fwdbwd_hdim64_causal"},
       "azure_h100_babelstream",
       "nccl_allreduce_h100_8gpu_azure_nvls",
       "nccl_nvlink4_8gpu_h200_ring_vs_nvls",
       0.43,
       "compute_efficiency 0.43 (informational; the time model uses the kernel tables): Dubey et al. 2024 "
       "(arXiv:2407.21783) Table 4, 430 TFLOP/s per H100 of 989 dense bf16 on 8,192 GPUs",
       "inter_node busbw: 0.9 x one 400 Gb/s NDR NIC per GPU (DGX H100), the datasheet-profile rule; not measured"},
  };
  return r;
}

const json& record(const std::map<std::string, json>& by_id, const std::string& id, const char* kind) {
  auto it = by_id.find(id);
  if (it == by_id.end()) throw Fail{"record '" + id + "' not found"};
  if (it->second.value("kind", "") != kind) throw Fail{"record '" + id + "' is not a " + kind + " record"};
  return it->second;
}

// What each cited source supplied: citation -> "record id (what)" entries, one line per source.
using Sources = std::map<std::string, std::vector<std::string>>;
void cite(Sources& sources, const json& r, const std::string& what) {
  sources[r.at("source").value("citation", "")].push_back(r.at("id").get<std::string>() + " (" + what + ")");
}

double number(const json& j, const char* key, const std::string& id) {
  if (!j.contains(key) || !j.at(key).is_number()) throw Fail{"record '" + id + "': missing number '" + key + "'"};
  return j.at(key).get<double>();
}

// nccl-tests sizes are powers of two; the records write them as "32KiB", "1MiB", "134M", "8G".
double payload_bytes(const std::string& label) {
  std::size_t end = 0;
  const double v = std::stod(label, &end);
  const std::string unit = label.substr(end);
  double scale = 1;
  if (!unit.empty()) {
    const char u = unit[0];
    scale = u == 'K' ? 1e3 : u == 'M' ? 1e6 : u == 'G' ? 1e9 : 0;
    if (scale == 0) throw Fail{"size label '" + label + "' has an unknown unit"};
  }
  return std::exp2(std::round(std::log2(v * scale)));
}

double seq_len(const std::string& label) {  // "512", "1k", "16k"
  std::size_t end = 0;
  const double v = std::stod(label, &end);
  return label.substr(end) == "k" ? v * 1024 : v;
}

std::string dtype_of(const json& kernel) {
  const std::string d = kernel.value("dtype", "");
  if (d.rfind("fp8", 0) == 0) return "fp8";
  if (d == "bf16" || d == "fp16") return d;
  throw Fail{"GEMM dtype '" + d + "' is not one the profile schema has"};
}

HardwareProfile build(const Recipe& rc, const std::map<std::string, json>& by_id, std::vector<std::string>& citations) {
  Sources sources;
  const Result<GpuSpec> gpu = find_gpu(rc.gpu);
  if (!gpu) throw Fail{gpu.error().text()};
  HardwareProfile p;

  // GEMM points at their shapes; a 16-bit point goes to both 16-bit tables (kSixteenBit).
  for (const char* id : rc.gemm) {
    const json& r = record(by_id, id, "kernel_gemm");
    const json& k = r.at("kernel");
    GemmPoint pt;
    if (k.contains("shape_MxNxK")) {
      std::istringstream s(k.at("shape_MxNxK").get<std::string>());
      char x1 = 0, x2 = 0;
      s >> pt.m >> x1 >> pt.n >> x2 >> pt.k;
      if (!s || x1 != 'x' || x2 != 'x') throw Fail{std::string("record '") + id + "': shape_MxNxK is not MxNxK"};
    } else {
      pt.m = number(k, "m", id), pt.n = number(k, "n", id), pt.k = number(k, "k", id);
    }
    pt.tflops = number(r.at("measured"), "tflops", id);
    const std::string d = dtype_of(k);
    const bool sixteen = d == "bf16" || d == "fp16";
    for (const char* twin : sixteen ? kSixteenBit : std::vector<const char*>{d.c_str()})
      p.gemm[twin].points.push_back(pt);
    cite(sources, r,
         "gemm." + (sixteen ? std::string("bf16/fp16") : d) + " " + std::to_string(int64_t(pt.m)) + "x" +
             std::to_string(int64_t(pt.n)) + "x" + std::to_string(int64_t(pt.k)));
  }

  // FlashAttention-2 fwd+bwd: the benchmark reports one rate for forward + backward (FLOPs 3.5 ×
  // forward); giving it to both directions reproduces the measured fwd+bwd time exactly, and
  // only the split between them (which matters for recomputing the forward) is assumed.
  for (const char* id : rc.attention) {
    const json& r = record(by_id, id, "kernel_attention");
    const json& k = r.at("kernel");
    if (k.value("direction", "") != "fwd+bwd")
      throw Fail{std::string("record '") + id + "': expected a fwd+bwd benchmark"};
    if (r.at("source").value("setup", "").find("hidden dim 2048") == std::string::npos)
      throw Fail{std::string("record '") + id + "': expected the FlashAttention benchmark setup (hidden dim 2048)"};
    const double head_dim = number(k, "head_dim", id), tokens = number(k, "total_tokens_per_batch", id);
    for (const auto& [label, tflops] : r.at("measured").at("tflops_by_seqlen").items()) {
      AttentionPoint pt;
      pt.seq_len = seq_len(label);
      pt.batch = std::max(1.0, tokens / pt.seq_len);
      pt.heads = pt.kv_heads = 2048 / head_dim;
      pt.head_dim = head_dim;
      pt.causal = k.at("causal").get<bool>();
      pt.fwd_tflops = pt.bwd_tflops = tflops.get<double>();
      for (const char* d : kSixteenBit) p.attention[d].points.push_back(pt);
    }
    cite(sources, r, "attention.bf16/fp16, fwd+bwd rate for both directions");
  }

  // Collectives: all-reduce by size on one 8-GPU node.
  const json& ar = record(by_id, rc.all_reduce, "kernel_nccl");
  CollectiveTable c{"all_reduce", 8, "intra_node", {}, {}};
  for (const auto& [label, gbps] : ar.at("measured").at("busbw_GBps_by_size").items())
    c.points.push_back(BandwidthPoint{payload_bytes(label), gbps.get<double>(), 0, 0, 0});
  p.collectives.push_back(c);
  cite(sources, ar, "collectives all_reduce 8 GPUs, and intra_node");

  // JSON objects iterate their keys in text order ("16k" before "1k"): write points by size.
  for (auto& [d, t] : p.attention)
    std::stable_sort(t.points.begin(), t.points.end(), [](const AttentionPoint& a, const AttentionPoint& b) {
      return std::tie(a.head_dim, a.causal, a.seq_len) < std::tie(b.head_dim, b.causal, b.seq_len);
    });
  for (CollectiveTable& t : p.collectives)
    std::sort(t.points.begin(), t.points.end(),
              [](const BandwidthPoint& a, const BandwidthPoint& b) { return a.bytes < b.bytes; });

  std::vector<std::string> notes;
  p = bench::finalize_profile(p, *gpu, {}, notes);
  for (const std::string& n : notes) std::cerr << rc.gpu << ": " << n << "\n";

  // A GEMM dtype with a single shape (H100 bf16: the maximum-achievable point only) has no fit
  // of its own: the datasheet fit (the fitted in-step fraction of the max achievable matmul
  // rate, or of 0.87 × spec; docs/formulas.md) stands, the point corrects it near its shape.
  const HardwareProfile sheet = datasheet_profile(*gpu);
  for (Dtype dt : {Dtype::fp32, Dtype::tf32, Dtype::bf16, Dtype::fp16, Dtype::fp8}) {
    const std::string d = to_string(dt);
    const auto it = p.gemm.find(d);
    if (it == p.gemm.end() || it->second.fit.peak > 0) continue;
    GemmTable& t = it->second;
    t.fit = sheet.gemm.at(d).fit;
    const bool mamf = gpu->mamf_tflops(dt) > 0;
    char share[96];
    std::snprintf(share, sizeof share, " TFLOP/s = %.2f x %s, 4 us)",
                  t.fit.peak / (mamf ? gpu->mamf_tflops(dt) : gpu->peak_tflops(dt)),
                  mamf ? "max achievable matmul" : "spec");
    citations.push_back("gemm." + d + ".fit: one measured shape only, so the datasheet fit (" +
                        std::to_string(int(t.fit.peak)) + share);
  }

  // HBM: the asymptotic copy and triad bandwidths of a STREAM-type run. Its array size is not in
  // the record, so no point is written: the fit is the published bandwidth and the launch cost.
  const json& hbm = record(by_id, rc.hbm, "kernel_hbm");
  for (const auto& [kernel, key] : {std::pair{"hbm_copy", "copy_TBps"}, {"hbm_triad", "triad_TBps"}}) {
    BandwidthTable t;
    t.fit = ThroughputFit{number(hbm.at("measured"), key, rc.hbm) * 1000,
                          sheet.memory_bound.at("hbm_copy").fit.overhead_us};
    p.memory_bound[kernel] = t;
  }
  cite(sources, hbm, "memory_bound hbm_copy, hbm_triad fits");

  // Ring all-gather and reduce-scatter (what sequence parallelism and ZeRO/FSDP run) from one
  // large payload: busbw from the record, latency from the all-reduce fit of the same node.
  if (*rc.ring_gather_scatter) {
    const json& ring = record(by_id, rc.ring_gather_scatter, "kernel_nccl");
    const double alpha = p.intra_node.alpha_s;
    for (const auto& [op, key] : {std::pair{"all_gather", "all_gather_ring_busbw_GBps"},
                                  {"reduce_scatter", "reduce_scatter_ring_busbw_GBps"}}) {
      const double bw = number(ring.at("measured"), key, rc.ring_gather_scatter);
      const double bytes = payload_bytes(ring.at("kernel").at("payload").get<std::string>());
      p.collectives.push_back(
          CollectiveTable{op, 8, "intra_node", AlphaBeta{alpha, bw}, {BandwidthPoint{bytes, bw, 0, 0, 0}}});
    }
    cite(sources, ring, "collectives all_gather, reduce_scatter 8 GPUs ring; alpha from the all_reduce fit");
  }

  p.source = "published";
  p.description = rc.description;
  p.compute_efficiency = rc.compute_efficiency;
  p.compute_efficiency_source = rc.compute_efficiency_citation;
  std::vector<std::string> lines = {rc.compute_efficiency_citation};
  for (const auto& [source, uses] : sources) {
    std::string line = source + " Records:";
    for (std::size_t i = 0; i < uses.size(); ++i) line += (i ? ", " : " ") + uses[i];
    lines.push_back(line);
  }
  lines.insert(lines.end(), citations.begin(), citations.end());  // the fits that are not measured
  lines.push_back(rc.inter_node_citation);
  citations = lines;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: llmc-published-profiles RECORDS.json OUT_DIR\n"
                 "  writes OUT_DIR/<gpu>.published.json for each GPU with published kernel records\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw Fail{std::string("cannot read ") + argv[1]};
    const json all = json::parse(in);
    std::map<std::string, json> by_id;
    for (const json& r : all) by_id[r.at("id").get<std::string>()] = r;
    for (const Recipe& rc : recipes()) {
      std::vector<std::string> citations;
      HardwareProfile p = build(rc, by_id, citations);
      p.citations = citations;
      // "from" names the records file whose ids the citations list (validation/public.json holds the
      // same records and tables in the strict format; its raw transcription is what this reads).
      p.metadata_json =
          json{{"assembled_by", "gpu/host/tools/published_profiles.cpp"}, {"from", "validation/public.json"}}.dump();
      const std::string text = profile_to_json(p);
      if (Result<HardwareProfile> back = profile_from_json(text); !back)
        throw Fail{std::string(rc.gpu) + ": " + back.error().text()};
      const std::string path = std::string(argv[2]) + "/" + rc.gpu + ".published.json";
      if (Status s = bench::write_file_atomic(path, text); !s) throw Fail{s.error().text()};
      std::cout << path << "\n";
    }
  } catch (const Fail& f) {
    std::cerr << "llmc-published-profiles: error: " << f.what << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "llmc-published-profiles: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
