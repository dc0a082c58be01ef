// The measurement suites. Each fills its tables in ctx.profile and its records in ctx.raw; a
// suite that cannot run on this machine says why through ctx.note and returns.
#pragma once
#include "context.h"

namespace llmc::bench {

void run_gemm_suite(BenchContext& ctx);
void run_attention_suite(BenchContext& ctx);
void run_membound_suite(BenchContext& ctx);
void run_nccl_suite(BenchContext& ctx);
void run_h2d_suite(BenchContext& ctx);
void run_launch_suite(BenchContext& ctx);

// Measurement counts, for the planned time and the progress bar.
int gemm_measurement_count(const BenchContext& ctx);
int membound_measurement_count(const BenchContext& ctx);
int nccl_measurement_count(const BenchContext& ctx, int gpus);

}  // namespace llmc::bench
