/* The body of every f32-raddstoreexpminusmax kernel (see the family
 * header). Before including, include a ukernels/simd header, then define
 * TFF_FUSED (0/1), TFF_MADD(a, b, c)
 * (a·b + c, fused iff TFF_FUSED), TFF_SHL23(v) (the bits of v shifted left
 * by 23), TFF_ZERO_LT(x, c, f) (+0 where x < c, else f) and TFF_TAIL_LANES
 * (1: tail element j into lane j; 0: sse2's order). The call runs under
 * FTZ/DAZ (ukernels/ftz.h). */
#include "f32-raddstoreexpminusmax.h"
#include "ukernels/f32-rsum/f32-rsum.h"
#include "ukernels/ftz.h"

#define TFF_CAT2(a, b) a##b
#define TFF_CAT(a, b) TFF_CAT2(a, b)

static inline TFF_V expminus(TFF_V x, TFF_V vmax) {
  const TFF_V xm = TFF_SUB(x, vmax);
  TFF_V n = TFF_MADD(xm, TFF_SPLAT(TFF_EXP_LOG2E), TFF_SPLAT(TFF_EXP_MAGIC));
  const TFF_V s = TFF_SHL23(n);
  n = TFF_SUB(n, TFF_SPLAT(TFF_EXP_MAGIC));
  TFF_V t = TFF_MADD(n, TFF_SPLAT(TFF_EXP_MINUS_LN2_HI), xm);
  t = TFF_MADD(n, TFF_SPLAT(TFF_EXP_MINUS_LN2_LO), t);
  TFF_V p = TFF_MADD(TFF_SPLAT(TFF_EXP_C5), t, TFF_SPLAT(TFF_EXP_C4));
  p = TFF_MADD(p, t, TFF_SPLAT(TFF_EXP_C3));
  p = TFF_MADD(p, t, TFF_SPLAT(TFF_EXP_C2));
  p = TFF_MADD(p, t, TFF_SPLAT(TFF_EXP_C1));
  t = TFF_MUL(t, s);
  return TFF_ZERO_LT(xm, TFF_SPLAT(TFF_EXP_CUTOFF), TFF_MADD(t, p, s));
}

float TFF_CAT(tff_f32_raddstoreexpminusmax_ukernel__, TFF_ISA)(size_t n, const float* x,
                                                              float max, float* y) {
  const unsigned csr = tff_ftz_enter();
  const TFF_V vmax = TFF_SPLAT(max);
  TFF_V acc0 = TFF_SPLAT(0.0f), acc1 = TFF_SPLAT(0.0f);
  for (; n >= 4 * TFF_W; n -= 4 * TFF_W, x += 4 * TFF_W, y += 4 * TFF_W) {
    const TFF_V f0 = expminus(TFF_LOAD(x), vmax);
    const TFF_V f1 = expminus(TFF_LOAD(x + TFF_W), vmax);
    const TFF_V f2 = expminus(TFF_LOAD(x + 2 * TFF_W), vmax);
    const TFF_V f3 = expminus(TFF_LOAD(x + 3 * TFF_W), vmax);
    TFF_STORE(y, f0);
    TFF_STORE(y + TFF_W, f1);
    TFF_STORE(y + 2 * TFF_W, f2);
    TFF_STORE(y + 3 * TFF_W, f3);
    acc0 = TFF_ADD(TFF_ADD(acc0, f0), f2);
    acc1 = TFF_ADD(TFF_ADD(acc1, f1), f3);
  }
  TFF_V acc = TFF_ADD(acc0, acc1);
  for (; n >= TFF_W; n -= TFF_W, x += TFF_W, y += TFF_W) {
    const TFF_V f = expminus(TFF_LOAD(x), vmax);
    TFF_STORE(y, f);
    acc = TFF_ADD(acc, f);
  }
  float lanes[TFF_W];
  TFF_STORE(lanes, acc);
  for (size_t j = 0; j < n; ++j) {
    y[j] = tff_f32_expminus(x[j], max, TFF_FUSED);
    const size_t l = TFF_TAIL_LANES || j < (n & 2) ? j : 0;
    lanes[l] = lanes[l] + y[j];
  }
  const float sum = tff_f32_hsum_lanes(lanes, TFF_W);
  tff_ftz_leave(csr);
  return sum;
}
