#include "llmc_bench/options.h"

#include <charconv>

namespace llmc::bench {
namespace {

Result<int64_t> parse_int(const std::string& flag, const std::string& v, int64_t lo, int64_t hi) {
  int64_t x = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
    return make_error(
        flag, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]; got '" + v + "'");
  return x;
}

}  // namespace

std::string usage_text() {
  return "usage: llmcalc-bench [--quick] [--out FILE] [--raw FILE] [--model PRESET] [--tp N]\n"
         "                     [--micro-batch N] [--seq-len N] [--gpu ID] [--device N]\n"
         "                     [--suites gemm,attention,membound,nccl,h2d,launch] [--attention-json FILE]\n"
         "                     [--overheads-json FILE]\n"
         "                     [--mpi]   (under mpirun, one process per GPU: collectives across nodes)\n"
         "                     [--upload URL [--token-file FILE] [--label TEXT]]\n"
         "Measures GEMM (cuBLASLt), fused attention (cuDNN SDPA), memory-bound kernels, NCCL\n"
         "collectives, host-device copies and the host's cost of a kernel launch on this machine's\n"
         "GPUs and writes an llmcalc hardware profile (docs/profile-schema.md). --quick: about 2\n"
         "minutes on one H100; full: about 10.\n"
         "--upload: after a run that passed its checks, push the profile to an llmcalc registry\n"
         "(token: --token-file or $LLMCALC_TOKEN); the file is kept either way.\n"
         "Exit codes: 0 ok, 1 a measurement or the profile failed, 2 bad arguments, 3 no usable GPU,\n"
         "4 measured and written, but the upload failed (push it later: llmcalc profile push FILE).\n";
}

std::string raw_path_for(const std::string& path) {
  const std::string ext = ".json";
  if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
    return path.substr(0, path.size() - ext.size()) + ".raw.json";
  return path + ".raw.json";
}

Result<Options> parse_options(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& dst) -> Status {
      if (i + 1 >= args.size()) return make_error(a, "needs a value");
      dst = args[++i];
      return ok_status();
    };
    std::string v;
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--mpi") {
      o.mpi = true;
    } else if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--out" || a == "--raw" || a == "--model" || a == "--gpu" || a == "--attention-json" ||
               a == "--overheads-json") {
      if (Status s = value(v); !s) return s.error();
      if (v.empty()) return make_error(a, "must not be empty");
      (a == "--out"              ? o.out
       : a == "--raw"            ? o.raw_out
       : a == "--model"          ? o.model
       : a == "--gpu"            ? o.gpu_id
       : a == "--attention-json" ? o.attention_json
                                 : o.overheads_json) = v;
    } else if (a == "--upload" || a == "--token-file" || a == "--label") {
      if (Status s = value(v); !s) return s.error();
      if (v.empty()) return make_error(a, "must not be empty");
      (a == "--upload" ? o.upload_url : a == "--token-file" ? o.token_file : o.upload_label) = v;
    } else if (a == "--tp" || a == "--micro-batch" || a == "--seq-len" || a == "--device") {
      if (Status s = value(v); !s) return s.error();
      Result<int64_t> x =
          parse_int(a, v, a == "--seq-len" || a == "--device" ? 0 : 1, a == "--device" ? 1023 : (int64_t(1) << 24));
      if (!x) return x.error();
      if (a == "--tp")
        o.tp = *x;
      else if (a == "--micro-batch")
        o.micro_batch = *x;
      else if (a == "--seq-len")
        o.seq_len = *x;
      else
        o.device = int(*x);
    } else if (a == "--suites") {
      if (Status s = value(v); !s) return s.error();
      std::size_t start = 0;
      while (start <= v.size()) {
        const std::size_t comma = v.find(',', start);
        const std::string name = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool known = false;
        for (const std::string& s : all_suites()) known |= s == name;
        if (!known)
          return make_error("--suites",
                            "unknown suite '" + name + "' (known: gemm, attention, membound, nccl, h2d, launch)");
        o.suites.insert(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else {
      return make_error(a, "unknown argument (see --help)");
    }
  }
  if (o.raw_out.empty() && !o.out.empty()) o.raw_out = raw_path_for(o.out);
  if (o.upload_url.empty() && (!o.token_file.empty() || !o.upload_label.empty()))
    return make_error(!o.token_file.empty() ? "--token-file" : "--label", "only means something with --upload URL");
  return o;
}

}  // namespace llmc::bench
