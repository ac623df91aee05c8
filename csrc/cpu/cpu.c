/* CPU feature detection; see cpu.h. */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#define TFF_X86 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <immintrin.h>
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#elif defined(__APPLE__) && defined(__aarch64__)
#define TFF_ARM 1
#include <sys/sysctl.h>
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
/* CPUID leaf/subleaf into a, b, c, d: MSVC's intrinsic or GCC/Clang's
 * <cpuid.h>; returns 0 when the leaf is beyond the CPU's maximum. */
static int cpuid(unsigned leaf, unsigned sub, unsigned* a, unsigned* b, unsigned* c, unsigned* d) {
#if defined(_MSC_VER) && !defined(__clang__)
  int r[4];
  __cpuid(r, (int)(leaf & 0x80000000u));
  if ((unsigned)r[0] < leaf) return 0;
  __cpuidex(r, (int)leaf, (int)sub);
  *a = (unsigned)r[0], *b = (unsigned)r[1], *c = (unsigned)r[2], *d = (unsigned)r[3];
  return 1;
#else
  if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf) return 0; /* int in clang */
  __cpuid_count(leaf, sub, *a, *b, *c, *d);
  return 1;
#endif
}

/* XCR0: which register states the OS saves on a context switch. */
static uint64_t xgetbv0(void) {
#if defined(_MSC_VER) && !defined(__clang__)
  return _xgetbv(0);
#else
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
#endif
}

/* macOS saves the ZMM state only after a thread's first AVX-512 instruction,
 * so XCR0 can under-report AVX-512 there: detection stays conservative. */
static uint32_t detect(void) {
  unsigned a, b, c, d;
  uint32_t m = 0;
  if (!cpuid(1, 0, &a, &b, &c, &d)) return 0;
  const int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
  const int f16c = (c >> 29) & 1; /* the avx2 level's VCVTPH2PS (f16-f32-vcvt) */
  if (sse41) m |= TFF_ISA_SSE41;
  if (!osxsave || !avx) return m;
  const uint64_t xcr0 = xgetbv0();
  const int ymm_os = (xcr0 & 0x6) == 0x6, zmm_os = (xcr0 & 0xe6) == 0xe6;
  if (!cpuid(7, 0, &a, &b, &c, &d)) return m;
  const int avx2 = (b >> 5) & 1;
  const int f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
  const int vnni = (c >> 11) & 1;
  if (ymm_os && avx2 && fma && f16c) m |= TFF_ISA_AVX2;
  if (zmm_os && f && dq && bw && vl && vnni) m |= TFF_ISA_AVX512VNNI;
#if TFF_EMULATE_AVX512VNNI /* test builds (setup.py, test_ukernels.py): AVX2 runs them */
  if (m & TFF_ISA_AVX2) m |= TFF_ISA_AVX512VNNI;
#endif
  return m;
}
#elif TFF_ARM && defined(__APPLE__)
/* Apple silicon: every arm64 Mac has ASIMD and SDOT (M1 is ARMv8.5). The
 * sysctl (macOS 12+) is asked anyway and wins when it answers; macOS 11 has
 * no such name, and only M1 Macs ran it. */
static uint32_t detect(void) {
  int dot = 1;
  size_t n = sizeof(dot);
  if (sysctlbyname("hw.optional.arm.FEAT_DotProd", &dot, &n, NULL, 0) != 0) dot = 1;
  return TFF_ISA_NEON | (dot ? TFF_ISA_NEONDOT : 0);
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

int tff_cpu_init(const char** bad_name) {
  static char bad[64];
  g_detected = detect();
  g_effective = g_detected & compiled_mask();
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
