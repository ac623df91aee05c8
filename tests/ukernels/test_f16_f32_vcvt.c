/* f16-f32-vcvt kernels: the bits of the scalar twin for every binary16
 * (signalling NaNs, subnormals, infinities), at every start and length up
 * to 40 (each tail and NaN fallback block), with a guard after y; again
 * with the FP control's flush-to-zero modes set (x86: MXCSR's DAZ and FTZ;
 * ARM: FZ, FZ16 on aarch64, and default NaN), which must not move a bit.
 * The scalar twin itself against the bit formula: sign, exponent rebias,
 * m·2^-24. */
#include <math.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "ukernel_test.h"
#include "ukernels/f16-f32-vcvt/f16-f32-vcvt.h"

/* The FP control word, and the bits of its flush (and default-NaN) modes. */
#if defined(__x86_64__) || defined(__i386__)
#define FLUSH_BITS 0x8040u
#define FLUSH_NAME " (DAZ/FTZ)"
static uint64_t get_fp_ctrl(void) { return _mm_getcsr(); }
static void set_fp_ctrl(uint64_t v) { _mm_setcsr((unsigned)v); }
#elif defined(__aarch64__)
#define FLUSH_BITS ((1u << 25) | (1u << 24) | (1u << 19))
#define FLUSH_NAME " (DN/FZ/FZ16)"
static uint64_t get_fp_ctrl(void) {
  uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v));
  return v;
}
static void set_fp_ctrl(uint64_t v) { __asm__ volatile("msr fpcr, %0" : : "r"(v)); }
#elif defined(__arm__)
#define FLUSH_BITS ((1u << 25) | (1u << 24))
#define FLUSH_NAME " (DN/FZ)"
static uint64_t get_fp_ctrl(void) {
  uint32_t v;
  __asm__ volatile("vmrs %0, fpscr" : "=r"(v));
  return v;
}
static void set_fp_ctrl(uint64_t v) { __asm__ volatile("vmsr fpscr, %0" : : "r"((uint32_t)v)); }
#endif

static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

/* The float of binary16 h, from its fields. */
static uint32_t expected(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3FFu;
  if (e == 31) return sign | 0x7F800000u | (m << 13);
  if (e == 0) return sign | bits_of(ldexpf((float)m, -24));
  return sign | ((e + 112u) << 23) | (m << 13);
}

static uint16_t all[65536];
static float want[65536], got[65536 + 1];

static int check(const tff_f16_f32_vcvt_config* cfg, const char* how) {
  for (size_t n = 0; n <= 40; ++n)
    for (size_t s = 0; s + n <= 65536; s += 997 + n) {
      got[s + n] = 12345.0f;
      cfg->fn(n, all + s, got + s);
      for (size_t q = s; q < s + n; ++q)
        if (bits_of(got[q]) != bits_of(want[q])) {
          printf("FAIL %s%s: n=%zu h=0x%04x: got 0x%08x want 0x%08x\n", cfg->name, how, n,
                 all[q], bits_of(got[q]), bits_of(want[q]));
          return 1;
        }
      if (got[s + n] != 12345.0f) {
        printf("FAIL %s%s: n=%zu wrote past the end\n", cfg->name, how, n);
        return 1;
      }
    }
  cfg->fn(65536, all, got);
  for (size_t q = 0; q < 65536; ++q)
    if (bits_of(got[q]) != bits_of(want[q])) {
      printf("FAIL %s%s: h=0x%04x: got 0x%08x want 0x%08x\n", cfg->name, how, all[q],
             bits_of(got[q]), bits_of(want[q]));
      return 1;
    }
  return 0;
}

int main(void) {
  int failed = 0;
  for (uint32_t h = 0; h < 65536; ++h) all[h] = (uint16_t)h;
  tff_f16_f32_vcvt_configs[0].fn(65536, all, want);
  for (uint32_t h = 0; h < 65536; ++h)
    if (bits_of(want[h]) != expected((uint16_t)h)) {
      printf("FAIL %s: h=0x%04x: got 0x%08x want 0x%08x\n", tff_f16_f32_vcvt_configs[0].name, h,
             bits_of(want[h]), expected((uint16_t)h));
      return 1;
    }
  for (int ci = 0; ci < tff_f16_f32_vcvt_num_configs; ++ci) {
    const tff_f16_f32_vcvt_config* cfg = &tff_f16_f32_vcvt_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    int bad = check(cfg, "");
#ifdef FLUSH_BITS
    const uint64_t ctrl = get_fp_ctrl();
    set_fp_ctrl(ctrl | FLUSH_BITS);
    bad = bad || check(cfg, FLUSH_NAME);
    set_fp_ctrl(ctrl);
#endif
    if (!bad) printf("PASS %s (65536 patterns)\n", cfg->name);
    failed += bad;
  }
  return failed != 0;
}
