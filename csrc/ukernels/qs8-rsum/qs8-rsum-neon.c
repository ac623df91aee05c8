/* qs8-rsum, NEON (aarch64 and armv7): 16 bytes at a time, pairwise widened
 * to int16 and accumulated pairwise into four int32 lanes: signed, so no
 * bias, and their total is the twin's mod 2^32. */
#include <arm_neon.h>

#include "qs8-rsum.h"

/* The lanes' total, wrapping (armv7 has no across-vector add). */
static inline uint32_t sum_lanes(uint32x4_t v) {
#if defined(__aarch64__)
  return vaddvq_u32(v);
#else
  const uint32x2_t half = vadd_u32(vget_low_u32(v), vget_high_u32(v));
  return vget_lane_u32(vpadd_u32(half, half), 0);
#endif
}

void tff_qs8_rsum_ukernel__neon(size_t n, size_t k, const int8_t* w, int32_t* sums) {
  for (size_t c = 0; c < n; ++c, w += k) {
    int32x4_t acc = vdupq_n_s32(0);
    size_t i = 0;
    for (; k - i >= 16; i += 16) acc = vpadalq_s16(acc, vpaddlq_s8(vld1q_s8(w + i)));
    uint32_t total = sum_lanes(vreinterpretq_u32_s32(acc));
    for (; i < k; ++i) total += (uint32_t)w[i];
    sums[c] = (int32_t)total;
  }
}
