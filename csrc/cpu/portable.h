/* Compiler portability for the few GCC/Clang builtins and attributes the C
 * code uses, so the same sources build with GCC, Clang (Apple's too) and
 * MSVC. Everything here is inline: no object file, no dispatch. */
#ifndef TFLITE_FAST_CPU_PORTABLE_H_
#define TFLITE_FAST_CPU_PORTABLE_H_

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define TFF_ALWAYS_INLINE __forceinline
#define TFF_NOINLINE __declspec(noinline)
#else
#define TFF_ALWAYS_INLINE inline __attribute__((always_inline))
#define TFF_NOINLINE __attribute__((noinline))
#endif

/* Leading zero bits of x; x must not be 0 (the builtin's contract). */
static inline int tff_clz32(uint32_t x) {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long i;
  _BitScanReverse(&i, x);
  return 31 - (int)i;
#else
  return __builtin_clz(x);
#endif
}

/* Redundant sign bits of x: leading bits equal to the sign bit, not counting
 * the sign bit itself (GCC's __builtin_clrsb; 31 for 0 and -1). */
static inline int tff_clrsb32(int32_t x) {
  const uint32_t v = (uint32_t)(x ^ (x >> 31)); /* sign bits -> leading zeros */
  return v == 0 ? 31 : tff_clz32(v) - 1;
}

/* A spin-wait hint: lets the sibling hyperthread run (x86 PAUSE, ARM YIELD). */
static inline void tff_cpu_relax(void) {
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_IX86))
  _mm_pause();
#elif defined(_MSC_VER) && !defined(__clang__) && defined(_M_ARM64)
  __yield();
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

#endif /* TFLITE_FAST_CPU_PORTABLE_H_ */
