/* qs8-packw, NEON (aarch64 and armv7): a full tile 16 taps at a time, the
 * 16x16 byte transpose by four rounds of zips, the rows' sums added from the
 * transposed taps (lane j is row j: no across-vector adds, which armv7
 * lacks); the last taps and a partial last tile by tff_qs8_packw_taps. */
#include <arm_neon.h>

#include "qs8-packw.h"

/* Zipping vectors j and j+8 into 2j and 2j+1 rotates each byte's 8-bit
 * place (4 bits of vector, 4 of lane) left by one: after four rounds the
 * vector is the old lane and the lane the old vector. */
static inline void zip_round(const int8x16_t* in, int8x16_t* out) {
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    const int8x16x2_t z = vzipq_s8(in[j], in[j + 8]);
    out[2 * j] = z.val[0];
    out[2 * j + 1] = z.val[1];
  }
}

/* Taps [0, 16) of 16 rows k apart at w to 16 groups of 16 at out, row
 * 4q+l's sum added to lane l of acc[q] (16 bytes' sums fit int16). The
 * unroll pragmas keep r and z in registers: -O2 alone leaves them in
 * memory. */
static inline void tile(const int8_t* w, size_t k, int8_t* out, int32x4_t* acc) {
  int8x16_t r[16], z[16];
#pragma GCC unroll 16
  for (int j = 0; j < 16; ++j) r[j] = vld1q_s8(w + (size_t)j * k);
  zip_round(r, z);
  zip_round(z, r);
  zip_round(r, z);
  zip_round(z, r);
  int16x8_t lo = vdupq_n_s16(0), hi = lo;
#pragma GCC unroll 16
  for (int t = 0; t < 16; ++t) {
    vst1q_s8(out + 16 * t, r[t]);
    lo = vaddw_s8(lo, vget_low_s8(r[t]));
    hi = vaddw_s8(hi, vget_high_s8(r[t]));
  }
  acc[0] = vaddw_s16(acc[0], vget_low_s16(lo));
  acc[1] = vaddw_s16(acc[1], vget_high_s16(lo));
  acc[2] = vaddw_s16(acc[2], vget_low_s16(hi));
  acc[3] = vaddw_s16(acc[3], vget_high_s16(hi));
}

/* The int32 lanes wrap as the twin's uint32 sums do. */
static inline size_t full(size_t k, const int8_t* w, int8_t* packed, uint32_t* s) {
  int32x4_t acc[4];
  for (int q = 0; q < 4; ++q) acc[q] = vdupq_n_s32(0);
  size_t i = 0;
  for (; k - i >= 16; i += 16) tile(w + i, k, packed + i * 16, acc);
  for (int q = 0; q < 4; ++q) vst1q_u32(s + 4 * q, vreinterpretq_u32_s32(acc[q]));
  return i;
}

void tff_qs8_packw_ukernel_x16__neon(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                     int32_t* sums) {
  tff_qs8_packw_tiles(n, k, w, packed, sums, full);
}
