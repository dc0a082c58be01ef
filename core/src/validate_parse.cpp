// Record JSON → ParsedRecord. Every field is checked for type and range; the first bad one
// makes the record a skipped row whose field is the record path ("training.tp"). Missing and
// null mean "not published"; the modelling rules for those live in validate_records.cpp.
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "validate_internal.h"

namespace llmc::detail::validation {
namespace {

// A short rendering of a JSON value for error messages (never more than 60 bytes).
std::string shown(const json& v) {
  std::string s = safe_dump(v);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

bool absent(const json& obj, const char* key) { return !obj.contains(key) || obj.at(key).is_null(); }

// A section ("model", "training", ...): missing or null is an empty object.
Result<const json*> section(const json& rec, const char* key) {
  static const json kEmpty = json::object();
  if (absent(rec, key)) return &kEmpty;
  if (!rec.at(key).is_object()) return make_error(key, std::string("must be an object; got ") + rec.at(key).type_name());
  return &rec.at(key);
}

}  // namespace

Status get_string(const json& obj, const char* key, const std::string& path, std::string& out) {
  if (absent(obj, key)) return ok_status();
  const json& v = obj.at(key);
  if (!v.is_string()) return make_error(path + "." + key, std::string("must be text; got ") + v.type_name() + " " + shown(v));
  out = v.get<std::string>();
  if (out.size() > 4096) return make_error(path + "." + key, "must be at most 4096 bytes of text");
  return ok_status();
}

Status get_num(const json& obj, const char* key, const std::string& path, double lo, double hi, std::optional<double>& out) {
  if (absent(obj, key)) return ok_status();
  const json& v = obj.at(key);
  const std::string field = path + "." + key;
  if (!v.is_number()) return make_error(field, "must be a number in [" + number_text(lo) + ", " + number_text(hi) + "]; got " + shown(v));
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    return make_error(field, "must be a number in [" + number_text(lo) + ", " + number_text(hi) + "]; got " + shown(v));
  out = d;
  return ok_status();
}

Status get_bool(const json& obj, const char* key, const std::string& path, std::optional<bool>& out) {
  if (absent(obj, key)) return ok_status();
  const json& v = obj.at(key);
  if (!v.is_boolean()) return make_error(path + "." + key, "must be true or false; got " + shown(v));
  out = v.get<bool>();
  return ok_status();
}

namespace {

// A word naming one of `choices` by its to_string, in any case; `expected` lists them for the error.
template <class E>
Status get_choice(const json& obj, const char* key, const std::string& path, std::initializer_list<E> choices, const char* expected,
                  std::optional<E>& out) {
  if (absent(obj, key)) return ok_status();
  std::string given;
  if (auto st = get_string(obj, key, path, given); !st) return st;
  const std::string word = lower(given);
  for (E c : choices)
    if (word == to_string(c)) out = c;
  if (!out) return make_error(path + "." + key, std::string("must be ") + expected + "; got '" + given + "'");
  return ok_status();
}

Status get_int(const json& obj, const char* key, const std::string& path, double lo, double hi, std::optional<int64_t>& out) {
  std::optional<double> d;
  if (auto st = get_num(obj, key, path, lo, hi, d); !st) {
    return make_error(st.error().field, "must be an integer in [" + number_text(lo) + ", " + number_text(hi) + "]; got " + shown(obj.at(key)));
  }
  if (!d) return ok_status();
  if (*d != std::floor(*d))
    return make_error(path + "." + key, "must be an integer in [" + number_text(lo) + ", " + number_text(hi) + "]; got " + shown(obj.at(key)));
  out = static_cast<int64_t>(*d);
  return ok_status();
}

// A field a record may give under several names (llmcalc's first, then those of the frameworks
// whose configs sources copy: Hugging Face, Megatron-LM/NeMo, DeepSpeed): which of `keys` the
// object gives (null: none). A record giving one field under two names is refused rather than
// guessed at. The name used is kept in r.keys, so later errors name the field as the record
// wrote it.
Status named_key(const json& obj, const std::string& path, std::initializer_list<const char*> keys, ParsedRecord& r, const char*& found) {
  found = nullptr;
  for (const char* key : keys) {
    if (absent(obj, key)) continue;
    if (found) return make_error(path + "." + key, std::string("the same field as ") + path + "." + found + ": give one of them");
    found = key;
  }
  if (found) r.keys[path + "." + *keys.begin()] = path + "." + found;
  return ok_status();
}

// An integer field under several names (named_key).
Status get_named_int(const json& obj, const std::string& path, std::initializer_list<const char*> keys, double lo, double hi, ParsedRecord& r,
                     std::optional<int64_t>& out) {
  const char* found = nullptr;
  if (auto st = named_key(obj, path, keys, r, found); !st || !found) return st;
  return get_int(obj, found, path, lo, hi, out);
}

struct Named {
  std::initializer_list<const char*> keys;
  int64_t ParsedRecord::*dst;
  double lo, hi;
};

Status parse_model(const json& m, ParsedRecord& r) {
  const std::string p = "model";
  if (auto st = get_string(m, "name", p, r.model_name); !st) return st;
  if (auto st = get_string(m, "arch_notes", p, r.arch_notes); !st) return st;
  std::optional<double> params;
  if (auto st = get_num(m, "params", p, 0, 1e14, params); !st) return st;
  r.params = params.value_or(0);
  // The shape's integers. Some sources name a field in more than one way: llmcalc's name first,
  // then Hugging Face config.json's and Megatron's.
  const Named named[] = {
      {{"layers", "num_layers", "num_hidden_layers", "n_layers", "n_layer"}, &ParsedRecord::layers, 1, 10000},
      {{"hidden", "hidden_size", "d_model", "n_embd", "dim"}, &ParsedRecord::hidden, 1, 1e7},
      {{"heads", "num_attention_heads", "n_heads", "n_head"}, &ParsedRecord::heads, 1, 1e5},
      {{"kv_heads", "num_key_value_heads", "n_kv_heads", "num_query_groups"}, &ParsedRecord::kv_heads, 1, 1e5},
      {{"ffn", "intermediate_size", "ffn_hidden_size", "d_ff"}, &ParsedRecord::ffn, 1, 1e7},
      {{"vocab", "vocab_size", "padded_vocab_size"}, &ParsedRecord::vocab, 1, 1e7},
      {{"seq_len", "seq_length", "max_seq_len", "sequence_length"}, &ParsedRecord::seq_len, 1, 1e7},
      {{"experts", "num_experts", "n_routed_experts", "num_local_experts"}, &ParsedRecord::experts, 0, 1e5},
      {{"top_k", "experts_per_token", "num_experts_per_tok", "moe_router_topk"}, &ParsedRecord::top_k, 0, 1e5},
      {{"expert_ffn", "moe_ffn", "moe_intermediate_size", "moe_ffn_hidden_size"}, &ParsedRecord::expert_ffn, 1, 1e7},
      {{"shared_experts", "n_shared_experts", "num_shared_experts"}, &ParsedRecord::shared_experts, 0, 1e5},
      {{"first_dense_layers", "first_k_dense_replace"}, &ParsedRecord::first_dense_layers, 0, 1e4},
      {{"head_dim"}, &ParsedRecord::head_dim, 1, 1e5}};
  for (const Named& f : named) {
    std::optional<int64_t> v;
    if (auto st = get_named_int(m, p, f.keys, f.lo, f.hi, r, v); !st) return st;
    if (v) r.*f.dst = *v;
  }
  return ok_status();
}

Status parse_training(const json& t, ParsedRecord& r) {
  const std::string p = "training";
  // The layout's integers, under llmcalc's names or the frameworks' config keys (Megatron-LM and
  // NeMo: tensor_model_parallel_size, global_batch_size, ...; DeepSpeed: train_batch_size and
  // train_micro_batch_size_per_gpu). A global batch is in sequences under every one of them.
  struct Knob {
    std::initializer_list<const char*> keys;
    std::optional<int64_t> ParsedRecord::*dst;
    double lo, hi;
  };
  const Knob knobs[] = {
      {{"global_batch_seqs", "global_batch_size", "train_batch_size"}, &ParsedRecord::global_batch_seqs, 1, 1e9},
      {{"micro_batch", "micro_batch_size", "train_micro_batch_size_per_gpu"}, &ParsedRecord::micro_batch, 1, 1 << 20},
      {{"tp", "tensor_model_parallel_size", "tensor_parallel_size"}, &ParsedRecord::tp, 1, 1024},
      {{"pp", "pipeline_model_parallel_size", "pipeline_parallel_size"}, &ParsedRecord::pp, 1, 1024},
      {{"dp", "data_parallel_size"}, &ParsedRecord::dp, 1, 1e7},
      {{"cp", "context_parallel_size"}, &ParsedRecord::cp, 1, 1024},
      {{"ep", "expert_model_parallel_size", "expert_parallel_size"}, &ParsedRecord::ep, 1, 65536},
      {{"etp", "expert_tensor_parallel_size"}, &ParsedRecord::etp, 1, 1024},
      // Chunks per pipeline rank (NeMo's VP, Megatron-core's virtual_pipeline_model_parallel_size),
      // or layers per chunk (Megatron-LM's --num-layers-per-virtual-pipeline-stage).
      {{"virtual_stages", "virtual_pipeline_model_parallel_size"}, &ParsedRecord::virtual_stages, 1, 1024},
      {{"virtual_pipeline_layers_per_stage", "num_layers_per_virtual_pipeline_stage"}, &ParsedRecord::vp_layers, 1, 10000},
  };
  for (const Knob& k : knobs)
    if (auto st = get_named_int(t, p, k.keys, k.lo, k.hi, r, r.*k.dst); !st) return st;
  if (auto st = get_int(t, "batch_size_per_dp", p, 1, 1e9, r.batch_per_dp); !st) return st;
  // The global batch in tokens is a number, or text when the source gives it only in words.
  if (!absent(t, "global_batch_tokens") && t.at("global_batch_tokens").is_string()) {
    if (auto st = get_string(t, "global_batch_tokens", p, r.global_batch_text); !st) return st;
  } else if (auto st = get_num(t, "global_batch_tokens", p, 1, 1e12, r.global_batch_tokens); !st) {
    return make_error(st.error().field, st.error().message + " (or text)");
  }
  if (auto st = get_string(t, "precision", p, r.precision_text); !st) return st;
  if (auto st = get_string(t, "optimizer", p, r.optimizer_text); !st) return st;
  // Recompute: the source's words, or a boolean (true: every layer checkpointed, i.e. full).
  if (!absent(t, "recompute") && t.at("recompute").is_boolean()) r.recompute_text = t.at("recompute").get<bool>() ? "full" : "none";
  else if (auto st = get_string(t, "recompute", p, r.recompute_text); !st) return st;
  // Megatron-core's --recompute-modules: a list of names, or one comma-separated string.
  if (!absent(t, "recompute_modules") && t.at("recompute_modules").is_array()) {
    for (const json& v : t.at("recompute_modules")) {
      if (!v.is_string()) return make_error(p + ".recompute_modules", std::string("must be a list of module names (text); got ") + v.type_name() + " " + shown(v));
      r.recompute_modules += (r.recompute_modules.empty() ? "" : ",") + v.get<std::string>();
      if (r.recompute_modules.size() > 4096) return make_error(p + ".recompute_modules", "must be at most 4096 bytes of text");
    }
  } else if (auto st = get_string(t, "recompute_modules", p, r.recompute_modules); !st) {
    return make_error(st.error().field, st.error().message + " (or a list of them)");
  }
  // ZeRO stage: 0-3, or the source's words ("FSDP: ... (ZeRO-2-like)"), read in validate_records.
  if (!absent(t, "zero_stage")) {
    const json& z = t.at("zero_stage");
    if (z.is_string()) {
      if (auto st = get_string(t, "zero_stage", p, r.zero_text); !st) return st;
    } else {
      std::optional<int64_t> v;
      if (auto st = get_int(t, "zero_stage", p, 0, 3, v); !st) return make_error(st.error().field, st.error().message + " (or text)");
      r.zero_stage = static_cast<int>(*v);
    }
  }
  // The sequence length is the model's in llmcalc's format; a record may give it with the
  // training settings instead (under the same names), never as two different numbers.
  for (const char* key : {"seq_len", "seq_length", "max_seq_len", "sequence_length"}) {
    std::optional<int64_t> seq;
    if (auto st = get_int(t, key, p, 1, 1e7, seq); !st) return st;
    if (!seq) continue;
    if (r.seq_len && r.seq_len != *seq)
      return make_error(p + "." + key, "differs from " + r.model_key("seq_len") + " (" + number_text(double(r.seq_len)) + "); got " + number_text(double(*seq)));
    r.seq_len = *seq;
  }
  if (auto st = get_int(t, "zero_shard_group", p, 1, 1e7, r.zero_shard_group); !st) return st;
  if (auto st = get_bool(t, "ep_overlap", p, r.ep_overlap); !st) return st;
  const char* schedule_key = nullptr;
  if (auto st = named_key(t, p, {"schedule", "pipeline_schedule"}, r, schedule_key); !st) return st;
  if (schedule_key)
    if (auto st = get_string(t, schedule_key, p, r.schedule_text); !st) return st;
  // A virtual-pipeline key given as null says the run was not interleaved (Megatron's default).
  for (const char* key : {"virtual_stages", "virtual_pipeline_model_parallel_size", "virtual_pipeline_layers_per_stage", "num_layers_per_virtual_pipeline_stage"})
    r.vp_present = r.vp_present || t.contains(key);
  if (r.virtual_stages && r.vp_layers)
    return make_error(r.training_key("virtual_stages"), "give chunks per pipeline rank or layers per chunk (" + r.training_key("virtual_pipeline_layers_per_stage") + "), not both");
  if (auto st = get_bool(t, "sequence_parallel", p, r.sequence_parallel); !st) return st;
  if (auto st = get_bool(t, "fused_elementwise", p, r.fused_elementwise); !st) return st;
  if (auto st = get_bool(t, "fp8_params", p, r.fp8_params); !st) return st;
  if (auto st = get_bool(t, "flash_attention", p, r.flash_attention); !st) return st;
  if (auto st = get_bool(t, "dp_overlap", p, r.dp_overlap); !st) return st;
  // Megatron-LM's --DDP-impl, as public.json's Megatron-LM rows give it: torch is PyTorch's
  // DistributedDataParallel, whose bucketed all-reduce runs during the backward pass; local is
  // Megatron's own, which all-reduces once the backward pass is done.
  std::string ddp_impl;
  if (auto st = get_string(t, "ddp_impl", p, ddp_impl); !st) return st;
  if (!ddp_impl.empty()) {
    if (ddp_impl != "torch" && ddp_impl != "local")
      return make_error(p + ".ddp_impl", "must be torch (overlapped) or local (after the backward pass); got \"" + ddp_impl + "\"");
    const bool overlapped = ddp_impl == "torch";
    if (r.dp_overlap && *r.dp_overlap != overlapped)
      return make_error(p + ".ddp_impl", "\"" + ddp_impl + "\" contradicts " + p + ".dp_overlap (" + (*r.dp_overlap ? "true" : "false") + ")");
    r.dp_overlap = overlapped;
    r.ddp_impl = ddp_impl;
  }
  if (auto st = get_int(t, "recompute_layers", p, 1, 10000, r.recompute_layers); !st) return st;
  const char* tokens_key = nullptr;
  if (auto st = named_key(t, p, {"total_tokens", "tokens", "training_tokens", "train_tokens"}, r, tokens_key); !st) return st;
  if (tokens_key)
    if (auto st = get_num(t, tokens_key, p, 1, 1e16, r.total_tokens); !st) return st;
  if (auto st = get_choice(t, "grad_dtype", p, {Dtype::fp32, Dtype::bf16, Dtype::fp16}, "fp32, bf16 or fp16", r.grad_dtype); !st) return st;
  return get_choice(t, "grad_reduce", p, {GradReduce::micro_batch, GradReduce::step}, "micro_batch or step", r.grad_reduce);
}

}  // namespace

Result<std::pair<std::string, std::string>> parse_id_kind(const json& j) {
  if (!j.is_object()) return make_error("record", std::string("must be an object; got ") + j.type_name());
  std::string id, kind;
  if (auto st = get_string(j, "id", "record", id); !st) return make_error("id", st.error().message);
  if (id.empty() || id.size() > 200) return make_error("id", "must be non-empty text of at most 200 bytes");
  if (auto st = get_string(j, "kind", "record", kind); !st) return make_error("kind", st.error().message);
  if (kind.empty()) return make_error("kind", "missing: every record says what it measured");
  return std::make_pair(id, kind);
}

Result<ParsedRecord> parse_record(const json& j) {
  Result<std::pair<std::string, std::string>> ik = parse_id_kind(j);
  if (!ik) return ik.error();
  ParsedRecord r;
  r.id = ik->first;
  r.kind = ik->second;
  Result<const json*> src = section(j, "source");
  if (!src) return src.error();
  if (auto st = get_string(**src, "citation", "source", r.citation); !st) return st.error();
  // Free text, read only for words naming the framework (validate_records.cpp); other types are ignored.
  r.words = r.citation;
  auto add_words = [&](const json& o, const char* key) {
    if (o.contains(key) && o.at(key).is_string()) r.words += " " + o.at(key).get<std::string>();
  };
  add_words(**src, "setup");
  add_words(j, "notes");
  r.words = lower(r.words);  // matched case-insensitively
  Result<const json*> model = section(j, "model");
  if (!model) return model.error();
  if (auto st = parse_model(**model, r); !st) return st.error();
  Result<const json*> training = section(j, "training");
  if (!training) return training.error();
  if (auto st = parse_training(**training, r); !st) return st.error();
  Result<const json*> hw = section(j, "hardware");
  if (!hw) return hw.error();
  if (auto st = get_string(**hw, "gpu", "hardware", r.gpu_text); !st) return st.error();
  if (auto st = get_named_int(**hw, "hardware", {"gpu_count", "num_gpus", "gpus"}, 1, 1e7, r, r.gpu_count); !st) return st.error();
  Result<const json*> measured = section(j, "measured");
  if (!measured) return measured.error();
  for (auto it = (*measured)->begin(); it != (*measured)->end(); ++it)
    if (it.value().is_number()) r.measured.emplace_back(it.key(), it.value().get<double>());
    else if (it.value().is_string()) r.measured_text.push_back(it.key());
  return r;
}

std::string number_text(double v, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace llmc::detail::validation
