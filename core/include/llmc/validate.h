// Validation against published runs: reads records in the format of validation/public.json
// (validation/README.md), models each one it can with estimate(), converts the predicted step
// time into the source's own throughput metric (its FLOP convention) and reports the error.
// Core does no I/O: the caller passes the file's text and the profiles to time with.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc {

// How a source counts the FLOPs behind its "TFLOP/s per GPU" (or other) figure. One row per
// source; the table lives in validate_conventions.cpp and is printed in docs/validation.md.
struct FlopConvention {
  std::string id;           // "megatron2021", "megatron_deepspeed", "korthikanti2022", "llama3", "flashattention2", "gpu_hours", "model_states"
  std::string source;       // who uses it
  std::string metric;       // what is compared, with its unit
  std::string measured_key; // the record's `measured` entry compared ("" for model_states: one per ZeRO stage)
  std::string unit;         // of the measured and predicted values
  std::string formula;      // how the source computes it, as written in the source
  std::string conversion;   // how llmcalc's prediction is put into the same metric
  bool in_throughput_mae = false;  // counts towards the throughput target
  bool flash_attention = true;     // the attention kernel the source's runs used
  // Whether the framework of the source's runs overlaps the data-parallel gradient reduction
  // with the backward pass (Megatron-LM's local DDP of 2021-22 did not: train_step reduced after it).
  bool dp_overlap = true;
  // Other names a record may give the measured entry (the convention-free metrics have several);
  // measured_key is tried first.
  std::vector<std::string> key_aliases = {};
  // Layers per interleaved pipeline chunk when the source's text gives it and its records do not
  // (0: unpublished, searched like any other knob), and where the text says so.
  int64_t layers_per_chunk = 0;
  std::string layers_per_chunk_source = {};
  // How the source's runs reduce gradients when its text says so and its records do not.
  std::optional<Dtype> grad_dtype = {};
  std::optional<GradReduce> grad_reduce = {};
  std::string grad_source = {};
};
const std::vector<FlopConvention>& flop_conventions();

// Megatron-LM's count for one step (Narayanan et al. 2021 eq. 3, with full recompute):
// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), B = global batch in sequences.
double megatron2021_flops_per_step(double B, double s, double l, double h, double V);
// FlashAttention-2 Table 1, per sequence: 6·s·N + 12·L·h·s² (attention not halved).
double flashattention2_flops_per_seq(double s, double N, double L, double h);

// One comparison: a record can give several (the ZeRO record: one per stage).
struct ValidationRow {
  std::string id;                 // record id
  std::string kind;               // record kind
  std::string status;             // "compared", "shown" (compared, not in any target), "skipped"
  std::string convention;         // FlopConvention::id ("" when skipped)
  std::string metric;             // e.g. "tflops_per_gpu"
  std::string unit;
  double measured = 0, predicted = 0;
  double error = 0;               // (predicted − measured) / measured; for a time metric the
                                  // error of throughput, measured / predicted − 1 (+ = faster)
  bool in_mae = false;            // part of the throughput MAE
  std::string gpu;                // llmcalc GPU id
  std::string profile;            // "published (site/profiles/...)", "datasheet", "file: ..."
  std::string layout;             // "tp8 pp4 v3 cp1 dp32 mb2 gbs1792 zero0 rec=full sp=0"
  double step_s = 0;              // llmcalc's predicted step time
  Scenario scenario;              // the resolved scenario that was estimated (empty when skipped)
  std::string skip_field;         // the field that made the record unmodellable
  std::string skip_reason;
  std::vector<std::string> notes; // every assumption made for this record
};

// Kernel benchmark records (kind "kernel_gemm", "kernel_nccl", ...): compared as kernels, apart
// from the training runs and their targets.
inline bool is_kernel_kind(const std::string& kind) { return kind.rfind("kernel_", 0) == 0; }

struct ValidationGroupSummary {
  int rows = 0;
  double mae = 0;                 // mean |error|
  double max_abs_error = 0;
  std::string worst;              // record id with the largest |error|
};

struct ValidationSummary {
  int records = 0, modelled = 0, skipped = 0;
  ValidationGroupSummary throughput;  // rows with in_mae
  ValidationGroupSummary memory;      // model-state rows
  ValidationGroupSummary shown;       // compared but outside every target (GPU-hours)
  ValidationGroupSummary kernels;     // kernel benchmark records (GEMM, HBM, NCCL, attention rates)
  // Targets from the issue: MAE ≤ 5% (stretch ≤ 3%), no record worse than 10%.
  double target_mae = 0.05, stretch_mae = 0.03, target_max = 0.10;
  bool meets_target = false, meets_stretch = false;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  ValidationSummary summary;
  std::vector<std::string> profiles_used;  // one line per profile: gpu, source, description
};

struct ValidateOptions {
  // Profiles to time with, by GPU. For a record on GPU g: `override_profile` if it is for g,
  // else the entry of `default_profiles` for g (the bundled published profiles), else the
  // datasheet profile. Each row says which.
  std::optional<HardwareProfile> override_profile;
  std::string override_label;               // e.g. "file: my.json"
  std::vector<HardwareProfile> default_profiles;
  std::string default_label = "published";  // how rows name a default profile
  std::string only_prefix;                  // only records whose id starts with this
  int64_t max_layouts = 20000;              // layouts tried per record at most (the fuzz target lowers it)
};

// Parse the file and validate every record. Errors only when the whole text is not JSON or not
// an array; a malformed record is a skipped row naming the field.
Result<ValidationReport> validate_records(const std::string& json_text, const ValidateOptions& opt);

// The report as JSON: {"rows": [...], "summary": {...}, "conventions": [...], "profiles": [...]}.
std::string validation_to_json(const ValidationReport& r);

}  // namespace llmc
