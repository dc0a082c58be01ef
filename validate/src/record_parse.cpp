// Records file → records (record.h). Strict: every key is known, every value checked, and the
// first error in a record names its path ("scenario.training.tp", "judgments[2].choice"). The
// scenario is read by core's own scenario reader, so a record's scenario is exactly a file
// `llmcalc estimate` accepts.
#include <set>

#include "json_read.h"
#include "llmc/catalog.h"
#include "llmc/fields.h"
#include "llmc_validate/conventions.h"
#include "llmc_validate/record.h"

namespace llmc::validate {

using detail::json;

bool KernelSpec::is_collective() const {
  return op == "all_reduce" || op == "all_gather" || op == "reduce_scatter" || op == "all_to_all" || op == "send_recv";
}

const std::vector<std::string>& unpublished_fields() {
  static const std::vector<std::string> fields = {"parallel.tp",
                                                  "parallel.pp",
                                                  "parallel.cp",
                                                  "parallel.ep",
                                                  "parallel.virtual_stages",
                                                  "training.micro_batch",
                                                  "training.recompute",
                                                  "training.zero_stage",
                                                  "training.sequence_parallel"};
  return fields;
}

namespace {

Error at(const std::string& path, const Error& e) {
  return make_error(e.field.empty() ? path : path + "." + e.field, e.message);
}

Status read_source(const json& j, Record& r) {
  if (!j.contains("source")) return make_error("source", "missing: an object with the citation");
  const json& src = j.at("source");
  if (!src.is_object()) return make_error("source", std::string("must be an object; got ") + src.type_name());
  if (auto st = detail::only_keys(
          src, "source",
          {"citation", "url", "read_from", "setup", "notes", "model_notes", "confidence", "raw", "also_measured"});
      !st)
    return st;
  if (auto st = detail::read_text(src, "citation", "source", true, r.citation); !st) return st;
  std::string text;
  for (const char* key : {"url", "setup", "notes", "model_notes", "confidence", "raw"})
    if (auto st = detail::read_text(src, key, "source", false, text, 8192); !st) return st;
  if (src.contains("read_from")) {
    const json& rf = src.at("read_from");
    if (!rf.is_array()) return make_error("source.read_from", "must be a list of text; got " + detail::shown(rf));
    for (size_t i = 0; i < rf.size(); ++i)
      if (!rf[i].is_string())
        return make_error("source.read_from[" + std::to_string(i) + "]", "must be text; got " + detail::shown(rf[i]));
  }
  if (src.contains("also_measured")) {
    const json& am = src.at("also_measured");
    if (!am.is_object())
      return make_error("source.also_measured",
                        "must be an object of the source's other figures; got " + detail::shown(am));
    for (auto it = am.begin(); it != am.end(); ++it)
      if (!it.value().is_number() && !it.value().is_string() && !it.value().is_object())
        return make_error("source.also_measured." + it.key(),
                          "must be a number, text or a table; got " + detail::shown(it.value()));
  }
  return ok_status();
}

Status read_measured(const json& j, Record& r) {
  if (!j.contains("measured")) return make_error("measured", "missing: {metric, value, unit, convention}");
  const json& m = j.at("measured");
  if (!m.is_object())
    return make_error("measured",
                      std::string("must be an object {metric, value, unit, convention}; got ") + m.type_name());
  if (auto st = detail::only_keys(m, "measured", {"metric", "value", "unit", "convention", "memory_kind"}); !st)
    return st;
  std::vector<std::string> ids;
  for (const FlopConvention& c : flop_conventions()) ids.push_back(c.id);
  if (auto st = detail::read_choice(m, "convention", "measured", ids, r.measured.convention); !st) return st;
  const FlopConvention& c = *find_convention(r.measured.convention);
  if (auto st = detail::read_text(m, "metric", "measured", true, r.measured.metric, 200); !st) return st;
  if (r.measured.metric != c.metric)
    return make_error("measured.metric",
                      "must be '" + c.metric + "' under convention " + c.id + "; got '" + r.measured.metric + "'");
  if (auto st = detail::read_text(m, "unit", "measured", true, r.measured.unit, 200); !st) return st;
  if (r.measured.unit != c.unit)
    return make_error("measured.unit",
                      "must be '" + c.unit + "' under convention " + c.id + "; got '" + r.measured.unit + "'");
  // A peak memory says which counter it is (they differ by the CUDA context and the allocator's
  // reserve); no other metric has one.
  if (c.group == ConventionGroup::peak_memory) {
    std::string kinds;
    for (const std::string& k : memory_kinds()) kinds += (kinds.empty() ? "" : ", ") + k;
    if (!m.contains("memory_kind"))
      return make_error("measured.memory_kind",
                        "missing: which counter the source's peak memory is (" + kinds +
                            ": PyTorch's max allocated, its max reserved, or device memory as nvidia-smi shows it)");
    if (auto st = detail::read_choice(m, "memory_kind", "measured", memory_kinds(), r.measured.memory_kind); !st)
      return st;
  } else if (m.contains("memory_kind")) {
    return make_error("measured.memory_kind",
                      "only a peak_memory record names a memory counter; this one is measured under " + c.id);
  }
  const double hi = c.id == "mfu_unknown" ? 1.0 : 1e18;  // an MFU is a fraction of the peak
  if (auto st = detail::read_number(m, "value", "measured", true, 1e-12, hi, false, r.measured.value); !st) return st;
  const bool kernel_convention = c.group == ConventionGroup::kernel;
  if (kernel_convention != r.kernel)
    return make_error(
        "measured.convention",
        c.id + (r.kernel
                    ? " is not a kernel benchmark's convention (kernel_gemm, kernel_attention, kernel_hbm, kernel_nccl)"
                    : " is a kernel benchmark's: a training record's convention measures a run"));
  return ok_status();
}

// The convention a kernel op is measured under.
const char* kernel_convention(const std::string& op) {
  if (op == "gemm") return "kernel_gemm";
  if (op == "attention") return "kernel_attention";
  if (op == "hbm_copy" || op == "hbm_triad") return "kernel_hbm";
  return "kernel_nccl";
}

Status read_kernel(const json& k, KernelSpec& ks) {
  if (!k.is_object()) return make_error("kernel", std::string("must be an object; got ") + k.type_name());
  const std::vector<std::string> ops = {"gemm",       "attention",      "hbm_copy",   "hbm_triad", "all_reduce",
                                        "all_gather", "reduce_scatter", "all_to_all", "send_recv"};
  if (auto st = detail::read_choice(k, "op", "kernel", ops, ks.op); !st) return st;
  if (auto st = detail::read_text(k, "gpu", "kernel", true, ks.gpu, 200); !st) return st;
  if (Result<GpuSpec> g = find_gpu(ks.gpu); !g)
    return make_error("kernel.gpu", "unknown GPU '" + ks.gpu + "' (llmcalc presets gpus)");
  auto dtype = [&](const std::vector<std::string>& allowed) -> Status {
    std::string d;
    if (auto st = detail::read_choice(k, "dtype", "kernel", allowed, d); !st) return st;
    for (Dtype x : {Dtype::fp32, Dtype::tf32, Dtype::bf16, Dtype::fp16, Dtype::fp8, Dtype::int8})
      if (d == to_string(x)) ks.dtype = x;
    return ok_status();
  };
  auto number = [&](const char* key, double lo, double hi, double& out) {
    return detail::read_number(k, key, "kernel", true, lo, hi, true, out);
  };
  if (ks.op == "gemm") {
    if (auto st = detail::only_keys(k, "kernel", {"op", "gpu", "dtype", "m", "n", "k"}); !st) return st;
    if (auto st = dtype({"bf16", "fp16", "fp8", "tf32", "fp32", "int8"}); !st) return st;
    for (const auto& [key, dst] : {std::pair{"m", &ks.m}, {"n", &ks.n}, {"k", &ks.k}})
      if (auto st = number(key, 1, 1e8, *dst); !st) return st;
  } else if (ks.op == "attention") {
    if (auto st = detail::only_keys(
            k, "kernel",
            {"op", "gpu", "dtype", "batch", "seq_len", "heads", "head_dim", "causal", "direction", "ampere_kernel"});
        !st)
      return st;
    if (auto st = dtype({"bf16", "fp16"}); !st) return st;  // fused attention runs in 16-bit
    if (auto st = number("batch", 1, 1e6, ks.batch); !st) return st;
    if (auto st = number("seq_len", 1, 1e7, ks.seq_len); !st) return st;
    if (auto st = number("heads", 1, 1e5, ks.heads); !st) return st;
    if (auto st = number("head_dim", 1, 1024, ks.head_dim); !st) return st;
    if (ks.batch * ks.seq_len > 1e9) return make_error("kernel.batch", "batch × seq_len must be at most 1e9 tokens");
    if (auto st = detail::read_bool(k, "causal", "kernel", true, ks.causal); !st) return st;
    std::string dir;
    if (auto st = detail::read_choice(k, "direction", "kernel", {"fwd", "bwd", "fwd+bwd"}, dir); !st) return st;
    ks.forward = dir != "bwd";
    ks.backward = dir != "fwd";
    if (auto st = detail::read_bool(k, "ampere_kernel", "kernel", false, ks.ampere_kernel); !st) return st;
  } else if (ks.op == "hbm_copy" || ks.op == "hbm_triad") {
    if (auto st = detail::only_keys(k, "kernel", {"op", "gpu", "bytes"}); !st) return st;
    if (auto st = number("bytes", 1, 1e13, ks.bytes); !st) return st;
  } else {
    if (auto st = detail::only_keys(k, "kernel", {"op", "gpu", "ranks", "bytes", "algorithm"}); !st) return st;
    double ranks = 0;
    if (auto st = number("ranks", 2, 1e6, ranks); !st) return st;
    ks.ranks = int64_t(ranks);
    if (auto st = number("bytes", 1, 1e13, ks.bytes); !st) return st;
    if (auto st = detail::read_choice(k, "algorithm", "kernel", {"ring", "tree", "nvls", "collnet"}, ks.algorithm); !st)
      return st;
  }
  return ok_status();
}

Status read_unpublished(const json& j, Record& r) {
  if (!j.contains("unpublished")) return ok_status();
  const json& u = j.at("unpublished");
  if (!u.is_array()) return make_error("unpublished", "must be a list of scenario field keys; got " + detail::shown(u));
  if (r.kernel && !u.empty())
    return make_error("unpublished", "a kernel benchmark record has no layout to choose: give every kernel field");
  std::string list;
  for (const std::string& f : unpublished_fields()) list += (list.empty() ? "" : ", ") + f;
  for (size_t i = 0; i < u.size(); ++i) {
    const std::string path = "unpublished[" + std::to_string(i) + "]";
    if (!u[i].is_string()) return make_error(path, "must be a field key (" + list + "); got " + detail::shown(u[i]));
    const std::string key = u[i].get<std::string>();
    bool allowed = false;
    for (const std::string& f : unpublished_fields()) allowed = allowed || key == f;
    if (!allowed)
      return make_error(path, "'" + key + "' is not a knob the rule chooses (" + list +
                                  "); give it in the scenario, with a judgment");
    for (const std::string& seen : r.unpublished)
      if (seen == key) return make_error(path, "'" + key + "' is listed twice");
    r.unpublished.push_back(key);
  }
  return ok_status();
}

// A judgment's choice must be the record's own value: a judgment explains the data, never
// differs from it.
Status check_choice(const json& j, const Record& r, const std::string& path, const json& choice) {
  const std::string& field = r.judgments.back().field;
  auto same_as = [&](const json& obj, const std::string& key, const std::string& section) -> Status {
    if (!obj.is_object() || !obj.contains(key))
      return make_error(path + ".field", "'" + field + "': the record has no " + section + "." + key);
    if (obj.at(key) != choice)
      return make_error(path + ".choice", detail::shown(choice) + " is not the record's " + field + " (" +
                                              detail::shown(obj.at(key)) + ")");
    return ok_status();
  };
  if (field.rfind("kernel.", 0) == 0)
    return same_as(j.contains("kernel") ? j.at("kernel") : json(), field.substr(7), "kernel");
  if (field.rfind("measured.", 0) == 0) return same_as(j.at("measured"), field.substr(9), "measured");
  if (r.kernel)
    return make_error(
        path + ".field",
        "'" + field + "': a kernel record's judgments are about kernel.<key> or measured.<key>, or take a topic");
  for (const std::string& u : r.unpublished)
    if (u == field) return ok_status();  // chosen by the rule, not by the record
  const std::string text = choice.is_string() ? choice.get<std::string>() : detail::dump(choice);
  if (field == "model.preset") {
    const json& m = j.at("scenario").contains("model") ? j.at("scenario").at("model") : json();
    const json preset = m.is_string() ? m : m.is_object() && m.contains("preset") ? m.at("preset") : json();
    if (preset != choice)
      return make_error(path + ".choice",
                        detail::shown(choice) + " is not the scenario's model preset (" + detail::shown(preset) + ")");
    return ok_status();
  }
  if (field == "hardware.gpu") {
    if (text != r.scenario.hardware.gpu.id)
      return make_error(path + ".choice",
                        "'" + text + "' is not the scenario's hardware.gpu ('" + r.scenario.hardware.gpu.id + "')");
    return ok_status();
  }
  const FieldInfo* f = find_field(field);
  if (!f)
    return make_error(path + ".field",
                      "'" + field +
                          "' is not a scenario field (llmcalc explain --fields), kernel.<key> or measured.<key>; "
                          "a judgment about anything else takes a topic");
  Scenario t = r.scenario;
  if (Status st = set_field(t, field, text); !st) return make_error(path + ".choice", st.error().text());
  if (f->get(t) != f->get(r.scenario))
    return make_error(path + ".choice",
                      "'" + text + "' is not the scenario's " + field + " ('" + f->get(r.scenario) + "')");
  return ok_status();
}

Status read_judgments(const json& j, Record& r) {
  if (!j.contains("judgments")) return ok_status();
  const json& js = j.at("judgments");
  if (!js.is_array())
    return make_error("judgments", "must be a list of {field or topic, choice, why}; got " + detail::shown(js));
  for (size_t i = 0; i < js.size(); ++i) {
    const std::string path = "judgments[" + std::to_string(i) + "]";
    const json& x = js[i];
    if (!x.is_object())
      return make_error(path, "must be an object {field or topic, choice, why}; got " + detail::shown(x));
    if (auto st = detail::only_keys(x, path, {"field", "topic", "choice", "why"}); !st) return st;
    Judgment jd;
    if (auto st = detail::read_text(x, "field", path, false, jd.field, 200); !st) return st;
    if (auto st = detail::read_text(x, "topic", path, false, jd.topic, 200); !st) return st;
    if (jd.field.empty() == jd.topic.empty())
      return make_error(path + ".field", "give a field (what the judgment sets) or a topic, one of them");
    if (!x.contains("choice")) return make_error(path + ".choice", "missing: the value chosen");
    const json& choice = x.at("choice");
    if (!choice.is_string() && !choice.is_number() && !choice.is_boolean())
      return make_error(path + ".choice", "must be text, a number or a boolean; got " + detail::shown(choice));
    jd.choice = choice.is_string() ? choice.get<std::string>() : detail::dump(choice);
    if (auto st = detail::read_text(x, "why", path, true, jd.why, 8192); !st) return st;
    r.judgments.push_back(jd);
    if (!jd.field.empty())
      if (auto st = check_choice(j, r, path, choice); !st) return st;
  }
  return ok_status();
}

Result<Record> read_record(const json& j) {
  if (!j.is_object()) return make_error("record", std::string("must be an object; got ") + j.type_name());
  if (auto st = detail::only_keys(
          j, "", {"id", "family", "source", "scenario", "kernel", "unpublished", "measured", "judgments"});
      !st)
    return st.error();
  Record r;
  if (auto st = detail::read_text(j, "id", "", true, r.id, 200); !st) return st.error();
  if (auto st = detail::read_text(j, "family", "", true, r.family, 100); !st) return st.error();
  for (char c : r.family)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
      return make_error(
          "family",
          "must be lower-case letters, digits, '-' and '.' (the source family, e.g. megatron-lm-2021); got '" +
              r.family + "'");
  if (auto st = read_source(j, r); !st) return st.error();
  const bool has_scenario = j.contains("scenario"), has_kernel = j.contains("kernel");
  if (has_scenario == has_kernel)
    return make_error(
        "scenario",
        has_scenario
            ? "give a scenario (a training run) or a kernel (a kernel benchmark), not both"
            : "missing: a training record gives the scenario (docs/json-contract.md), a kernel benchmark the kernel");
  r.kernel = has_kernel;
  if (has_kernel) {
    if (auto st = read_kernel(j.at("kernel"), r.kernel_spec); !st) return st.error();
  } else {
    const json& sc = j.at("scenario");
    if (!sc.is_object())
      return make_error("scenario", std::string("must be an object (a scenario file's JSON); got ") + sc.type_name());
    r.scenario = default_scenario();
    r.scenario_json = detail::dump(sc);
    if (auto st = apply_scenario_json(r.scenario, r.scenario_json); !st) return at("scenario", st.error());
  }
  if (auto st = read_unpublished(j, r); !st) return st.error();
  if (auto st = read_measured(j, r); !st) return st.error();
  if (r.kernel && r.measured.convention != kernel_convention(r.kernel_spec.op))
    return make_error("measured.convention", "a kernel." + r.kernel_spec.op + " record is measured under " +
                                                 kernel_convention(r.kernel_spec.op) + "; got " +
                                                 r.measured.convention);
  if (auto st = read_judgments(j, r); !st) return st.error();
  return r;
}

}  // namespace

Result<std::vector<RecordEntry>> parse_records(const std::string& json_text) {
  Result<json> doc = detail::parse_json(json_text, "validation file");
  if (!doc) return doc.error();
  if (!doc->is_array())
    return make_error("validation file", std::string("must be a JSON array of records; got ") + doc->type_name());
  std::vector<RecordEntry> out;
  std::set<std::string> ids;
  for (size_t i = 0; i < doc->size(); ++i) {
    const json& j = (*doc)[i];
    RecordEntry e;
    e.id = "#" + std::to_string(i);
    if (j.is_object() && j.contains("id") && j.at("id").is_string() && !j.at("id").get<std::string>().empty())
      e.id = j.at("id").get<std::string>();
    if (j.is_object() && j.contains("family") && j.at("family").is_string())
      e.family = j.at("family").get<std::string>();
    e.record = read_record(j);
    if (e.record && !ids.insert(e.id).second)
      e.record = make_error("id", "'" + e.id + "' is the id of an earlier record too: ids are unique in a file");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace llmc::validate
