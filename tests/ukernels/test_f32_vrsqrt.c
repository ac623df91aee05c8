/* f32-vrsqrt kernels: normal positive inputs within 2^-20 relative of
 * 1/sqrt (one Newton step from a 12-bit estimate gives ~23 bits); the
 * specials as the scalar twin (FTZ/DAZ: 0, -0, denormals and negatives NaN,
 * +inf 0); every length up to 40 from every alignment so each tail runs, a
 * guard around y (ukernel_test.h). The neon kernel has no estimate of its
 * own: its every result is the scalar twin's, bit for bit (NaN as NaN),
 * over all exponents (denormals, and y0² underflowing above 2^126). */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/f32-vrsqrt/f32-vrsqrt.h"

/* 1 when got[q] and want[q] agree for every q < n, printing the first that does not. */
static int same_bits(const char* name, size_t n, const float* x, const float* got,
                     const float* want) {
  for (size_t q = 0; q < n; ++q) {
    if (isnan(want[q]) ? !isnan(got[q]) : memcmp(&got[q], &want[q], sizeof(float)) != 0) {
      printf("FAIL %s: 1/sqrt(%a): got %a want %a\n", name, x[q], got[q], want[q]);
      return 0;
    }
  }
  return 1;
}

int main(void) {
  int failed = 0;
  const float specials[] = {0.0f, -0.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-45f, 1e-39f, 1e-38f,
                            1.0f, 4.0f, 0.25f, 1e30f};
  const size_t ns = sizeof(specials) / sizeof(specials[0]);
  enum { NWIDE = 4000 };
  static float wide[NWIDE], wgot[NWIDE], wwant[NWIDE];
  for (size_t q = 0; q < NWIDE; ++q)
    wide[q] = ldexpf(0.5f + rnd_unit(), rnd_range(-150, 127)) * (q % 8 ? 1.0f : -1.0f);
  for (int ci = 0; ci < tff_f32_vrsqrt_num_configs; ++ci) {
    const tff_f32_vrsqrt_config* cfg = &tff_f32_vrsqrt_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const int exact = cfg->isa == TFF_ISA_SCALAR || cfg->isa == TFF_ISA_NEON;
    int cases = 0, bad = 0;
    for (size_t n = 0; n <= 40 && !bad; ++n) {
      for (size_t off = 0; off < 4 && !bad; ++off, ++cases) {
        float* x = fenced(n, off, NAN);
        float* y = fenced(n, off, 12345.0f);
        for (size_t q = 0; q < n; ++q) x[q] = ldexpf(0.5f + rnd_unit(), rnd_range(-100, 100));
        cfg->fn(n, x, y);
        for (size_t q = 0; q < n && !bad; ++q) {
          const double e = 1.0 / sqrt((double)x[q]);
          if (!(fabs((double)y[q] - e) <= e * 0x1p-20)) {
            printf("FAIL %s: n=%zu 1/sqrt(%.9g): got %.9g want %.9g\n", cfg->name, n, x[q], y[q],
                   e);
            bad = 1;
          }
        }
        if (!bad && !fence_holds(y, n, off, 12345.0f)) {
          printf("FAIL %s: n=%zu off=%zu wrote outside y\n", cfg->name, n, off);
          bad = 1;
        }
        fenced_free(x, off);
        fenced_free(y, off);
      }
    }
    float got[16], want[16];
    cfg->fn(ns, specials, got);
    tff_f32_vrsqrt_configs[0].fn(ns, specials, want);
    for (size_t q = 0; q < ns && !bad; ++q) {
      const int same = isnan(want[q]) ? isnan(got[q]) : (want[q] == got[q] || (!exact && q >= 9));
      if (!same) {
        printf("FAIL %s: 1/sqrt(%g): got %g want %g\n", cfg->name, specials[q], got[q], want[q]);
        bad = 1;
      }
    }
    ++cases;
    if (exact && !bad) {
      cfg->fn(NWIDE, wide, wgot);
      tff_f32_vrsqrt_configs[0].fn(NWIDE, wide, wwant);
      bad = !same_bits(cfg->name, NWIDE, wide, wgot, wwant);
      ++cases;
    }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += bad;
  }
  return failed != 0;
}
