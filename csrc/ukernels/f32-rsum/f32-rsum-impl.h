/* The body of every f32-rsum kernel (see f32-rsum.h). Before including,
 * include a ukernels/simd header, then define TFF_ZERO, TFF_SPILL(p, v)
 * and TFF_TAIL_LANES (1: tail element j goes to lane j; 0: all into lane 0,
 * in order). The call runs under FTZ/DAZ (ukernels/ftz.h). */
#include "f32-rsum.h"
#include "ukernels/ftz.h"

#define TFF_CAT2(a, b) a##b
#define TFF_CAT(a, b) TFF_CAT2(a, b)

void TFF_CAT(tff_f32_rsum_ukernel__, TFF_ISA)(size_t n, const float* x, float scale, float* out) {
  const unsigned csr = tff_ftz_enter();
  TFF_V acc0 = TFF_ZERO, acc1 = TFF_ZERO, acc2 = TFF_ZERO, acc3 = TFF_ZERO;
  for (; n >= 4 * TFF_W; n -= 4 * TFF_W, x += 4 * TFF_W) {
    acc0 = TFF_ADD(acc0, TFF_LOAD(x));
    acc1 = TFF_ADD(acc1, TFF_LOAD(x + TFF_W));
    acc2 = TFF_ADD(acc2, TFF_LOAD(x + 2 * TFF_W));
    acc3 = TFF_ADD(acc3, TFF_LOAD(x + 3 * TFF_W));
  }
  TFF_V* const single[3] = {&acc0, &acc1, &acc2};
  for (int k = 0; k < 3 && n >= TFF_W; ++k, n -= TFF_W, x += TFF_W) {
    *single[k] = TFF_ADD(*single[k], TFF_LOAD(x));
  }
  float lanes[TFF_W];
  TFF_SPILL(lanes, TFF_ADD(TFF_ADD(acc0, acc2), TFF_ADD(acc1, acc3)));
  for (size_t j = 0; j < n; ++j) {
    const size_t l = TFF_TAIL_LANES ? j : 0;
    lanes[l] = lanes[l] + x[j];
  }
  *out += tff_f32_hsum_lanes(lanes, TFF_W) * scale;
  tff_ftz_leave(csr);
}
