/* The body of the SIMD f32-vrsqrt kernels: TFF_W lanes with denormals
 * flushed for the call (ukernels/ftz.h); the last n mod TFF_W elements go
 * through the same vector step from a padded copy, so every result comes
 * from the same y0. Before including, include a ukernels/simd header, then
 * define TFF_RSQRT (y0: the instruction's estimate on x86) and
 * TFF_ANDNOT_EQ(a, b, v) (v where a != b, else +0). */
#include "f32-vrsqrt.h"

#define TFF_CAT2(a, b) a##b
#define TFF_CAT(a, b) TFF_CAT2(a, b)

static inline TFF_V rsqrt_step(TFF_V x) {
  const TFF_V y0 = TFF_RSQRT(x);
  const TFF_V t = TFF_MUL(TFF_SUB(TFF_MUL(x, TFF_MUL(y0, y0)), TFF_SPLAT(1.0f)),
                          TFF_MUL(TFF_SPLAT(0.5f), y0));
  return TFF_ANDNOT_EQ(x, TFF_SPLAT(INFINITY), TFF_SUB(y0, t));
}

void TFF_CAT(tff_f32_vrsqrt_ukernel__, TFF_ISA)(size_t n, const float* x, float* y) {
  const unsigned csr = tff_ftz_enter();
  size_t i = 0;
  for (; i + TFF_W <= n; i += TFF_W) TFF_STORE(y + i, rsqrt_step(TFF_LOAD(x + i)));
  if (i < n) {
    float buf[TFF_W];
    for (size_t j = 0; j < TFF_W; ++j) buf[j] = i + j < n ? x[i + j] : 1.0f;
    TFF_STORE(buf, rsqrt_step(TFF_LOAD(buf)));
    for (size_t j = 0; i + j < n; ++j) y[i + j] = buf[j];
  }
  tff_ftz_leave(csr);
}
