// ParsedRecord → Scenario. Published knobs are set as printed; every knob the source does not
// publish becomes a list of candidates for validate_layout.cpp (the one rule for all records:
// the fastest layout that fits). Each choice is written to the record's notes.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "estimate/estimate_parts.h"
#include "validate_internal.h"

namespace llmc::detail::validation {
namespace {

// A GPU count for records that do not publish one (Llama 2): 128 DGX nodes. The GPU-hours it
// predicts barely depend on it (per-GPU throughput changes only through the layout), and at this
// count a 1,024-sequence batch still gives every data-parallel replica a whole sequence.
constexpr int64_t kUnpublishedGpuCount = 1024;

bool has(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }

// Presets parsed once (immutable after the first call).
const std::vector<ModelPreset>& presets() {
  static const std::vector<ModelPreset> all = [] {
    std::vector<ModelPreset> v;
    for (const std::string& id : model_preset_ids()) {
      Result<ModelPreset> p = find_model_preset(id);
      if (p) {
        v.push_back(*p);
        v.back().id = id;
      }
    }
    return v;
  }();
  return all;
}

// A preset with exactly this shape, so the architecture details the record does not carry
// (biases, norms, tied embeddings, positions; MoE layout, latent attention) come from a
// documented preset. An MoE record's ffn may be the dense layers' width or an expert's.
const ModelPreset* preset_with_shape(const ParsedRecord& r) {
  for (const ModelPreset& p : presets()) {
    const ModelSpec m = resolved(p.model);
    const bool same_attention = m.layers == r.layers && m.hidden == r.hidden && m.heads == r.heads &&
                                m.kv_heads == (r.kv_heads ? r.kv_heads : r.heads) && m.vocab == r.vocab && (r.head_dim == 0 || m.head_dim == r.head_dim);
    if (!same_attention || m.experts != r.experts) continue;
    if (!m.is_moe() && m.ffn_hidden == r.ffn) return &p;
    if (m.is_moe() && m.top_k == r.top_k && (r.ffn == m.ffn_hidden || r.ffn == m.expert_ffn_hidden) &&
        (!r.given("expert_ffn") || r.expert_ffn == m.expert_ffn_hidden) && (!r.given("shared_experts") || r.shared_experts == m.shared_experts) &&
        (!r.given("first_dense_layers") || r.first_dense_layers == m.moe_first_dense))
      return &p;
  }
  return nullptr;
}

Status set(Scenario& s, const std::string& key, const std::string& value, const std::string& record_field) {
  Status st = set_field(s, key, value);
  if (!st) return make_error(record_field, st.error().text());
  return ok_status();
}

// The two layer designs a record's shape is read as when no preset has it: GPT's (a two-matrix
// GeLU or ReLU MLP, LayerNorm, learned positions, biases, tied embeddings, dropout) and Llama's
// (a gated three-matrix MLP, RMSNorm, rotary, no biases, untied, no dropout). Within a design,
// families differ in details that move the parameter count by well under 1 % (ALiBi or rotary
// for learned positions, a bias or not); the MLP's matrix count is what decides FLOPs.
enum class Design { gpt, llama, gemma };
struct ArchStyle {
  Design design;
  std::string why;  // the note
};

void apply_style(const ArchStyle& a, ModelSpec& m) {
  const bool gpt = a.design == Design::gpt;
  m.mlp = gpt ? MlpKind::gelu : a.design == Design::gemma ? MlpKind::geglu : MlpKind::swiglu;
  m.norm = gpt ? NormKind::layernorm : NormKind::rmsnorm;
  m.position = gpt ? PositionKind::learned : PositionKind::rotary;
  m.attn_bias = m.attn_out_bias = m.mlp_bias = gpt;
  m.tied_embeddings = gpt || a.design == Design::gemma;
  m.dropout = gpt;  // GPT-2/3 and Megatron-LM's GPT default to 0.1; Llama trains without
}

void set_shape(const ParsedRecord& r, ModelSpec& m) {
  m.layers = r.layers;
  m.hidden = r.hidden;
  m.heads = r.heads;
  m.kv_heads = r.kv_heads ? r.kv_heads : r.heads;
  m.head_dim = r.head_dim;  // 0: hidden / heads
  m.ffn_hidden = r.ffn;
  m.vocab = r.vocab;
}

// Where `word` first appears in `text` as a whole word, with no letter on either side
// ("opt-175b" and "mpt7b" match; "optimizer" and "adopt" do not); npos if nowhere.
size_t named_at(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !std::isalpha(static_cast<unsigned char>(text[at - 1]));
    const size_t end = at + word.size();
    const bool right = end == text.size() || !std::isalpha(static_cast<unsigned char>(text[end]));
    if (left && right) return at;
  }
  return std::string::npos;
}

// The design a record's model is, from the family its name or notes give (public model cards:
// GPT-2/3, GPT-J and GPT-NeoX/Pythia, OPT, BLOOM, Falcon, MPT, StarCoder, CodeGen, Galactica,
// Megatron-Turing NLG and Gopher/Chinchilla use a two-matrix MLP; Llama, Mistral/Mixtral, Qwen,
// DeepSeek, InternLM, Baichuan, OLMo, Yi and Granite SwiGLU; Gemma GeGLU), else from the printed
// size: the one design whose count of the shape is within 3 % of it (a printed size is rounded
// to two or three digits; the two designs' counts differ by about a third).
Result<ArchStyle> arch_style(const ParsedRecord& r, const Scenario& base) {
  const std::string words = lower(r.model_name + " " + r.arch_notes);
  // whole: matched as a whole word only (short names inside other words: "opt" in "optimizer").
  struct Family { const char* word; Design design; bool whole; };
  static const Family families[] = {
      {"swiglu", Design::llama, false}, {"geglu", Design::gemma, false}, {"gelu", Design::gpt, true}, {"relu", Design::gpt, true},
      {"gpt", Design::gpt, false}, {"opt", Design::gpt, true}, {"bloom", Design::gpt, false}, {"pythia", Design::gpt, false},
      {"falcon", Design::gpt, false}, {"mpt", Design::gpt, true}, {"starcoder", Design::gpt, false}, {"codegen", Design::gpt, false},
      {"galactica", Design::gpt, false}, {"megatron", Design::gpt, false}, {"mt-nlg", Design::gpt, false}, {"gopher", Design::gpt, false},
      {"chinchilla", Design::gpt, false},
      {"llama", Design::llama, false}, {"mistral", Design::llama, false}, {"mixtral", Design::llama, false}, {"qwen", Design::llama, false},
      {"deepseek", Design::llama, false}, {"internlm", Design::llama, false}, {"baichuan", Design::llama, false}, {"olmo", Design::llama, true},
      {"yi", Design::llama, true}, {"granite", Design::llama, false},
      {"gemma", Design::gemma, false}};
  static const char* const kDesignText[] = {"GPT-style architecture (GeLU MLP, LayerNorm, learned positions, biases, tied embeddings, dropout as GPT-2/3)",
                                            "Llama-style architecture (SwiGLU, RMSNorm, rotary, no biases, untied, no dropout)",
                                            "Gemma-style architecture (GeGLU, RMSNorm, rotary, no biases, tied embeddings, no dropout)"};
  // The family named first wins ("Llama 2 (GPT-style decoder)" is Llama).
  const Family* first = nullptr;
  size_t first_at = std::string::npos;
  for (const Family& f : families) {
    const size_t at = f.whole ? named_at(words, f.word) : words.find(f.word);
    if (at < first_at) first = &f, first_at = at;
  }
  if (first) return ArchStyle{first->design, std::string(kDesignText[int(first->design)]) + ": '" + first->word + "' named in the record"};
  if (r.params > 0) {
    std::vector<std::pair<Design, double>> fits;
    for (Design d : {Design::gpt, Design::llama}) {
      Scenario s = base;
      s.model = ModelSpec{};
      apply_style(ArchStyle{d, ""}, s.model);
      set_shape(r, s.model);
      s.model.seq_len = r.seq_len;
      if (s.model.position == PositionKind::learned) s.model.max_positions = r.seq_len;
      Result<Resolved> res = resolve(s);
      if (!res) continue;
      const double n = detail::count_params(*res, nullptr).total;
      if (std::fabs(n / r.params - 1) <= 0.03) fits.emplace_back(d, n);
    }
    if (fits.size() == 1)
      return ArchStyle{fits[0].first, std::string(kDesignText[int(fits[0].first)]) + ": the one design whose count of the shape (" +
                                          number_text(fits[0].second / 1e9, "%.4g") + "B) is within 3 % of the printed size (" +
                                          number_text(r.params / 1e9, "%.4g") + "B)"};
  }
  return make_error("model.arch_notes", "architecture unknown: no preset has this shape, neither model.name nor model.arch_notes names a model "
                                        "family or MLP (GPT, OPT, BLOOM, Falcon, MPT, Llama, Mistral, Qwen, Gemma, SwiGLU, GeLU, ...), and " +
                                            std::string(r.params > 0 ? "the printed size does not single out a two- or three-matrix MLP"
                                                                     : "no printed size (model.params) to tell a two- from a three-matrix MLP"));
}

Status map_model(const ParsedRecord& r, Scenario& s, std::vector<std::string>& notes) {
  if (r.layers == 0) return make_error("model.layers", "missing: a throughput prediction needs the model shape (layers, hidden, heads, vocab)");
  if (r.hidden == 0 || r.heads == 0 || r.vocab == 0)
    return make_error(r.hidden == 0 ? "model.hidden" : r.heads == 0 ? "model.heads" : "model.vocab", "missing: needed with model.layers");
  if (r.seq_len == 0) return make_error("model.seq_len", "missing: the sequence length of the run is needed");
  if (r.experts == 0 && (r.top_k || r.expert_ffn || r.shared_experts || r.first_dense_layers))
    return make_error(r.model_key("experts"), std::string(r.given("experts") ? "is 0" : "missing") +
                                                  ": the record gives MoE fields (experts per token, expert width, shared or dense layers) but no experts");
  if (r.experts > 0 && (r.top_k < 1 || r.top_k > r.experts))
    return make_error(r.model_key("top_k"), "must be in [1, " + number_text(double(r.experts)) + "] (the experts each token is routed to) for an MoE record; got " +
                                                (r.given("top_k") ? number_text(double(r.top_k)) : std::string("nothing")));
  if (r.experts > 0 && r.first_dense_layers >= r.layers)
    return make_error(r.model_key("first_dense_layers"), "must be less than model.layers (" + number_text(double(r.layers)) + "); got " + number_text(double(r.first_dense_layers)));
  if (const ModelPreset* p = preset_with_shape(r)) {
    s.model = p->model;
    notes.push_back("architecture (biases, norms, positions, embeddings tying" + std::string(r.experts ? ", experts, attention" : "") +
                    ") from preset " + p->id + " (same shape)");
  } else {
    if (r.head_dim == 0 && r.hidden % r.heads != 0)
      return make_error("model.hidden", "must be divisible by model.heads (" + number_text(double(r.heads)) + ") unless model.head_dim is given; got " + number_text(double(r.hidden)));
    Result<ArchStyle> style = arch_style(r, s);
    if (!style) return style.error();
    s.model = ModelSpec{};
    apply_style(*style, s.model);
    set_shape(r, s.model);
    notes.push_back(style->why);
    if (r.experts > 0) {
      s.model.experts = r.experts;
      s.model.top_k = r.top_k;
      s.model.expert_ffn_hidden = r.expert_ffn ? r.expert_ffn : r.ffn;
      s.model.shared_experts = r.shared_experts;
      s.model.moe_first_dense = r.first_dense_layers;
      s.model.moe_every = 1;
      notes.push_back("MoE from the record: " + number_text(double(r.experts)) + " experts, " + number_text(double(r.top_k)) + " per token, expert width " +
                      number_text(double(s.model.expert_ffn_hidden)) + (r.expert_ffn ? "" : " (model.ffn: no expert width given, Mixtral's convention)") + ", " +
                      number_text(double(r.shared_experts)) + " shared, " + number_text(double(r.first_dense_layers)) + " leading dense layers, MoE in every layer after them");
    }
  }
  s.model.name = r.model_name.empty() ? r.id : r.model_name;
  s.model.seq_len = r.seq_len;
  s.model.params_override = 0;  // count from the shape; the printed size is rounded
  if (s.model.position == PositionKind::learned && s.model.max_positions < r.seq_len) s.model.max_positions = r.seq_len;
  return ok_status();
}

Result<Precision> precision_of(const ParsedRecord& r) {
  const std::string t = lower(r.precision_text);
  if (t.empty()) return make_error("training.precision", "missing: the compute dtype decides the peak");
  // The first dtype named is the compute one ("fp16 mixed + fp32 Adam"), under its short or its
  // PyTorch name ("bfloat16" starts before the "float16" inside it, so it wins).
  struct { const char* word; Precision p; } words[] = {
      {"fp16", Precision::fp16_mixed}, {"float16", Precision::fp16_mixed}, {"half", Precision::fp16_mixed},
      {"bf16", Precision::bf16_mixed}, {"bfloat16", Precision::bf16_mixed}, {"fp8", Precision::fp8_mixed},
      {"fp32", Precision::fp32},       {"float32", Precision::fp32},        {"tf32", Precision::fp32}};
  size_t best = std::string::npos;
  Precision out = Precision::bf16_mixed;
  for (const auto& w : words) {
    const size_t at = t.find(w.word);
    if (at != std::string::npos && (best == std::string::npos || at < best)) best = at, out = w.p;
  }
  if (best == std::string::npos)
    return make_error("training.precision", "names no dtype (fp16/float16/half, bf16/bfloat16, fp8, fp32/float32/tf32); got '" + r.precision_text + "'");
  return out;
}

Result<Optimizer> optimizer_of(const ParsedRecord& r, std::vector<std::string>& notes) {
  const std::string t = lower(r.optimizer_text);
  if (t.empty()) {
    notes.push_back("optimizer not given: AdamW (memory only)");
    return Optimizer::adamw;
  }
  if (has(t, "8bit") || has(t, "8-bit")) return Optimizer::adam8bit;
  if (has(t, "adam")) return Optimizer::adamw;  // Adam and AdamW keep the same two fp32 states
  if (has(t, "adafactor")) return Optimizer::adafactor;
  if (has(t, "lion")) return Optimizer::lion;
  if (has(t, "sgd")) return Optimizer::sgd_momentum;
  return make_error("training.optimizer", "unknown optimizer '" + r.optimizer_text + "'");
}

// "FSDP: optimizer state + grads sharded ... (ZeRO-2-like)" → 2; plain "FSDP" → 3; Megatron's
// "distributed optimizer" (optimizer states and master weights sharded over DP) → 1; plain data
// parallelism ("DDP", "none") → 0. Hybrid sharding ("HSDP", "hybrid shard") → 3 (2 for
// HYBRID_SHARD_ZERO2) with *hybrid set: the caller gives it its shard group.
Result<std::optional<int>> zero_of(const ParsedRecord& r, std::vector<std::string>& notes, bool* hybrid) {
  *hybrid = false;
  if (r.zero_stage) return std::optional<int>(*r.zero_stage);
  if (r.zero_text.empty()) return std::optional<int>();
  const std::string t = lower(r.zero_text);
  auto read = [&](int z, const char* what) {
    notes.push_back("ZeRO stage " + std::to_string(z) + what + " read from '" + r.zero_text + "'");
    return std::optional<int>(z);
  };
  if (has(t, "hsdp") || has(t, "hybrid shard") || has(t, "hybrid_shard")) {
    *hybrid = true;
    return has(t, "zero2") || has(t, "zero-2") ? read(2, " (hybrid shard, ZeRO-2 inside each group)") : read(3, " (hybrid shard: FSDP inside each group)");
  }
  if (t.size() == 1 && t[0] >= '0' && t[0] <= '3') return read(t[0] - '0', "");
  for (int z = 0; z <= 3; ++z)
    if (has(t, ("zero-" + std::to_string(z)).c_str()) || has(t, ("zero" + std::to_string(z)).c_str()) ||
        has(t, ("zero stage " + std::to_string(z)).c_str()))
      return read(z, "");
  if (has(t, "fsdp")) return read(3, " (FSDP full shard)");
  if (has(t, "distributed optimizer")) return read(1, " (Megatron's distributed optimizer: optimizer states sharded)");
  if (t == "none" || t == "no" || t == "off" || has(t, "ddp")) return read(0, " (plain data parallelism)");
  return make_error("training.zero_stage",
                    "names no ZeRO stage (0-3, 'ZeRO-N', 'FSDP', 'distributed optimizer', 'DDP' or 'none'); got '" + r.zero_text + "'");
}

// The selective recompute modules (Megatron-core's --recompute-modules) a source names in words,
// comma-separated as training.recompute_modules takes them: DeepSeek-V3's "RMSNorm and MLA
// up-projections", "SwiGLU" (the experts' activation), "core attention".
std::string recompute_modules_in(const std::string& lowered) {
  std::string out;
  auto add = [&](const char* module) { out += (out.empty() ? "" : ",") + std::string(module); };
  const std::string& t = lowered;
  if (has(t, "core_attn") || has(t, "core attention") || has(t, "attention core")) add("core_attn");
  if (has(t, "norm")) add("layernorm");  // RMSNorm, LayerNorm, norms
  if (has(t, "up-proj") || has(t, "up_proj") || has(t, "up proj")) add("mla_up_proj");
  if (has(t, "moe_act") || has(t, "moe act") || has(t, "swiglu")) add("moe_act");
  return out;
}

// The source's words: "full…", "selective…" (Megatron's selective recompute, or torchtitan's
// per-op policy when the next word is "op"), "none…"/"no …"/"without…", selective recompute's
// modules named alone, or checkpointing named without a granularity, which checkpoints every
// layer's input: full recompute in Megatron's terms.
Result<std::optional<Recompute>> recompute_of(const ParsedRecord& r) {
  const std::string t = lower(r.recompute_text);
  if (t.empty()) return std::optional<Recompute>();
  if (t.rfind("full", 0) == 0) return std::optional<Recompute>(Recompute::full);
  for (const char* off : {"none", "no ", "off", "without", "disabled"})
    if (t.rfind(off, 0) == 0) return std::optional<Recompute>(Recompute::none);
  if (t == "no" || t == "false") return std::optional<Recompute>(Recompute::none);
  if (const size_t sel = t.find("selective"); sel != std::string::npos) {
    // torchtitan's "selective op" ("selective_op", "selective-op", "selective (op)") is a per-op
    // policy, not Megatron's selective recompute: the word after "selective" decides.
    size_t at = sel + 9;
    while (at < t.size() && !std::isalnum(static_cast<unsigned char>(t[at]))) ++at;
    const bool op = t.compare(at, 2, "op") == 0 && (at + 2 == t.size() || !std::isalnum(static_cast<unsigned char>(t[at + 2])));
    return std::optional<Recompute>(op ? Recompute::selective_op : Recompute::selective);
  }
  if (!recompute_modules_in(t).empty()) return std::optional<Recompute>(Recompute::selective);
  if (has(t, "checkpoint") || t == "yes" || t == "true" || t == "on" || t == "enabled") return std::optional<Recompute>(Recompute::full);
  return make_error("training.recompute",
                    "names no recompute mode (full, selective, selective op, none, (activation/gradient) checkpointing, yes or no) "
                    "nor a selective recompute module (core attention, norms, MLA up-projections, SwiGLU); got '" +
                        r.recompute_text + "'");
}

// The pipeline schedule a record names, in its field (training.schedule) or, for DualPipe, in
// its words. DualPipe (DeepSeek-V3 §3.2.1) is a bidirectional zero-bubble schedule that hides
// the expert all-to-all behind another micro-batch's compute: llmcalc's zero_bubble with the
// all-to-all overlapped. Nothing named: unset (interleaved with virtual stages, 1F1B without).
struct ScheduleRead {
  std::optional<Schedule> schedule;
  bool dualpipe = false;
};
Result<ScheduleRead> schedule_of(const ParsedRecord& r) {
  const std::string t = lower(r.schedule_text);
  const std::string field = r.training_key("schedule");
  if (t.empty()) {
    if (has(r.words, "dualpipe")) return ScheduleRead{Schedule::zero_bubble, true};
    return ScheduleRead{};
  }
  if (has(t, "dualpipe")) return ScheduleRead{Schedule::zero_bubble, true};
  if (has(t, "zero bubble") || has(t, "zero-bubble") || has(t, "zero_bubble") || has(t, "zb-") || t == "zb") return ScheduleRead{Schedule::zero_bubble};
  if (has(t, "interleav") || has(t, "virtual")) return ScheduleRead{Schedule::interleaved};
  if (has(t, "1f1b") || has(t, "pipedream-flush") || has(t, "one forward one backward")) return ScheduleRead{Schedule::one_f_one_b};
  if (has(t, "gpipe") || has(t, "afab") || has(t, "all forward") || has(t, "all-forward")) return ScheduleRead{Schedule::afab};
  return make_error(field, "names no pipeline schedule (GPipe/AFAB, 1F1B, interleaved, zero bubble, DualPipe); got '" + r.schedule_text + "'");
}

// Whether the text says torch.compile was on: "compile" named, not as "no/without (torch.)compile".
bool compiled(std::string words) {
  for (const char* off : {"without torch.compile", "no torch.compile", "without compile", "no compile"}) {
    for (size_t at = words.find(off); at != std::string::npos; at = words.find(off)) words.erase(at, std::string(off).size());
  }
  return has(words, "compile");
}

// The first year a citation names: a four-digit number in 2015-2035 standing alone, so that an
// arXiv number ("2205.01068") or a part of a longer number is not read as one.
std::optional<int> year_of(const std::string& citation) {
  for (size_t i = 0; i + 4 <= citation.size(); ++i) {
    if (i > 0 && std::isalnum(static_cast<unsigned char>(citation[i - 1]))) continue;
    size_t n = 0;
    while (i + n < citation.size() && std::isdigit(static_cast<unsigned char>(citation[i + n]))) ++n;
    const size_t end = i + n;
    const bool arxiv_number = end + 1 < citation.size() && citation[end] == '.' && std::isdigit(static_cast<unsigned char>(citation[end + 1]));
    // "2022a" (a second paper of the year) is a year; "2022ab" or "2022x1" is not.
    auto alnum_at = [&](size_t at) { return at < citation.size() && std::isalnum(static_cast<unsigned char>(citation[at])); };
    const bool suffix_ok = !alnum_at(end) || (std::islower(static_cast<unsigned char>(citation[end])) && !alnum_at(end + 1));
    if (n != 4 || arxiv_number || !suffix_ok) {
      i += n;
      continue;
    }
    const int y = std::stoi(citation.substr(i, 4));
    if (y >= 2015 && y <= 2035) return y;
    i += n;
  }
  return std::nullopt;
}
constexpr int kLastUnfusedYear = 2022;

std::vector<int64_t> divisors(int64_t v, int64_t cap) {
  std::vector<int64_t> out;
  for (int64_t d = 1; d <= v && d <= cap; ++d)
    if (v % d == 0) out.push_back(d);
  return out;
}

}  // namespace

