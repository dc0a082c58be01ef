// The searches over memory: the largest micro-batch that fits and the fewest GPUs that fit.
#include <algorithm>
#include <cmath>
#include <vector>

#include "estimate/estimate_parts.h"
#include "estimate/memory.h"

namespace llmc::detail {

int64_t max_micro_batch_that_fits(const Resolved& r, const ParamCounts& p, const LayerActivations& own_act,
                                  bool current_fits) {
  // Micro-batches must divide the per-replica batch and, interleaved, leave a multiple of pp of
  // them (resolve()). While there are several, memory grows with b for every schedule
  // (b·in_flight is b·min(p, n/b), b·n/b or b), so bisect over those divisors. When ZeRO-2/3
  // gradients are reduced once per step (training.grad_reduce) they are held whole while several
  // micro-batches accumulate and sharded with one, so a single micro-batch (b = n) can need less
  // than the others: it is tried on its own first.
  const ParallelSpec& par = r.s.parallel;
  const int64_t per_replica = r.s.training.global_batch_seqs / par.dp;
  auto allowed = [&](int64_t b) { return par.schedule != Schedule::interleaved || (per_replica / b) % par.pp == 0; };
  std::vector<int64_t> divisors, upper;
  for (int64_t d = 1; d * d <= per_replica; ++d) {
    if (per_replica % d) continue;
    if (allowed(d)) divisors.push_back(d);
    if (d != per_replica / d && allowed(per_replica / d)) upper.push_back(per_replica / d);
  }
  divisors.insert(divisors.end(), upper.rbegin(), upper.rend());
  const int64_t own = r.s.training.micro_batch;
  auto fits = [&](int64_t b) {
    const MemoryKnobs k{b, per_replica / b, par.dp};
    return peak_memory(r, p, k, at_micro_batch(own_act, own, b), nullptr, nullptr).headroom_bytes >= 0;
  };
  const bool single_holds_less = r.s.training.zero_stage >= 2 && !r.grad_reduce_per_micro_batch;
  if (single_holds_less && !divisors.empty() && divisors.back() == per_replica) {
    if (own == per_replica ? current_fits : fits(per_replica)) return per_replica;
    divisors.pop_back();
  }
  // The scenario's own micro-batch was just evaluated: start the bracket there.
  const size_t at = size_t(std::find(divisors.begin(), divisors.end(), own) - divisors.begin());
  size_t lo = 0, hi = divisors.size();  // fits(divisors[lo]) holds; divisors[hi] is out of range
  if (at < divisors.size()) {
    if (current_fits)
      lo = at;
    else
      hi = at;
  }
  const bool lo_known = current_fits && at < divisors.size();
  if (hi == 0 || (!lo_known && !fits(divisors[lo]))) return 0;
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (fits(divisors[mid]) ? lo : hi) = mid;
  }
  return divisors[lo];
}

int64_t min_gpus_that_fit(const Resolved& r, const ParamCounts& p, const LayerActivations& act,
                          const MemoryPerGpu& own) {
  // Keep tp, pp, cp, ep and the ZeRO stage; grow dp. Memory never grows with dp, so the first dp
  // that fits is the answer. `own`, the memory at the scenario's own dp, is reused: when it does
  // not fit, no smaller dp does (dp = 1 included), and it is one of the two points below.
  const int64_t own_dp = r.s.parallel.dp;
  MemoryKnobs k{r.s.training.micro_batch, r.micro_batches, 1};
  auto total = [&](int64_t dp) {
    if (dp == own_dp) return own;
    k.dp = dp;
    return peak_memory(r, p, k, act, nullptr, nullptr);
  };
  auto fits = [&](int64_t dp) { return total(dp).headroom_bytes >= 0; };
  auto divisible = [&](int64_t dp) {
    return (r.s.parallel.tp * r.s.parallel.cp * dp) % (r.etp * r.s.parallel.ep) == 0;
  };
  int64_t hi = 1;
  if (own.headroom_bytes < 0 || !fits(1)) {
    // For dp ≥ 2 memory is A + B/dp exactly (ZeRO shards B; comm buffers, context and
    // fragmentation do not depend on dp), so two evaluations give the answer; a few more confirm it.
    constexpr int64_t kMaxDp = int64_t(1) << 20;
    const int64_t far = own_dp > 2 ? own_dp : 4;
    const MemoryPerGpu m2 = total(2), m_far = total(far);
    const double b = (m2.total_bytes - m_far.total_bytes) / (0.5 - 1.0 / double(far));
    const double a = m_far.total_bytes - b / double(far), room = m2.capacity_bytes - a;
    int64_t lo = 1;
    if (b <= 0 || room <= 0) {
      // The two points see too little shrinking to fit. With pp > 1 the peak is the larger of
      // the stages' curves, not one A + B/dp, so the largest dp decides (memory never grows with dp).
      if (m_far.headroom_bytes >= 0) {
        if (m2.headroom_bytes >= 0)
          hi = 2;
        else
          lo = 2, hi = far;
      } else {
        if (!fits(kMaxDp)) return 0;  // more data parallelism does not shrink this layout enough
        lo = far, hi = std::min(2 * far, kMaxDp);
        while (!fits(hi)) lo = hi, hi = std::min(2 * hi, kMaxDp);
      }
    } else {
      const double guess = std::ceil(b / room);
      if (guess > double(kMaxDp)) return 0;
      hi = std::max<int64_t>(2, static_cast<int64_t>(guess));
      // Confirm: the guess fits and one less does not. With pp > 1 the peak is the larger of two
      // stages, so the guess can be off; then bracket by doubling and bisect.
      if (fits(hi)) {
        if (hi > 2 && fits(hi - 1))
          hi = hi - 1;
        else
          lo = hi - 1;
      } else {
        lo = hi;
        while (!fits(hi)) {
          lo = hi;
          hi *= 2;
          if (hi > kMaxDp) return 0;
        }
      }
    }
    while (hi - lo > 1) {
      const int64_t mid = lo + (hi - lo) / 2;
      (fits(mid) ? hi : lo) = mid;
    }
  }
  // Round up to a dp the expert layout accepts (memory only shrinks, so it still fits).
  while (!divisible(hi)) ++hi;
  return hi * r.s.parallel.tp * r.s.parallel.pp * r.s.parallel.cp;
}

}  // namespace llmc::detail
