// Explanation terms: every figure llmcalc reports carries its formula, inputs, value and source.
// Recording a term copies a few pointers and doubles (no formatting), so estimates stay fast;
// text is rendered only when someone asks (CLI `explain`, UI hover, docs).
#pragma once
#include <array>
#include <string>
#include <vector>

namespace llmc {

// Trivial (no initialisers): a term's unused input slots are never written nor read (n_inputs).
struct TermInput {
  const char* name;
  double value;
};

struct Term {
  // User-provided, so emplace_back() runs only these initialisers: a value-initialised Term is
  // first zero-filled whole (176 bytes, a `rep stos` that cost more than the rest of recording).
  Term(const char* key_, const char* formula_, const char* unit_, const char* source_, double value_)
      : key(key_), formula(formula_), unit(unit_), source(source_), value(value_) {}
  const char* key = "";      // JSON key of the figure, e.g. "memory.per_gpu.weights_bytes"
  const char* formula = "";  // symbolic, using the input names, e.g. "params_local × bytes_per_param"
  const char* unit = "";     // "bytes", "FLOPs", "s", "" ...
  const char* source = "";   // paper / seed / assumption the formula comes from
  double value = 0;
  static constexpr size_t kMaxInputs = 12;
  std::array<TermInput, kMaxInputs> inputs;  // the first n_inputs are set; not zero-filled
  int n_inputs = 0;
};

class Trace {
 public:
  // A Trace made with record = false only returns values: searches use it to stay allocation-free.
  explicit Trace(bool record = true) : record_(record) {}
  // Records a term and returns its value, so formulas read as `x = t.add(...)`.
  // Inline so a non-recording Trace costs nothing: the inputs are never materialised.
  double add(const char* key, const char* formula, const char* unit, const char* source, double value,
             std::initializer_list<TermInput> inputs) {
    if (!record_) return value;
    return record(key, formula, unit, source, value, inputs);
  }
  const std::vector<Term>& terms() const { return terms_; }
  void reserve(size_t n) { terms_.reserve(n); }
  const Term* find(const std::string& key) const;
  // Inputs given beyond Term::kMaxInputs, which a term cannot show: a test holds this at 0.
  size_t dropped_inputs() const { return dropped_inputs_; }

 private:
  double record(const char* key, const char* formula, const char* unit, const char* source, double value,
                std::initializer_list<TermInput> inputs);
  std::vector<Term> terms_;
  size_t dropped_inputs_ = 0;
  bool record_ = true;
};

// "weights_bytes = params_local × bytes_per_param = 1.0e9 × 2 = 2.0e9 bytes  [source]"
std::string render(const Term& t);
// Short human form of a number with its unit: 2.15 GB, 3.2e25 FLOPs, 27.4 days ...
std::string format_value(double v, const std::string& unit);

}  // namespace llmc
