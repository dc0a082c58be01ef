// The host's cost of issuing a kernel from PyTorch, measured outside the bench
// (gpu/groundtruth/overheads.py times a tiny Llama at two depths). From its "runs" with the fused
// AdamW, per way of running the element-wise ops (eager, compiled): the host seconds of forward +
// backward over the kernels they issue, between the shallowest and the deepest run (the slope, so
// the per-step rest drops out). Those are the profile's host_issue.python_eager_us / python_fused_us.
//   {"runs": [{"layers": 2, "elementwise": "eager", "optimizer": "fused",
//     "host_s": {"forward": s, "backward": s, ...}, "device_items": {"forward": n, "backward": n, ...}}]}
#pragma once
#include <string>

#include "llmc/hardware.h"
#include "llmc/result.h"

namespace llmc::bench {

// python_eager_us and python_fused_us filled where the file has two depths of that mode
// (native_us left 0: the launch suite measures it). Errors name the JSON path ("runs[1].host_s...").
Result<HostIssue> import_overheads(const std::string& json_text);

}  // namespace llmc::bench
