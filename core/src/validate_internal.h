// Internal pieces of validate_records() (llmc/validate.h), one job per file:
//   validate_parse.cpp        record JSON → ParsedRecord (every field checked, errors name it)
//   validate_conventions.cpp  the FLOP conventions table and the source → convention rule
//   validate_records.cpp      ParsedRecord → Scenario with the published knobs + the knobs to search
//   validate_layout.cpp       the one rule for unpublished knobs: the fastest layout that fits
//   validate_kernels.cpp      kernel benchmark records (GEMM, HBM, NCCL, attention)
//   validate.cpp              the driver: compare, summarise, JSON
#pragma once
#include <map>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/json_util.h"
#include "llmc/estimate.h"
#include "llmc/validate.h"

namespace llmc::detail::validation {

// A record as read, before any modelling choice. Optional fields are unset when the key is
// missing or null; `*_null` says a key was present with null (for virtual stages the Narayanan
// records use null for "not used", which differs from "not published").
struct ParsedRecord {
  std::string id, kind, citation;
  std::string words;  // citation, source.setup and notes, lower case: what the record says of its framework
  // model
  std::string model_name, arch_notes;
  double params = 0;  // as printed by the source (0: not given)
  int64_t layers = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0, seq_len = 0;
  int64_t head_dim = 0;  // 0: hidden / heads
  // MoE (experts = 0: dense); expert_ffn 0: model.ffn is the expert's width (Mixtral's config)
  int64_t experts = 0, top_k = 0, expert_ffn = 0, shared_experts = 0, first_dense_layers = 0;
  // The name each field read under several names had in the record ("model.top_k" →
  // "model.num_experts_per_tok", "training.tp" → "training.tensor_model_parallel_size"), for errors.
  std::map<std::string, std::string> keys;
  std::string key_of(const std::string& ours) const {
    const auto it = keys.find(ours);
    return it == keys.end() ? ours : it->second;
  }
  std::string model_key(const std::string& ours) const { return key_of("model." + ours); }
  std::string training_key(const std::string& ours) const { return key_of("training." + ours); }
  bool given(const std::string& ours) const { return keys.count("model." + ours) > 0; }
  // training
  std::optional<int64_t> global_batch_seqs, micro_batch, batch_per_dp;
  std::optional<double> global_batch_tokens;
  std::string global_batch_text;  // a global batch given as text ("~1M (...)"): not a number
  std::string precision_text, optimizer_text, zero_text, recompute_text;
  std::optional<int> zero_stage;
  std::optional<int64_t> zero_shard_group;  // hybrid sharding: data-parallel ranks per shard group
  std::optional<int64_t> tp, pp, dp, cp, ep, etp;
  std::optional<bool> ep_overlap;            // the expert all-to-all hid behind another micro-batch's compute
  bool vp_present = false;            // a virtual-pipeline key present (maybe null: not interleaved)
  std::optional<int64_t> vp_layers;   // layers per virtual stage
  std::optional<int64_t> virtual_stages;  // key virtual_stages: model chunks per pipeline rank (NeMo's "VP")
  std::string schedule_text;  // the pipeline schedule in the source's words ("1F1B", "DualPipe")
  std::optional<bool> sequence_parallel;
  std::optional<int64_t> recompute_layers;   // with full recompute: layers recomputed per stage
  std::string recompute_modules;             // Megatron-core's --recompute-modules, comma-separated
  std::optional<bool> fused_elementwise;     // false: the source ran PyTorch eager element-wise ops
  std::optional<bool> fp8_params;            // FP8 parameters (Megatron's --fp8-param-gather)
  std::optional<bool> flash_attention;       // the record says whether attention was one fused kernel
  std::optional<bool> dp_overlap;            // the record says whether the DP gradient reduction hid behind backward
  std::string ddp_impl;                      // Megatron-LM's --DDP-impl (torch or local), which set dp_overlap
  std::optional<Dtype> grad_dtype;           // the dtype gradients are reduced in (FSDP2's reduce_dtype)
  std::optional<GradReduce> grad_reduce;     // when they are reduced: after every micro-batch or once per step
  std::optional<double> total_tokens;
  // hardware
  std::string gpu_text;
  std::optional<int64_t> gpu_count;
  // measured: the numeric entries, in file order (tables and text notes are not compared)
  std::vector<std::pair<std::string, double>> measured;
  std::vector<std::string> measured_text;  // keys of measured entries that are not numbers ("46%")

