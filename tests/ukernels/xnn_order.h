/* The summation order of XNNPACK's float reduce kernels, modelled lane by
 * lane in plain C for the ukernel tests of f32-rsum and
 * f32-raddstoreexpminusmax: W lanes, NACC accumulators taking the vectors of
 * each NACC·W block in turn, ... (see those family headers). */
#ifndef TFF_TESTS_XNN_ORDER_H_
#define TFF_TESTS_XNN_ORDER_H_

#include <stddef.h>

#include "cpu/cpu.h"

/* The lanes W of an ISA's kernel. */
static inline int xnn_lanes(uint32_t isa) { return isa == TFF_ISA_AVX2 ? 8 : (isa ? 4 : 1); }

/* Where the last n mod W elements go: element j into lane j (avx, scalar),
 * all into lane 0 in order (sse2 rsum), or the first two into lanes 0 and 1
 * when there are two or three and the odd one into lane 0 (sse2 exp). */
enum { XNN_TAIL_LANES, XNN_TAIL_LANE0, XNN_TAIL_PAIR };

static inline void xnn_add_tail(float* lanes, const float* v, size_t n, int style) {
  for (size_t j = 0; j < n; ++j) {
    const size_t l = style == XNN_TAIL_LANES || (style == XNN_TAIL_PAIR && j < (n & 2)) ? j : 0;
    lanes[l] += v[j];
  }
}

static inline float xnn_fold(float* a, int w) {
  for (; w > 1; w /= 2)
    for (int l = 0; l < w / 2; ++l) a[l] += a[l + w / 2];
  return a[0];
}

#endif /* TFF_TESTS_XNN_ORDER_H_ */
