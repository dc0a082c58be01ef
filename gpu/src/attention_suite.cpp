// Fused attention (fwd + bwd). The plan is cuDNN 9's fused flash SDPA; building that graph needs
// either the cudnn-frontend C++ headers (not installed with this toolkit: only cudnn_graph.h /
// cudnn_backend.h) or some 30 backend-API nodes per direction written by hand, which could not be
// verified without a GPU. Until then this suite reports why it is skipped, and attention points
// come from PyTorch's SDPA (gpu/groundtruth/attention_bench.py → --attention-json), which
// dispatches to the same cuDNN / FlashAttention kernels training uses.
#include "llmc_bench/attention_import.h"
#include "suites.h"

#ifdef LLMC_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace llmc::bench {

void run_attention_suite(BenchContext& ctx) {
  std::string why =
      "cuDNN SDPA unavailable: the cudnn-frontend headers are not installed and the backend-API SDPA graph is not "
      "implemented in this llmcalc-bench";
#ifndef LLMC_HAVE_CUDNN
  why = "cuDNN SDPA unavailable: cudnn.h / libcudnn not found at configure time";
#endif
  if (ctx.opt.attention_json.empty()) {
    ctx.note("attention: skipped (" + why +
             "); to add attention points, run gpu/groundtruth/attention_bench.py and pass "
             "--attention-json FILE (scripts/calibrate.sh does both)");
    return;
  }
  Result<ImportedAttention> imp =
      import_attention_samples(read_flag_file("attention", "--attention-json", ctx.opt.attention_json));
  if (!imp) throw BenchError("attention: " + imp.error().text());
  std::string tables;
  for (const auto& [key, points] : imp->tables) {
    ctx.profile.attention[key].points = points;
    tables += (tables.empty() ? "" : ", ") + key + " " + std::to_string(points.size());
  }
  ctx.note("attention: " + std::to_string(imp->points()) + " points imported from " + ctx.opt.attention_json + " (" +
           tables + "; " + imp->backend + "); " + why);
}

}  // namespace llmc::bench
