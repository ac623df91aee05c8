/* XNNPACK runs its kernels with denormals flushed (FTZ: denormal results
 * become 0; DAZ: denormal inputs read as 0). Kernels that follow its float
 * bits do the same: tff_ftz for one value anywhere, and on x86 and ARM the
 * control bits set around a kernel (scalar arithmetic obeys them too). */
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
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARM_FP))
#include <stdint.h>
/* ARM's FZ (FPCR/FPSCR bit 24) is FTZ and DAZ in one, for scalar and NEON
 * arithmetic alike; XNNPACK's thread pool sets it too. armv7 NEON flushes
 * whatever FZ says, so without it a NEON lane and the scalar twin's VFP
 * could differ. The "memory" clobber keeps loads and stores on their side. */
static inline unsigned tff_fpcr_get(void) {
#if defined(__aarch64__)
  uint64_t r;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(r) : : "memory");
  return (unsigned)r; /* bits 32-63 are reserved, zero */
#else
  unsigned r;
  __asm__ __volatile__("vmrs %0, fpscr" : "=r"(r) : : "memory");
  return r;
#endif
}
static inline void tff_fpcr_set(unsigned v) {
#if defined(__aarch64__)
  __asm__ __volatile__("msr fpcr, %0" : : "r"((uint64_t)v) : "memory");
#else
  __asm__ __volatile__("vmsr fpscr, %0" : : "r"(v) : "memory");
#endif
}
static inline unsigned tff_ftz_enter(void) {
  const unsigned csr = tff_fpcr_get();
  tff_fpcr_set(csr | (1u << 24));
  return csr;
}
static inline void tff_ftz_leave(unsigned csr) { tff_fpcr_set(csr); }
#else
/* Elsewhere the kernels run in the default mode (within float tolerance). */
static inline unsigned tff_ftz_enter(void) { return 0; }
static inline void tff_ftz_leave(unsigned csr) { (void)csr; }
#endif

#endif /* TFF_UKERNELS_FTZ_H_ */
