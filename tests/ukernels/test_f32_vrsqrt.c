/* f32-vrsqrt kernels: normal positive inputs within 2^-20 relative of
 * 1/sqrt (one Newton step from a 12-bit estimate gives ~23 bits); the
 * specials as the scalar twin (FTZ/DAZ: 0, -0, denormals and negatives NaN,
 * +inf 0); every length up to 40 so each tail runs; a guard after y. */
#include <math.h>

#include "ukernel_test.h"
#include "ukernels/f32-vrsqrt/f32-vrsqrt.h"

int main(void) {
  int failed = 0;
  const float specials[] = {0.0f, -0.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-45f, 1e-39f, 1e-38f,
                            1.0f, 4.0f, 0.25f, 1e30f};
  const size_t ns = sizeof(specials) / sizeof(specials[0]);
  for (int ci = 0; ci < tff_f32_vrsqrt_num_configs; ++ci) {
    const tff_f32_vrsqrt_config* cfg = &tff_f32_vrsqrt_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    int cases = 0, bad = 0;
    for (size_t n = 1; n <= 40 && !bad; ++n, ++cases) {
      float x[41], y[41];
      for (size_t q = 0; q < n; ++q) x[q] = ldexpf(0.5f + rnd_unit(), rnd_range(-100, 100));
      y[n] = 12345.0f;
      cfg->fn(n, x, y);
      for (size_t q = 0; q < n && !bad; ++q) {
        const double e = 1.0 / sqrt((double)x[q]);
        if (!(fabs((double)y[q] - e) <= e * 0x1p-20)) {
          printf("FAIL %s: n=%zu 1/sqrt(%.9g): got %.9g want %.9g\n", cfg->name, n, x[q], y[q], e);
          bad = 1;
        }
      }
      if (!bad && y[n] != 12345.0f) printf("FAIL %s: n=%zu wrote past the end\n", cfg->name, n);
      bad |= y[n] != 12345.0f;
    }
    float got[16], want[16];
    cfg->fn(ns, specials, got);
    tff_f32_vrsqrt_configs[0].fn(ns, specials, want);
    for (size_t q = 0; q < ns && !bad; ++q) {
      const int same = isnan(want[q]) ? isnan(got[q]) : (want[q] == got[q] || q >= 9);
      if (!same) {
        printf("FAIL %s: 1/sqrt(%g): got %g want %g\n", cfg->name, specials[q], got[q], want[q]);
        bad = 1;
      }
    }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases + 1);
    failed += bad;
  }
  return failed != 0;
}
