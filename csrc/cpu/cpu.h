/* ISA paths as a bitmask (ruy's Path): compiled ∧ detected ∧ not disabled.
 *
 * Detection runs once (tff_cpu_init, called at import): x86 by CPUID plus
 * XGETBV (the OS must save the YMM/ZMM state), ARM by getauxval(AT_HWCAP)
 * (Linux) or sysctlbyname (macOS).
 * TFLITE_FAST_DISABLE_ISA="avx512vnni,avx2" (or "all") removes paths, so
 * every ISA level this CPU has can be tested against the scalar twins.
 * Kernels are chosen at prepare from tff_cpu_effective(), never in a loop. */
#ifndef TFLITE_FAST_CPU_CPU_H_
#define TFLITE_FAST_CPU_CPU_H_

#include <stdint.h>

enum {
  TFF_ISA_SCALAR = 0,
  TFF_ISA_SSE41 = 1u << 0,
  TFF_ISA_AVX2 = 1u << 1,      /* with FMA and F16C; our kernels never contract requantization */
  TFF_ISA_AVX512VNNI = 1u << 2, /* F, BW, DQ, VL and VNNI together */
  TFF_ISA_NEON = 1u << 8,
  TFF_ISA_NEONDOT = 1u << 9,   /* aarch64 SDOT */
};

/* Detects once and applies TFLITE_FAST_DISABLE_ISA. Returns 0, or -1 when
 * the variable names an unknown ISA (the name is in *bad_name). */
int tff_cpu_init(const char** bad_name);
uint32_t tff_cpu_compiled(void);
uint32_t tff_cpu_detected(void);
uint32_t tff_cpu_effective(void);
/* "sse41", "avx2", ... for one bit; "scalar" for 0. */
const char* tff_isa_name(uint32_t isa);
/* The best single path in `mask` (highest bit), TFF_ISA_SCALAR if none. */
uint32_t tff_isa_best(uint32_t mask);

#endif /* TFLITE_FAST_CPU_CPU_H_ */
