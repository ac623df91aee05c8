/* qs8-packw: int8 weights [n][k] (row-major) to the portable int8 GEMM's
 * tiles of 16 rows (conv_common.h's TFF_NR), each k-major: row n0+j at byte
 * j of each group of 16, zeros past row n; and in the same pass
 * sums[c] = Σ_i w[c][i] for c < n, wrapping like the GEMM (uint32). */
#ifndef TFLITE_FAST_UKERNELS_QS8_PACKW_H_
#define TFLITE_FAST_UKERNELS_QS8_PACKW_H_

#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

typedef void tff_qs8_packw_ukernel(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                   int32_t* sums);
tff_qs8_packw_ukernel tff_qs8_packw_ukernel_x16__scalar, tff_qs8_packw_ukernel_x16__sse41,
    tff_qs8_packw_ukernel_x16__avx2, tff_qs8_packw_ukernel_x16__neon;

/* tff_qs8_packw_config {fn, name, isa}, the configs this build has, and
 * tff_qs8_packw_select: the kernel of the best ISA in isa_mask. */
TFF_DECLARE_CONFIGS(tff_qs8_packw)

/* Taps [i0, k) of one tile of `rows` (<= 16) rows at w: each row in order
 * (reads stay sequential, no byte needs a bounds test), its bytes added to
 * sums[j]; zeros for rows past `rows`. The scalar kernel, and the SIMD
 * kernels' tail. */
static inline void tff_qs8_packw_taps(size_t k, size_t rows, size_t i0, const int8_t* w,
                                      int8_t* packed, uint32_t* sums) {
  for (size_t j = 0; j < 16; ++j) {
    if (j >= rows) {
      for (size_t i = i0; i < k; ++i) packed[i * 16 + j] = 0;
      continue;
    }
    const int8_t* row = w + j * k;
    uint32_t sum = 0;
    for (size_t i = i0; i < k; ++i) {
      packed[i * 16 + j] = row[i];
      sum += (uint32_t)row[i];
    }
    sums[j] += sum;
  }
}

/* A SIMD kernel's part: taps [0, i) of a full tile of 16 rows at w to
 * packed, row j's sum of them to s[j]; returns i. */
typedef size_t tff_qs8_packw_full_fn(size_t k, const int8_t* w, int8_t* packed, uint32_t* s);

/* The SIMD kernels' loop over tiles: a full tile by `full`, then its last
 * taps, and a partial last tile, by tff_qs8_packw_taps. */
static inline void tff_qs8_packw_tiles(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                       int32_t* sums, tff_qs8_packw_full_fn* full) {
  for (size_t n0 = 0; n0 < n; n0 += 16, packed += 16 * k) {
    const size_t rows = n - n0 < 16 ? n - n0 : 16;
    uint32_t s[16] = {0};
    const size_t i = rows == 16 ? full(k, w + n0 * k, packed, s) : 0;
    tff_qs8_packw_taps(k, rows, i, w + n0 * k, packed, s);
    for (size_t j = 0; j < rows; ++j) sums[n0 + j] = (int32_t)s[j];
  }
}

#endif /* TFLITE_FAST_UKERNELS_QS8_PACKW_H_ */