// Ordered: the first row whose words all appear (and none of whose exclusions do) wins.
std::string gpu_id_for(const std::string& text) {
  // "40 GB" is written "40gb" first, so one word matches "40GB", "40G" and "40 GB" (a bare "40"
  // could be a TDP, "400W", or a count, "40 GPUs").
  // Punctuation is a space ("H100-NVL" is "h100 nvl "), so a name ends where a word does: "nvl "
  // is not the start of "NVLink".
  std::string t = lower(text) + " ";
  for (char& c : t)
    if (std::string_view("-_(),;/").find(c) != std::string_view::npos) c = ' ';
  for (size_t at = t.find(" gb"); at != std::string::npos; at = t.find(" gb", at)) t.erase(at, 1);
  struct Row { std::vector<const char*> all, none; const char* id; };
  static const Row rows[] = {
      {{"a100", "pcie", "40g"}, {}, "a100-pcie-40gb"}, {{"a100", "pcie"}, {}, "a100-pcie-80gb"},
      {{"a100", "40g"}, {"80"}, "a100-sxm-40gb"},    {{"a100"}, {}, "a100-sxm-80gb"},  // SXM4 80GB: DGX/HGX, the common one
      {{"a800"}, {"pcie"}, "a800-sxm-80gb"},
      {{"v100", "16g"}, {"pcie", "32"}, "v100-sxm2-16gb"}, {{"v100"}, {"pcie"}, "v100-sxm2-32gb"},  // 32GB: DGX-2's, the common one
      {{"h100", "pcie"}, {}, "h100-pcie"},            {{"h100", "nvl "}, {}, "h100-nvl"},
      {{"h100"}, {}, "h100-sxm"},                     {{"h200"}, {}, "h200"},
      {{"h800"}, {}, "h800"},
      {{"gb200"}, {}, "gb200"},                       {{"b200"}, {}, "b200"},
      {{"mi300x"}, {}, "mi300x"},                     {{"mi325x"}, {}, "mi325x"},
      {{"mi250x"}, {}, "mi250x"},  // one GCD per GPU, as ROCm counts them
      {{"l40s"}, {}, "l40s"},                         {{"4090"}, {}, "rtx4090"},
  };
  // A text naming two GPUs ("H200 (... same NVLink as H100 SXM)") is about the one it names
  // first; among rows of the same GPU, the first (most specific) that matches.
  const char* best = "";
  size_t best_at = std::string::npos;
  for (const Row& r : rows) {
    bool ok = true;
    for (const char* w : r.all) ok = ok && has(t, w);
    for (const char* w : r.none) ok = ok && !has(t, w);
    if (ok && t.find(r.all.front()) < best_at) best = r.id, best_at = t.find(r.all.front());
  }
  return best;
}

