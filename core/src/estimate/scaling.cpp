#include "llmc/scaling.h"

#include <cmath>

#include "common/detmath.h"

namespace llmc {

double chinchilla_loss(double n, double d, const ChinchillaLaw& law) {
  return law.E + law.A / detail::det_pow(n, law.alpha) + law.B / detail::det_pow(d, law.beta);
}

ComputeOptimal optimal_parametric(double c, Trace* t, const ChinchillaLaw& law) {
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  const double a = law.beta / (law.alpha + law.beta), b = law.alpha / (law.alpha + law.beta);
  const double g = detail::det_pow(law.alpha * law.A / (law.beta * law.B), 1.0 / (law.alpha + law.beta));
  ComputeOptimal o;
  o.compute_flops = c;
  const char* src = "Hoffmann et al. 2022 (arXiv:2203.15556) eq. 4 and 10: E=1.69, A=406.4, B=410.7, α=0.34, β=0.28";
  o.params = tr.add("optimal.parametric.params", "G × (C/6)^a, a = β/(α+β), G = (αA/(βB))^(1/(α+β))", "params", src,
                    g * detail::det_pow(c / 6, a), {{"C", c}, {"a", a}, {"G", g}});
  o.tokens = tr.add("optimal.parametric.tokens", "(C/6)^b / G, b = α/(α+β)", "tokens", src,
                    detail::det_pow(c / 6, b) / g, {{"C", c}, {"b", b}, {"G", g}});
  o.loss = tr.add("optimal.parametric.loss", "E + A/N^α + B/D^β", "nats/token", src,
                  chinchilla_loss(o.params, o.tokens, law), {{"N", o.params}, {"D", o.tokens}});
  o.tokens_per_param = o.tokens / o.params;
  return o;
}

ComputeOptimal optimal_20_tokens_per_param(double c, Trace* t) {
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  ComputeOptimal o;
  o.compute_flops = c;
  o.params = tr.add("optimal.rule20.params", "sqrt(C / 120)  (C = 6·N·D, D = 20·N)", "params",
                    "Hoffmann et al. 2022 (D ≈ 20N)", std::sqrt(c / 120), {{"C", c}});
  o.tokens = tr.add("optimal.rule20.tokens", "20 × N", "tokens", "Hoffmann et al. 2022 (D ≈ 20N)", 20 * o.params,
                    {{"N", o.params}});
  o.loss = chinchilla_loss(o.params, o.tokens);
  o.tokens_per_param = 20;
  return o;
}

ComputeOptimal budget_for_params(double n, Trace* t) {
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  ComputeOptimal o;
  o.params = n;
  o.tokens = tr.add("optimal.rule20.tokens", "20 × N", "tokens", "Hoffmann et al. 2022 (D ≈ 20N)", 20 * n, {{"N", n}});
  o.compute_flops = tr.add("optimal.rule20.compute_flops", "6 × N × D", "FLOPs", "Kaplan et al. 2020 (C = 6ND)",
                           6 * n * o.tokens, {{"N", n}, {"D", o.tokens}});
  o.loss = chinchilla_loss(n, o.tokens);
  o.tokens_per_param = 20;
  return o;
}

double gpus_for_deadline(double model_flops, double deadline_s, double flops_per_gpu_s, Trace* t) {
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  return tr.add("optimal.gpus_for_deadline", "ceil(C / (deadline × model FLOP/s per GPU))", "GPUs",
                "definition: the compute over what the GPUs sustain in the deadline",
                std::ceil(model_flops / (deadline_s * flops_per_gpu_s)),
                {{"C", model_flops}, {"deadline_s", deadline_s}, {"flops_per_gpu_s", flops_per_gpu_s}});
}

}  // namespace llmc
