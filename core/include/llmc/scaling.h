// Compute-optimal sizing: the D ≈ 20N rule and the Hoffmann et al. 2022 parametric law
// L(N, D) = E + A/N^α + B/D^β with the paper's published constants (approach 3).
#pragma once
#include "llmc/explain.h"

namespace llmc {

struct ChinchillaLaw {
  double E = 1.69, A = 406.4, B = 410.7, alpha = 0.34, beta = 0.28;  // Hoffmann et al. 2022, eq. 10
};

struct ComputeOptimal {
  double compute_flops = 0;  // C = 6·N·D
  double params = 0;         // N_opt
  double tokens = 0;         // D_opt
  double loss = 0;           // L(N_opt, D_opt) (parametric law)
  double tokens_per_param = 0;
};

double chinchilla_loss(double params, double tokens, const ChinchillaLaw& law = {});
// N_opt = G (C/6)^a, D_opt = G⁻¹ (C/6)^b, a = β/(α+β), b = α/(α+β), G = (αA/(βB))^(1/(α+β)).
ComputeOptimal optimal_parametric(double compute_flops, Trace* t, const ChinchillaLaw& law = {});
// D = 20 N and C = 6 N D, so N = sqrt(C / 120).
ComputeOptimal optimal_20_tokens_per_param(double compute_flops, Trace* t);
// Training on `params` with the 20× rule: D = 20 N, C = 6 N D.
ComputeOptimal budget_for_params(double params, Trace* t);
// GPUs needed to finish `model_flops` within `deadline_s` at `flops_per_gpu_s` model FLOP/s each.
double gpus_for_deadline(double model_flops, double deadline_s, double flops_per_gpu_s, Trace* t);

}  // namespace llmc
