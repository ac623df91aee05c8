/* f32-raddstoreexpminusmax: y[i] = exp(x[i] − max) for i < n, returning
 * Σ y[i]: the middle pass of XNNPACK's float SOFTMAX (rmax, this, then
 * y·(1/Σ)), as its rr2_p5 kernels compute it:
 *   x' = x − max;  n = x'·log2e + 1.5·2^23 (round to an integer in the low
 *   mantissa bits);  s = 2^n from those bits shifted into the exponent;
 *   n −= 1.5·2^23;  t = x' + n·(−ln2_hi) + n·(−ln2_lo) (Cody-Waite);
 *   p = c1 + t·(c2 + t·(c3 + t·(c4 + t·c5)))  (Horner);
 *   y = s + (t·s)·p,  and +0 where x' < −87.34 (below the normal range).
 * Each "a·b + c" is one FMA in the avx2 kernel (XNNPACK's avx2 rr2_p5
 * u32_acc2) and a multiply then an add in the sse41 kernel (its sse2 rr2_p5
 * u16_acc2) and the scalar twin (its scalar rr2_p5 u4_acc2).
 * The sum: W lanes, two vector accumulators taking the four vectors of each
 * 4W block in turn (0, 1, 0, 1), added together, then single vectors, then
 * the last n mod W elements (avx2: lane by lane; sse41: the first two into
 * lanes 0 and 1 when there are two or three, the odd one into lane 0), then
 * the lanes folded in halves. So the bits depend on the ISA as XNNPACK's
 * do. On AVX-512 XNNPACK picks avx512f u64_acc2 (W = 16): our avx512 float
 * path is out of dispatch (cpu.c), so an AVX-512 CPU runs the avx2 kernel,
 * within float tolerance of AUTO there. The neon kernel (armv7 and aarch64)
 * is the sse41 one at W = 4 with the tail in lanes, under ARM's FZ; XNNPACK's
 * ARM kernel is a different method (neonfma rr1_lut64_p2), within float
 * tolerance. */
#ifndef TFF_UKERNELS_F32_RADDSTOREEXPMINUSMAX_H_
#define TFF_UKERNELS_F32_RADDSTOREEXPMINUSMAX_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"
#include <string.h>

typedef float tff_f32_raddstoreexpminusmax_ukernel(size_t n, const float* x, float max, float* y);
typedef tff_f32_raddstoreexpminusmax_ukernel* tff_f32_raddstoreexpminusmax_fn;
TFF_DECLARE_FAMILY(tff_f32_raddstoreexpminusmax)

/* The constants of XNNPACK's rr2_p5 exp. */
#define TFF_EXP_LOG2E 0x1.715476p+0f
#define TFF_EXP_MAGIC 0x1.8000FEp23f
#define TFF_EXP_MINUS_LN2_HI (-0x1.62E400p-1f)
#define TFF_EXP_MINUS_LN2_LO (-0x1.7F7D1Cp-20f)
#define TFF_EXP_C5 0x1.0F9F9Cp-7f
#define TFF_EXP_C4 0x1.573A1Ap-5f
#define TFF_EXP_C3 0x1.555A80p-3f
#define TFF_EXP_C2 0x1.FFFDC6p-2f
#define TFF_EXP_C1 0x1.FFFFF6p-1f
#define TFF_EXP_CUTOFF (-0x1.5D589Ep6f)

/* The bits of v shifted left by 23: 2^n from n's low mantissa bits. */
static inline float tff_f32_shl23(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof(b));
  b <<= 23;
  memcpy(&v, &b, sizeof(v));
  return v;
}

/* One element of the formula above: a·b + c fused when `fused` (fmaf is the
 * single rounding of the vector FMA). The remainder of every kernel, and the
 * scalar twin. */
static inline float tff_f32_expminus(float x, float max, int fused) {
#define TFF_EXP_MADD(a, b, c) (fused ? fmaf((a), (b), (c)) : (a) * (b) + (c))
  const float xm = x - max;
  float n = TFF_EXP_MADD(xm, TFF_EXP_LOG2E, TFF_EXP_MAGIC);
  const float s = tff_f32_shl23(n);
  n = n - TFF_EXP_MAGIC;
  float t = TFF_EXP_MADD(n, TFF_EXP_MINUS_LN2_HI, xm);
  t = TFF_EXP_MADD(n, TFF_EXP_MINUS_LN2_LO, t);
  float p = TFF_EXP_MADD(TFF_EXP_C5, t, TFF_EXP_C4);
  p = TFF_EXP_MADD(p, t, TFF_EXP_C3);
  p = TFF_EXP_MADD(p, t, TFF_EXP_C2);
  p = TFF_EXP_MADD(p, t, TFF_EXP_C1);
  t = t * s;
  const float f = TFF_EXP_MADD(t, p, s);
#undef TFF_EXP_MADD
  return xm < TFF_EXP_CUTOFF ? 0.0f : f;
}

#endif /* TFF_UKERNELS_F32_RADDSTOREEXPMINUSMAX_H_ */