  const double* measured_value(const std::string& key) const {
    for (const auto& kv : measured)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
};

// A record field, strictly: absent or null leaves `out` as it was (not published); the wrong type,
// or a number outside [lo, hi], is an error naming `path.key`, what it must be and what was given.
Status get_string(const json& obj, const char* key, const std::string& path, std::string& out);
Status get_num(const json& obj, const char* key, const std::string& path, double lo, double hi, std::optional<double>& out);
Status get_bool(const json& obj, const char* key, const std::string& path, std::optional<bool>& out);

// id and kind only (enough to decide whether the record is a kernel record).
Result<std::pair<std::string, std::string>> parse_id_kind(const json& j);
// Everything; the error's field is the record path ("training.tp").
Result<ParsedRecord> parse_record(const json& j);

// The convention for this record's source, or nullptr (then the record is skipped).
const FlopConvention* convention_for(const ParsedRecord& r);
// The names a record may give the convention's metric: measured_key, then its aliases.
std::vector<std::string> measured_keys(const FlopConvention& c);
const FlopConvention& convention(const std::string& id);
// Whether the convention is one of any other source's (whose framework the record must tell).
bool any_source(const FlopConvention& c);

// The knobs a record does not publish, each with its candidate values (docs/validation.md).
struct KnobSpace {
  std::vector<int64_t> tp, pp, virtual_stages, micro_batch;
  std::vector<int> zero_stage;
  std::vector<Recompute> recompute;
  std::vector<bool> sequence_parallel;
  bool gbs_follows_micro_batch = false;  // global batch unpublished: one micro-batch per step
  std::optional<Schedule> schedule;      // published; else interleaved with virtual stages, 1F1B without
};

struct Mapped {
  Scenario base;                   // every published knob set; searched knobs at their first value
  KnobSpace space;                 // single-valued lists for published knobs
  std::vector<std::string> notes;  // assumptions, in words
};
Result<Mapped> map_record(const ParsedRecord& r, const FlopConvention& c);

// GPU id for a record's hardware.gpu text ("A100-SXM4-80GB (Selene...)" → a100-sxm-80gb), or "".
std::string gpu_id_for(const std::string& text);

struct LayoutChoice {
  Scenario scenario;
  Estimate estimate;
  int64_t candidates = 0;   // layouts tried
  bool searched = false;    // more than one candidate
  bool fits = true;
  int64_t printed_gbs = 0;  // nonzero: the printed global batch, which this layout rounds to whole micro-batches
};
// A layout's step time at the record's printed global batch when it runs another (rounded to
// whole micro-batches): the same time per sequence. printed_gbs 0: its own step time.
inline double step_at_printed_batch(const Estimate& e, int64_t printed_gbs) {
  return printed_gbs > 0 ? e.time.step_s * double(printed_gbs) / double(e.r.s.training.global_batch_seqs) : e.time.step_s;
}
// The fastest layout (smallest step time) that fits, over the unpublished knobs; if none fits,
// the one needing the least memory, with a note. Error: no candidate is a valid scenario (the first error).
Result<LayoutChoice> best_layout(const Mapped& m, int64_t max_candidates);

std::string layout_text(const Estimate& e);

// ASCII lower case: record words are matched case-insensitively.
std::string lower(std::string s);

// A number for a message or a note, printf-formatted ("%.10g": every digit a record can carry).
std::string number_text(double v, const char* format = "%.10g");

// The row's error: (predicted − measured) / measured; for a time metric (unit "s") that of
// throughput, measured / predicted − 1, so + means predicted faster for every row.
void finish_row(ValidationRow& row);

// A row for a record that cannot be modelled, naming the field and the reason.
ValidationRow skipped(const std::string& id, const std::string& kind, const Error& e);

// The profile a record on `gpu` is timed with, and how the row names it.
struct ProfilePick {
  std::optional<HardwareProfile> profile;  // none: the datasheet profile
  std::string label;
};
ProfilePick pick_profile(const std::string& gpu, const ValidateOptions& opt);

// A kernel benchmark record (kind kernel_*): the rate the profile gives the kernel it timed, run
// alone; a skipped row when it cannot be read. Adds the profile used to `profiles_used`.
std::vector<ValidationRow> kernel_rows(const json& j, const std::string& id, const std::string& kind, const ValidateOptions& opt,
                                       std::set<std::string>& profiles_used);

}  // namespace llmc::detail::validation
