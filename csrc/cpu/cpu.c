/* CPU feature detection; see cpu.h. */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
#define TFF_X86 1
#include <cpuid.h>
#elif defined(__aarch64__) || defined(__arm__)
#define TFF_ARM 1
#include <sys/auxv.h>
#endif

/* Which paths this build contains: setup.py defines TFF_BUILD_<ISA> when it
 * compiles that ISA's kernel files. */
static uint32_t compiled_mask(void) {
  uint32_t m = 0;
#ifdef TFF_BUILD_SSE41
  m |= TFF_ISA_SSE41;
#endif
#ifdef TFF_BUILD_AVX2
  m |= TFF_ISA_AVX2;
#endif
#ifdef TFF_BUILD_AVX512VNNI
  m |= TFF_ISA_AVX512VNNI;
#endif
#ifdef TFF_BUILD_NEON
  m |= TFF_ISA_NEON;
#endif
#ifdef TFF_BUILD_NEONDOT
  m |= TFF_ISA_NEONDOT;
#endif
  return m;
}

#if TFF_X86
static uint64_t xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void) {
  unsigned a, b, c, d;
  uint32_t m = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
  if (sse41) m |= TFF_ISA_SSE41;
  if (!osxsave || !avx) return m;
  const uint64_t xcr0 = xgetbv0();
  const int ymm_os = (xcr0 & 0x6) == 0x6, zmm_os = (xcr0 & 0xe6) == 0xe6;
  if (__get_cpuid_max(0, 0) < 7) return m;
  __cpuid_count(7, 0, a, b, c, d);
  const int avx2 = (b >> 5) & 1;
  const int f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
  const int vnni = (c >> 11) & 1;
  if (ymm_os && avx2 && fma) m |= TFF_ISA_AVX2;
  if (zmm_os && f && dq && bw && vl && vnni) m |= TFF_ISA_AVX512VNNI;
  return m;
}
#elif TFF_ARM
static uint32_t detect(void) {
  uint32_t m = 0;
#if defined(__aarch64__)
  const unsigned long hw = getauxval(AT_HWCAP);
  m |= TFF_ISA_NEON; /* ASIMD is mandatory on aarch64 */
  if (hw & (1ul << 20)) m |= TFF_ISA_NEONDOT; /* HWCAP_ASIMDDP */
#else
  if (getauxval(AT_HWCAP) & (1ul << 12)) m |= TFF_ISA_NEON; /* HWCAP_NEON */
#endif
  return m;
}
#else
static uint32_t detect(void) { return 0; }
#endif

static const struct {
  const char* name;
  uint32_t bit;
} kIsas[] = {
    {"sse41", TFF_ISA_SSE41}, {"avx2", TFF_ISA_AVX2}, {"avx512vnni", TFF_ISA_AVX512VNNI},
    {"neon", TFF_ISA_NEON},   {"neondot", TFF_ISA_NEONDOT},
};

static uint32_t g_detected, g_effective;

/* Paths compiled but never run against their scalar twins on real hardware
 * (no AVX-512 machine in CI yet): dispatch skips them, so a user's CPU can
 * never get bits we have not checked. The kernel tests still run them on a
 * CPU that has the ISA. */
static const uint32_t kUnverified = TFF_ISA_AVX512VNNI;

int tff_cpu_init(const char** bad_name) {
  static char bad[64];
  g_detected = detect();
  g_effective = g_detected & compiled_mask() & ~kUnverified;
  const char* env = getenv("TFLITE_FAST_DISABLE_ISA");
  if (env == NULL) return 0;
  const char* p = env;
  while (*p) {
    size_t n = strcspn(p, ", ");
    if (n > 0) {
      uint32_t bit = 0;
      if (n == 3 && strncmp(p, "all", 3) == 0) bit = ~0u;
      for (size_t i = 0; i < sizeof(kIsas) / sizeof(kIsas[0]); ++i)
        if (strlen(kIsas[i].name) == n && strncmp(p, kIsas[i].name, n) == 0) bit = kIsas[i].bit;
      if (bit == 0) {
        const size_t k = n < sizeof(bad) - 1 ? n : sizeof(bad) - 1;
        memcpy(bad, p, k);
        bad[k] = '\0';
        *bad_name = bad;
        return -1;
      }
      g_effective &= ~bit;
    }
    p += n;
    while (*p == ',' || *p == ' ') ++p;
  }
  return 0;
}

uint32_t tff_cpu_compiled(void) { return compiled_mask(); }
uint32_t tff_cpu_detected(void) { return g_detected; }
uint32_t tff_cpu_effective(void) { return g_effective; }

const char* tff_isa_name(uint32_t isa) {
  for (size_t i = 0; i < sizeof(kIsas) / sizeof(kIsas[0]); ++i)
    if (kIsas[i].bit == isa) return kIsas[i].name;
  return "scalar";
}

uint32_t tff_isa_best(uint32_t mask) {
  uint32_t best = TFF_ISA_SCALAR;
  for (uint32_t b = 1; b && b <= mask; b <<= 1)
    if (mask & b) best = b;
  return best;
}