Result<Mapped> map_record(const ParsedRecord& r, const FlopConvention& c) {
  Mapped out;
  Scenario& s = out.base;
  s = default_scenario();
  std::vector<std::string>& notes = out.notes;

  // Hardware.
  const std::string gpu = gpu_id_for(r.gpu_text);
  if (gpu.empty()) return make_error("hardware.gpu", "no llmcalc GPU matches '" + r.gpu_text + "'");
  if (auto st = set(s, "hardware.gpu", gpu, "hardware.gpu"); !st) return st.error();
  notes.push_back("GPU '" + r.gpu_text + "' → " + gpu);

  if (auto st = map_model(r, s, notes); !st) return st.error();
  TrainingSpec& t = s.training;
  ParallelSpec& p = s.parallel;

  Result<Precision> prec = precision_of(r);
  if (!prec) return prec.error();
  t.precision = *prec;
  Result<Optimizer> opt = optimizer_of(r, notes);
  if (!opt) return opt.error();
  t.optimizer = *opt;
  // The convention knows its source's framework; a record that says otherwise (a run of another
  // framework or era under a convention-free metric) is taken at its word.
  // A GPU that runs no fused attention kernel (V100) runs the unfused one, whatever the era.
  const bool fused_exists = s.hardware.gpu.has_fused_attention();
  // A source of another framework, of 2022 or before, ran attention unfused: FlashAttention
  // appeared in mid-2022 and became the frameworks' default in 2023 (PyTorch 2.0's SDPA, March;
  // Megatron-LM's --use-flash-attn and NeMo that year). OPT, BLOOM, GPT-NeoX-20B and MT-NLG
  // (2021-22) ran without it.
  const int year = any_source(c) ? year_of(r.citation).value_or(0) : 0;  // 0: no year read
  const bool before_fused = year > 0 && year <= kLastUnfusedYear;
  t.flash_attention = r.flash_attention.value_or(c.flash_attention && fused_exists && !before_fused);
  if (r.flash_attention)
    notes.push_back(std::string(t.flash_attention ? "fused (flash) attention" : "no fused attention: softmax and the two batched GEMMs as "
                                                                               "separate kernels") + ", as the record says");
  else if (!c.flash_attention)
    notes.push_back("no fused attention: " + c.source + " predates FlashAttention");
  else if (before_fused && fused_exists)
    notes.push_back("no fused attention: the source is of " + std::to_string(year) + ", before frameworks ran FlashAttention by default (2023)");
  else if (!fused_exists)
    notes.push_back("no fused attention: FlashAttention and cuDNN's fused attention need an Ampere or newer GPU, which " + s.hardware.gpu.name +
                    " is not");
  p.dp_overlap = r.dp_overlap.value_or(c.dp_overlap);
  if (r.dp_overlap)
    notes.push_back(std::string(p.dp_overlap ? "data-parallel gradient reduction overlapped with the backward pass"
                                             : "data-parallel gradient reduction after the backward pass, not overlapped") +
                    (r.ddp_impl.empty() ? ", as the record says"
                                        : r.ddp_impl == "torch" ? ": DDP-impl torch, PyTorch's DistributedDataParallel (bucketed all-reduce during backward), as the record says"
                                                                : ": DDP-impl local, Megatron-LM's own (all-reduce once forward_backward_func returns), as the record says"));
  else if (!c.dp_overlap)
    notes.push_back("data-parallel gradient all-reduce after the backward pass, not overlapped: Megatron-LM's train_step of the time "
                    "(DDP-impl local) reduces once forward_backward_func returns");
  if (r.grad_dtype) {
    t.grad_dtype = *r.grad_dtype;
    notes.push_back(std::string("gradients reduced in ") + to_string(*r.grad_dtype) + ", as the record says");
  } else if (c.grad_dtype) {
    t.grad_dtype = *c.grad_dtype;
  }
  if (r.grad_reduce) {
    t.grad_reduce = *r.grad_reduce;
    notes.push_back(*r.grad_reduce == GradReduce::step ? "gradients accumulated whole over the micro-batches and reduced once per step, as the record says"
                                                       : "gradients reduced after every micro-batch, as the record says");
  } else if (c.grad_reduce) {
    t.grad_reduce = *c.grad_reduce;
  }
  if ((c.grad_dtype && !r.grad_dtype) || (c.grad_reduce && !r.grad_reduce))
    notes.push_back("gradients, from the source's text: " + c.grad_source);
  t.seq_len = r.seq_len;
  if (r.total_tokens) t.tokens = *r.total_tokens;
  // GPU-hours and days are for the whole run: its token count is not guessed.
  const bool whole_run = c.id == "gpu_hours" || c.id == "training_days";
  if (whole_run && !r.total_tokens)
    return make_error(r.training_key("total_tokens"), "needed to predict " + c.measured_key + " (the whole run's training tokens); not given");

  KnobSpace& k = out.space;
  bool hybrid = false;
  Result<std::optional<int>> zero = zero_of(r, notes, &hybrid);
  if (!zero) return zero.error();
  if (*zero) k.zero_stage = {**zero};
  else k.zero_stage = {0, 1, 2, 3}, notes.push_back("ZeRO stage not published: searched 0-3");
  // Hybrid sharding's group: as the record says, else one node (PyTorch FSDP's HYBRID_SHARD
  // shards within a node and replicates across nodes unless given process groups).
  if (r.zero_shard_group && !(*zero && **zero >= 1))
    return make_error("training.zero_shard_group", "needs a sharded data-parallel stage (ZeRO 1-3, FSDP or HSDP); got zero_stage '" +
                                                        (r.zero_stage ? std::to_string(*r.zero_stage) : r.zero_text) + "'");
  if (r.zero_shard_group) {
    t.zero_shard_group = *r.zero_shard_group;
    notes.push_back("sharded over groups of " + std::to_string(*r.zero_shard_group) + " data-parallel ranks, replicated across groups, as the record says");
  } else if (hybrid) {
    // A node's data-parallel ranks: its GPUs over the tp·cp ranks each replica spans there.
    const int64_t node = s.hardware.gpus_per_node.value_or(s.hardware.gpu.gpus_per_node);
    t.zero_shard_group = std::max<int64_t>(1, node / (r.tp.value_or(1) * r.cp.value_or(1)));
    notes.push_back("hybrid shard group not published: one node (" + std::to_string(t.zero_shard_group) +
                    " data-parallel ranks), PyTorch FSDP's HYBRID_SHARD default (shard within a node, replicate across nodes)");
  }
  Result<std::optional<Recompute>> rec = recompute_of(r);
  if (!rec) return rec.error();
  // Selective recompute's modules: the record's field, or those its words name; where recompute
  // is not published, MoE and MLA models (whose modules Megatron-core offers) search selective
  // with every module that applies, the others Megatron's default (core_attn).
  const std::string modules = r.recompute_modules.empty() ? recompute_modules_in(lower(r.recompute_text)) : r.recompute_modules;
  if (!modules.empty() && *rec && **rec != Recompute::selective)
    return make_error("training.recompute_modules", "names selective recompute modules ('" + modules + "'), but training.recompute says '" +
                                                        r.recompute_text + "'");
  if (!modules.empty()) {
    k.recompute = {Recompute::selective};
    t.recompute_modules = modules;
    notes.push_back("selective recompute of " + modules + " (Megatron-core's modules), as the record says");
  } else if (*rec) {
    k.recompute = {**rec};
  } else {
    k.recompute = {Recompute::none, Recompute::selective, Recompute::full};
    const bool mla = s.model.attention == AttentionKind::mla, moe = s.model.is_moe();
    if (mla || moe) t.recompute_modules = std::string("core_attn,layernorm") + (mla ? ",mla_up_proj" : "") + (moe ? ",moe_act" : "");
    notes.push_back("recompute not published: searched none/selective/full" +
                    (t.recompute_modules.empty() ? std::string() : ", selective with every module that applies (" + t.recompute_modules + ")"));
  }
  if (r.recompute_layers) {
    if (k.recompute != std::vector<Recompute>{Recompute::full})
      return make_error("training.recompute_layers", "needs training.recompute = full; got '" + r.recompute_text + "'");
    t.recompute_layers = *r.recompute_layers;
    notes.push_back("full recompute of " + std::to_string(*r.recompute_layers) + " layers per stage, the others keep their activations");
  }
  if (r.fused_elementwise) {
    t.fused_elementwise = *r.fused_elementwise;
    if (!t.fused_elementwise) notes.push_back("PyTorch eager element-wise ops (RMSNorm, rotary, SwiGLU, loss, AdamW foreach), as the record says");
  } else if ((has(r.words, "torchtitan") || has(r.words, "huggingface") || has(r.words, "hugging face")) && !compiled(r.words)) {
    // Frameworks that run the model code in eager PyTorch unless torch.compile is on.
    t.fused_elementwise = false;
    notes.push_back("PyTorch eager element-wise ops (RMSNorm, rotary, SwiGLU, loss, AdamW foreach): the record names an eager framework "
                    "(torchtitan or Hugging Face) and no torch.compile");
  }
  // FP8 parameters, where the record says so or names a framework whose FP8 recipes set Megatron's
  // fp8_param_gather (NeMo 2 and Megatron-Bridge: bf16_with_fp8_mixed and its kin).
  const std::string precision_words = lower(r.precision_text);
  const bool fp8_fused = t.precision == Precision::fp8_mixed && t.fused_elementwise;
  if (r.fp8_params) {
    t.fp8_params = *r.fp8_params;
  } else if (fp8_fused && (has(precision_words, "fp8 param") || has(precision_words, "fp8-param-gather") || has(precision_words, "fp8_param_gather"))) {
    t.fp8_params = true;
    notes.push_back("FP8 parameters, from the record's precision ('" + r.precision_text + "')");
  } else if (fp8_fused && (has(r.words, "nemo") || has(r.words, "megatron-bridge"))) {
    t.fp8_params = true;
    notes.push_back("FP8 parameters (fp8_param_gather), as NeMo's and Megatron-Bridge's FP8 recipes set them");
  }

  // The pipeline schedule, where the record names one.
  Result<ScheduleRead> sched = schedule_of(r);
  if (!sched) return sched.error();
  k.schedule = sched->schedule;
  if (sched->dualpipe) notes.push_back("DualPipe named: llmcalc's zero-bubble schedule, one chunk per stage");
  else if (sched->schedule) notes.push_back(std::string("pipeline schedule ") + to_string(*sched->schedule) + ", as the record says");

  // Parallel sizes and the GPU count: tp·pp·cp·dp = gpu_count, deriving what is missing.
  const bool layout_published = r.tp && r.pp;
  k.tp = r.tp ? std::vector<int64_t>{*r.tp} : std::vector<int64_t>{1, 2, 4, 8};
  k.pp = r.pp ? std::vector<int64_t>{*r.pp} : std::vector<int64_t>{1, 2, 4, 8};
  if (!layout_published) notes.push_back("tp/pp not published: searched tp ∈ {1,2,4,8}, pp ∈ {1,2,4,8}");
  int64_t cp = r.cp.value_or(1);
  if (r.ep && *r.ep != 1 && r.experts == 0) return make_error(r.training_key("ep"), "expert parallelism needs an MoE model; got " + number_text(double(*r.ep)));
  if (r.experts > 0) {
    p.ep = r.ep.value_or(1);
    if (!r.ep) notes.push_back("ep not published: 1 (every GPU holds every expert)");
    if (r.etp) {
      p.etp = *r.etp;
      notes.push_back("expert tensor parallelism " + number_text(double(*r.etp)) + ", as the record says");
    } else if (r.tp.value_or(1) > 1) notes.push_back("etp not published: tp (Megatron-core's default expert tensor parallelism)");
    p.ep_overlap = r.ep_overlap.value_or(sched->dualpipe);
    if (p.ep > 1 || p.etp > 1 || (p.etp == 0 && r.tp.value_or(1) > 1))
      notes.push_back(std::string("expert dispatch ") + (r.ep_overlap ? (p.ep_overlap ? "hidden behind another micro-batch's compute, as the record says" : "waited for, as the record says")
                                                         : sched->dualpipe ? "hidden behind another micro-batch's compute (DualPipe)"
                                                                           : "waited for (not published; GShard's default)"));
  } else if (r.etp || r.ep_overlap) {
    return make_error(r.etp ? r.training_key("etp") : "training.ep_overlap", "needs an MoE model (model.experts > 0)");
  }
  int64_t gpus = 0;
  if (r.gpu_count) {
    gpus = *r.gpu_count;
    if (layout_published && r.dp) {
      const int64_t prod = *r.tp * *r.pp * cp * *r.dp;
      if (prod != gpus) {
        const int64_t tpd = *r.tp * *r.pp * *r.dp;
        if (!r.cp && gpus % tpd == 0) {
          cp = gpus / tpd;
          notes.push_back("cp not published: " + number_text(double(cp)) + " = gpu_count / (tp·pp·dp)");
        } else {
          return make_error(r.training_key("dp"), "tp·pp·cp·dp = " + number_text(double(prod)) + " but hardware.gpu_count = " + number_text(double(gpus)));
        }
      }
    } else if (layout_published && gpus % (*r.tp * *r.pp * cp) != 0) {
      return make_error(r.key_of("hardware.gpu_count"), "must be a multiple of tp·pp·cp = " + number_text(double(*r.tp * *r.pp * cp)) + "; got " + number_text(double(gpus)));
    }
  } else if (layout_published && r.dp) {
    gpus = *r.tp * *r.pp * cp * *r.dp;
    notes.push_back("gpu_count not published: tp·pp·cp·dp = " + number_text(double(gpus)));
  } else {
    // Days scale with the GPU count, so one is not assumed for them.
    if (c.id == "training_days") return make_error(r.key_of("hardware.gpu_count"), "needed to predict training_days (the days scale with it); not given");
    gpus = kUnpublishedGpuCount;
    notes.push_back("gpu_count not published: " + number_text(double(gpus)) + " GPUs (128 nodes of 8; docs/validation.md)");
  }
  s.hardware.gpu_count = gpus;
  p.cp = cp;
  p.dp = 0;  // derived per layout: gpu_count / (tp·pp·cp)

  // Global batch: sequences as printed; from tokens when whole; a round decimal token count
  // ("4M") is the nearest power-of-two number of sequences (papers write 2^22 tokens as 4M).
  int64_t gbs = 0;
  if (r.global_batch_seqs) {
    gbs = *r.global_batch_seqs;
  } else if (r.global_batch_tokens) {
    const double seqs = *r.global_batch_tokens / double(r.seq_len);
    if (seqs == std::floor(seqs) && seqs >= 1) {
      gbs = static_cast<int64_t>(seqs);
    } else {
      gbs = static_cast<int64_t>(std::llround(std::exp2(std::round(std::log2(std::max(seqs, 1.0))))));
      notes.push_back("global batch " + number_text(*r.global_batch_tokens) + " tokens is not whole sequences of " + number_text(double(r.seq_len)) +
                      ": nearest power of two, " + number_text(double(gbs)) + " sequences");
    }
  }
  if (gbs > 0) {
    t.global_batch_seqs = gbs;
  } else {
    k.gbs_follows_micro_batch = true;
    notes.push_back(std::string("global batch not published") + (r.global_batch_text.empty() ? "" : " as a number ('" + r.global_batch_text + "')") +
                    ": one micro-batch per replica per step (global batch = micro-batch × dp)");
  }

  // Micro-batch: published, else every divisor of the per-replica batch (powers of two ≤ 64
  // when the global batch is unknown).
  if (r.micro_batch) {
    k.micro_batch = {*r.micro_batch};
  } else {
    if (gbs > 0) {
      const int64_t dp_min = gpus / (k.tp.back() * k.pp.back() * cp);  // the most replicas any candidate has
      const int64_t per_replica_max = dp_min > 0 ? gbs / std::max<int64_t>(1, dp_min) : gbs;
      // Divisors of the largest per-replica batch cover every candidate's (they divide it when dp does).
      k.micro_batch = divisors(std::max<int64_t>(1, r.batch_per_dp.value_or(per_replica_max)), 64);
      if (r.batch_per_dp) notes.push_back("micro-batch not published: searched the divisors of the " + number_text(double(*r.batch_per_dp)) + " sequences per replica");
      else notes.push_back("micro-batch not published: searched divisors of the per-replica batch (≤ 64)");
    } else {
      k.micro_batch = {1, 2, 4, 8, 16, 32, 64};
      notes.push_back("micro-batch not published: searched 1-64 (powers of two)");
    }
  }

  // Virtual pipeline stages: the number of chunks per pipeline rank (virtual_stages, NeMo's VP)
  // or layers per virtual stage (Megatron's flag) as printed; null means not interleaved; a
  // missing key is unpublished (searched over the divisors of the layers per stage).
  if (k.schedule && *k.schedule != Schedule::interleaved) {
    if (r.virtual_stages.value_or(1) > 1 || (r.vp_layers && r.pp && r.layers != *r.vp_layers * *r.pp))
      return make_error(r.training_key("schedule"), std::string("'") + r.schedule_text + "' runs one chunk per stage, but the record gives virtual stages");
    k.virtual_stages = {1};
  } else if (r.virtual_stages) {
    if (!r.pp) return make_error(r.training_key("virtual_stages"), "needs training.pp");
    k.virtual_stages = {*r.virtual_stages};
  } else if (r.vp_layers) {
    if (!r.pp) return make_error(r.training_key("virtual_pipeline_layers_per_stage"), "needs training.pp");
    const int64_t per_stage = r.layers / *r.pp;
    if (r.layers % *r.pp != 0 || per_stage % *r.vp_layers != 0)
      return make_error(r.training_key("virtual_pipeline_layers_per_stage"), "must divide the layers per stage (" + number_text(double(r.layers)) + " / pp " + number_text(double(*r.pp)) + "); got " + number_text(double(*r.vp_layers)));
    k.virtual_stages = {per_stage / *r.vp_layers};
  } else if (r.vp_present) {
    k.virtual_stages = {1};
  } else if (const int64_t per_stage = r.pp ? (r.layers + *r.pp - 1) / *r.pp : 0;
             c.layers_per_chunk > 0 && r.pp && *r.pp > 1 && per_stage % c.layers_per_chunk == 0) {
    k.virtual_stages = {per_stage / c.layers_per_chunk};
    notes.push_back("virtual stages " + number_text(double(k.virtual_stages[0])) + " from the source's text, not the record: " + c.layers_per_chunk_source);
  } else if (k.pp.back() > 1 && has(r.words, "deepspeed")) {
    k.virtual_stages = {1};
    notes.push_back("virtual pipeline stages not published: 1, since the record names DeepSpeed, whose pipeline engine "
                    "(Megatron-DeepSpeed's and GPT-NeoX's too) runs 1F1B without interleaving");
  } else {
    const int64_t pp_max = k.pp.back();
    k.virtual_stages = pp_max > 1 ? divisors((r.layers + pp_max - 1) / pp_max, 16) : std::vector<int64_t>{1};
    if (pp_max > 1) notes.push_back("virtual pipeline stages not published: searched the divisors of the layers per stage");
  }

  if (r.sequence_parallel) k.sequence_parallel = {*r.sequence_parallel};
  else if (k.tp.back() > 1) k.sequence_parallel = {false, true}, notes.push_back("sequence parallelism not published: searched off/on");
  else k.sequence_parallel = {false};

  if (r.batch_per_dp && r.dp && gbs > 0 && *r.batch_per_dp * *r.dp != gbs)
    notes.push_back("batch_size_per_dp × dp (" + number_text(double(*r.batch_per_dp * *r.dp)) + ") differs from the global batch (" + number_text(double(gbs)) + ")");
  if (r.params > 0) notes.push_back("printed size " + number_text(r.params / 1e9) + "B");
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace llmc::detail::validation
