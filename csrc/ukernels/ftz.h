/* XNNPACK runs its kernels with denormals flushed (FTZ: denormal results
 * become 0; DAZ: denormal inputs read as 0). Kernels that follow its float
 * bits do the same: tff_ftz for one value anywhere, and on x86 the MXCSR
 * bits set around a kernel (scalar SSE arithmetic obeys them too). */
#ifndef TFF_UKERNELS_FTZ_H_
#define TFF_UKERNELS_FTZ_H_

#include <float.h>
#include <math.h>

/* A denormal becomes a zero of its sign. */
static inline float tff_ftz(float v) { return fabsf(v) < FLT_MIN ? copysignf(0.0f, v) : v; }

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>
/* Sets FTZ (MXCSR bit 15) and DAZ (bit 6); returns the value to restore. */
static inline unsigned tff_ftz_enter(void) {
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040u);
  return csr;
}
static inline void tff_ftz_leave(unsigned csr) { _mm_setcsr(csr); }
#else
/* Elsewhere the kernels run in the default mode (within float tolerance). */
static inline unsigned tff_ftz_enter(void) { return 0; }
static inline void tff_ftz_leave(unsigned csr) { (void)csr; }
#endif

#endif /* TFF_UKERNELS_FTZ_H_ */
