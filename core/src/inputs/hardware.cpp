#include "llmc/hardware.h"

namespace llmc {

const char* to_string(Dtype d) {
  switch (d) {
    case Dtype::fp32:
      return "fp32";
    case Dtype::tf32:
      return "tf32";
    case Dtype::bf16:
      return "bf16";
    case Dtype::fp16:
      return "fp16";
    case Dtype::fp8:
      return "fp8";
    case Dtype::fp4:
      return "fp4";
    case Dtype::int8:
      return "int8";
  }
  return "?";
}

const char* to_string(MemKernel k) {
  switch (k) {
    case MemKernel::hbm_copy:
      return "hbm_copy";
    case MemKernel::hbm_triad:
      return "hbm_triad";
    case MemKernel::rmsnorm:
      return "rmsnorm";
    case MemKernel::layernorm:
      return "layernorm";
    case MemKernel::softmax:
      return "softmax";
    case MemKernel::swiglu:
      return "swiglu";
    case MemKernel::gelu:
      return "gelu";
    case MemKernel::rotary:
      return "rotary";
    case MemKernel::adamw:
      return "adamw";
    case MemKernel::cast:
      return "cast";
    case MemKernel::dropout:
      return "dropout";
    case MemKernel::cross_entropy:
      return "cross_entropy";
  }
  return "?";
}

double GpuSpec::peak_tflops(Dtype d) const {
  switch (d) {
    case Dtype::fp32:
      return peak_fp32_tflops;
    case Dtype::tf32:
      return peak_tf32_tflops;
    case Dtype::bf16:
      return peak_bf16_tflops;
    case Dtype::fp16:
      return peak_fp16_tflops;
    case Dtype::fp8:
      return peak_fp8_tflops;
    case Dtype::fp4:
      return peak_fp4_tflops;
    case Dtype::int8:
      return peak_int8_tflops;
  }
  return 0;
}

double GpuSpec::mamf_tflops(Dtype d) const {
  switch (d) {
    case Dtype::bf16:
    case Dtype::fp16:
      return mamf_bf16_tflops;
    case Dtype::fp8:
      return mamf_fp8_tflops;
    default:
      return 0;
  }
}

double intra_node_busbw_gbps(double link_gbps) { return 0.78 * link_gbps; }
double inter_node_busbw_gbps(double nic_gbps) { return 0.9 * nic_gbps; }

}  // namespace llmc
