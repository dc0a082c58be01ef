// llmcalc-bench: measures this machine's GPUs and writes an llmcalc hardware profile.
// Exit codes: 0 ok; 1 a suite failed or the profile was refused; 2 bad arguments; 3 no usable GPU;
// 4 the profile was written but --upload failed.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#ifdef LLMC_HAVE_CUDNN
#include <cudnn.h>
#endif
#ifdef LLMC_HAVE_NCCL
#include <nccl.h>
#endif

#include "llmc/catalog.h"
#include "llmc/profile.h"
#include "llmc_bench/atomic_write.h"
#include "llmc_bench/layer_shapes.h"
#include "llmc_bench/upload.h"
#include "mpi_world.h"
#include "suites.h"

#ifndef LLMC_GIT_SHA
#define LLMC_GIT_SHA "unknown"
#endif
#ifndef LLMC_VERSION
#define LLMC_VERSION "0"
#endif

namespace {

using namespace llmc::bench;
using llmc::Result;
using llmc::Status;

std::string version_string(int v, int major_div, int minor_div, int minor_mod) {
  return std::to_string(v / major_div) + "." + std::to_string((v / minor_div) % minor_mod) + "." +
         std::to_string(v % minor_div);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

void fill_versions(RunMetadata& m) {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess)
    m.cuda_runtime = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  if (cudaDriverGetVersion(&v) == cudaSuccess)
    m.cuda_driver_api = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  const std::size_t lt = cublasLtGetVersion();  // major·10000 + minor·100 + patch
  m.cublas = version_string(int(lt), 10000, 100, 100);
#ifdef LLMC_HAVE_CUDNN
  const std::size_t dn = cudnnGetVersion();  // cuDNN 9: major·10000 + minor·100 + patch
  m.cudnn = version_string(int(dn), 10000, 100, 100);
#else
  m.cudnn = "not built";
#endif
#ifdef LLMC_HAVE_NCCL
  int nv = 0;
  if (ncclGetVersion(&nv) == ncclSuccess) m.nccl = version_string(nv, 10000, 100, 100);
#else
  m.nccl = "not built";
#endif
}

// Planned seconds for one measurement: the sampling budget plus setup (allocation, random fill,
// algorithm trials), a rough 40% on top, seen as typical for the GEMM suite.
double planned_seconds(int measurements, const SamplePolicy& p) { return measurements * p.budget_s * 1.4; }

int run(int argc, char** argv, MpiWorld& world) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Result<Options> parsed = parse_options(args);
  if (!parsed) {
    std::fprintf(stderr, "llmcalc-bench: error: %s\n%s", parsed.error().text().c_str(), usage_text().c_str());
    return 2;
  }
  Options opt = *parsed;
  if (opt.help) {
    std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  if (opt.version) {
    std::printf("llmcalc-bench %s (git %s)%s%s\n", LLMC_VERSION, LLMC_GIT_SHA, mpi_built() ? ", with MPI" : "",
                upload_built() ? ", with --upload" : "");
    return 0;
  }
  // Before any measurement: an upload that cannot work should not wait for the end of the run.
  if (Status st = check_upload(opt); !st) {
    std::fprintf(stderr, "llmcalc-bench: error: %s\n", st.error().text().c_str());
    return 2;
  }
  if (opt.mpi) {
    if (const std::string why = mpi_start(&argc, &argv, world); !why.empty()) {
      std::fprintf(stderr, "llmcalc-bench: error: --mpi: %s\n", why.c_str());
      return 2;
    }
  }
  // Under --mpi every rank drives one GPU of its node; rank 0 alone runs the single-GPU suites,
  // prints and writes.
  const bool root = world.rank == 0;

  int gpus = 0;
  const cudaError_t e = cudaGetDeviceCount(&gpus);
  if (e != cudaSuccess || gpus == 0) {
    std::fprintf(stderr,
                 "llmcalc-bench: no usable GPU: %s (cudaGetDeviceCount: %s); nothing measured, no profile written\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device visible",
                 e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
    return 3;
  }
  if (world.active) {
    if (const std::string why = gpus_per_host_problem(world.layout, gpus); !why.empty()) {
      if (root) std::fprintf(stderr, "llmcalc-bench: error: --mpi: %s\n", why.c_str());
      mpi_finish(world, false);
      return 2;
    }
    opt.device = world.local_rank();
  }
  if (opt.device >= gpus) {
    std::fprintf(stderr, "llmcalc-bench: error: --device: %d, but only %d GPU(s) are visible\n", opt.device, gpus);
    return 2;
  }

  BenchContext ctx;
  ctx.opt = opt;
  ctx.device = opt.device;
  CUDA_CHECK(cudaSetDevice(ctx.device));
  CUDA_CHECK(cudaGetDeviceProperties(&ctx.prop, ctx.device));
  CUDA_CHECK(cudaFree(nullptr));  // create the context now, so free memory below is after it
  std::size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  ctx.profile.usable_memory_bytes = double(free_b);

  std::string gpu_id = opt.gpu_id;
  if (gpu_id.empty()) {
    Result<std::string> id = gpu_id_for_device(ctx.prop.name, double(total_b));
    if (!id) {
      std::fprintf(stderr, "llmcalc-bench: error: %s\n", id.error().text().c_str());
      return 2;
    }
    gpu_id = *id;
  }
  Result<llmc::GpuSpec> spec = llmc::find_gpu(gpu_id);
  if (!spec) {
    std::fprintf(stderr, "llmcalc-bench: error: --gpu: %s\n", spec.error().message.c_str());
    return 2;
  }
  Result<std::vector<GemmShape>> shapes = layer_gemm_shapes({opt.model, opt.tp, opt.micro_batch, opt.seq_len});
  if (!shapes) {
    std::fprintf(stderr, "llmcalc-bench: error: %s\n", shapes.error().text().c_str());
    return 2;
  }
  ctx.model_shapes = *shapes;
  if (opt.out.empty()) {
    opt.out = ctx.opt.out = "site/profiles/" + gpu_id + ".json";
    opt.raw_out = ctx.opt.raw_out = raw_path_for(opt.out);
  }

  Nvml nvml;
  char pci[32] = {};
  if (cudaDeviceGetPCIBusId(pci, sizeof pci, ctx.device) == cudaSuccess)
    nvml.bind(pci);  // no-op when NVML did not load
  ctx.nvml = &nvml;
  CUDA_CHECK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
  // Flush buffer: twice the L2 so a memset of it evicts everything a sample left behind.
  ctx.l2_flush = DeviceBuffer(std::max<std::size_t>(std::size_t(ctx.prop.l2CacheSize) * 2, std::size_t(64) << 20));

  if (opt.quick)
    ctx.policy = SamplePolicy{2, 5, 20, 0.08, 0.01};
  else
    ctx.policy = SamplePolicy{3, 10, 100, 0.35, 0.01};

  RunMetadata& m = ctx.meta;
  m.tool_version = LLMC_VERSION;
  m.git_sha = LLMC_GIT_SHA;
  m.date_utc = utc_now();
  m.argv.assign(argv, argv + argc);
  m.device_name = ctx.prop.name;
  m.sm_count = ctx.prop.multiProcessorCount;
  m.compute_capability = ctx.prop.major * 10 + ctx.prop.minor;
  m.memory_bytes = double(total_b);
  m.l2_bytes = double(ctx.prop.l2CacheSize);
  m.gpu_count = gpus;
  m.quick = opt.quick;
  m.driver = nvml.available() ? nvml.driver_version() : "unknown (NVML unavailable: " + nvml.why_unavailable() + ")";
  m.clock_policy = nvml.clock_policy();
  m.model_shapes = opt.model + " tp" + std::to_string(opt.tp) + " mb" + std::to_string(opt.micro_batch) + " seq" +
                   std::to_string(opt.seq_len ? opt.seq_len : ctx.model_shapes.front().m / opt.micro_batch);
  fill_versions(m);

  int count = 0;
  if (opt.want("gemm")) count += gemm_measurement_count(ctx);
  if (opt.want("membound")) count += membound_measurement_count(ctx);
  if (opt.want("nccl")) count += nccl_measurement_count(ctx, world.active ? world.size : gpus);
  if (opt.want("h2d")) count += 2;
  if (opt.want("launch")) count += 1;
  const double plan = planned_seconds(count, ctx.policy);
  if (root)
    std::fprintf(
        stderr, "llmcalc-bench: %s (%s, %d SMs, %.1f GiB), %d GPU(s)%s; %s run: %d measurements, planned about %s\n",
        ctx.prop.name, gpu_id.c_str(), int(m.sm_count), double(total_b) / double(1 << 30), gpus,
        world.active
            ? (", " + std::to_string(world.size) + " MPI ranks on " + std::to_string(world.layout.nodes) + " node(s)")
                  .c_str()
            : "",
        opt.quick ? "quick" : "full", count, format_duration(plan).c_str());
  Progress progress(plan);
  if (root) ctx.progress = &progress;

  bool suite_failed = false;
  auto suite = [&](const char* name, void (*fn)(BenchContext&)) {
    if (!opt.want(name)) return;
    const bool collective = world.active && std::string(name) == "nccl";
    if (!root && !collective) return;
    try {
      if (collective)
        run_nccl_mpi_suite(ctx, world);
      else
        fn(ctx);
    } catch (const std::exception& ex) {
      suite_failed = true;
      cudaGetLastError();
      ctx.note(std::string(name) + " suite failed: " + ex.what());
      // The other ranks are inside a collective this rank will not join: end them all.
      if (collective) mpi_finish(world, true);
    }
  };
  suite("gemm", run_gemm_suite);
  suite("attention", run_attention_suite);
  suite("membound", run_membound_suite);
  suite("nccl", run_nccl_suite);
  suite("h2d", run_h2d_suite);
  suite("launch", run_launch_suite);
  if (!root) return suite_failed || ctx.correctness_failed ? 1 : 0;
  progress.finish();

  llmc::HardwareProfile prof = finalize_profile(ctx.profile, *spec, ctx.model_shapes, m.notes);
  prof.description = std::string("measured on ") + ctx.prop.name + ", " + m.date_utc.substr(0, 10) +
                     " by llmcalc-bench " + LLMC_VERSION + (opt.quick ? " (quick run)" : "");
  prof.metadata_json = metadata_to_json(m);
  const std::string text = llmc::profile_to_json(prof);
  nlohmann::json raw{{"metadata", nlohmann::json::parse(prof.metadata_json)}, {"measurements", ctx.raw}};

  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::path(opt.out).has_parent_path()) fs::create_directories(fs::path(opt.out).parent_path(), ec);
  if (Status st = write_file_atomic(opt.raw_out, raw.dump(1) + "\n"); !st)
    std::fprintf(stderr, "llmcalc-bench: cannot write raw results: %s\n", st.error().text().c_str());
  else
    std::fprintf(stderr, "llmcalc-bench: raw results (every sample, NVML telemetry): %s\n", opt.raw_out.c_str());

  // The profile must pass llmcalc's own validation before it replaces anything.
  Result<llmc::HardwareProfile> check = llmc::profile_from_json(text);
  if (!check) {
    const std::string rejected = opt.out + ".rejected.json";
    (void)write_file_atomic(rejected, text + "\n");
    std::fprintf(stderr, "llmcalc-bench: the profile failed validation (%s); kept as %s, %s not written\n",
                 check.error().text().c_str(), rejected.c_str(), opt.out.c_str());
    return 1;
  }
  if (Status st = write_file_atomic(opt.out, text + "\n"); !st) {
    std::fprintf(stderr, "llmcalc-bench: cannot write the profile: %s\n", st.error().text().c_str());
    return 1;
  }
  std::fprintf(stderr, "llmcalc-bench: profile written: %s\n", opt.out.c_str());
  for (const auto& [dtype, t] : prof.gemm)
    std::fprintf(stderr, "  gemm %-5s max %.1f TFLOP/s (spec %.0f)\n", dtype.c_str(), t.max_tflops,
                 spec->peak_tflops(dtype == "bf16"   ? llmc::Dtype::bf16
                                   : dtype == "fp8"  ? llmc::Dtype::fp8
                                   : dtype == "fp16" ? llmc::Dtype::fp16
                                                     : llmc::Dtype::tf32));
  if (auto it = prof.memory_bound.find("hbm_copy"); it != prof.memory_bound.end())
    std::fprintf(stderr, "  hbm_copy fit %.0f GB/s (spec %.0f)\n", it->second.fit.peak, spec->hbm_bandwidth_gbps);
  if (ctx.correctness_failed) std::fprintf(stderr, "llmcalc-bench: a correctness check failed (see notes above)\n");
  const bool passed = !suite_failed && !ctx.correctness_failed;
  const int uploaded = upload_after_run(opt, passed, opt.out, text, stderr);
  return passed ? uploaded : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MpiWorld world;
  int rc = 1;
  try {
    rc = run(argc, argv, world);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "llmcalc-bench: error: %s\n", ex.what());
  }
  mpi_finish(world, false);
  return rc;
}
