/* f32-vrsqrt: y[i] = 1/sqrt(x[i]) as XNNPACK's rsqrt kernels compute it
 * (xnn_f32_vrsqrt_ukernel__{avx,sse2}_rsqrt, the default, non-"consistent"
 * config): the CPU's estimate y0 (RSQRTPS), one Newton step
 *   y = y0 − (x·(y0·y0) − 1)·(0.5·y0)      (no FMA), 0 where x = +inf,
 * under FTZ/DAZ (XNNPACK runs with denormals flushed): RSQRT(0) and
 * RSQRT(denormal) are NaN, and y0² underflows to 0 above ~1e38 (y = 1.5·y0).
 * The estimate tables are the CPU's own and differ between vendors, so the
 * bits are those of AUTO on the same CPU. The sse41 and avx2 kernels run the
 * instruction; the scalar twin has no such instruction and uses
 * y0 = 1/sqrtf(x), which moves about a quarter of the results by an ulp.
 * XNNPACK's avx512f kernel (VRSQRT14PS, a different estimate) is not matched:
 * our avx512 float path is out of dispatch (cpu.c), so an AVX-512 CPU runs
 * the avx2 kernel here, within float tolerance of AUTO there. The neon kernel
 * computes the scalar twin's bits (its y0, its step, FZ set), not those of
 * XNNPACK's neon kernel (VRSQRTE, two steps), within float tolerance. */
#ifndef TFF_UKERNELS_F32_VRSQRT_H_
#define TFF_UKERNELS_F32_VRSQRT_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ukernels/select.h"

#include "ukernels/ftz.h"

typedef void tff_f32_vrsqrt_ukernel(size_t n, const float* x, float* y);
typedef tff_f32_vrsqrt_ukernel* tff_f32_vrsqrt_fn;
TFF_DECLARE_FAMILY(tff_f32_vrsqrt)

/* The Newton step above from y0 = 1/sqrtf(x), every operation flushed (the
 * scalar twin; SQRT's x·rsqrt(x) uses it too). */
static inline float tff_xnn_rsqrt_step(float x) {
  x = tff_ftz(x);
  const float y0 = 1.0f / sqrtf(x);
  const float t = tff_ftz(tff_ftz(tff_ftz(x * tff_ftz(y0 * y0)) - 1.0f) * tff_ftz(0.5f * y0));
  return tff_ftz(y0 - t);
}

#endif /* TFF_UKERNELS_F32_VRSQRT_H_ */
