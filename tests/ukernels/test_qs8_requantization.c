/* qs8-requantization kernels against the scalar twin, each scheme over
 * n = 0..27 (three blocks of 8 and a tail) and n = 1000: accumulators
 * random, extreme (INT32_MIN/MAX, 0, ±1) and at rounding ties; per-channel
 * parameters random and extreme (multipliers 0, 1, 2^30, INT32_MAX and any
 * int32; shifts −31..30; float scales 0, subnormal, inf, FLT_MAX; double
 * scales 2^−140..2^120 and exact halves); zero points −128..127, bounds
 * with lo == hi; guard bytes after the outputs. The scalar gemmlowp twin is
 * also checked against floor((x·m + 2^30)/2^31) then round half away. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/qs8-requantization/qs8-requantization.h"

#define NMAX 1000
#define ROUNDS 300

static int32_t acc_value(void) {
  static const int32_t extremes[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX, INT32_MAX - 1};
  switch (rnd() % 6) {
    case 0: return extremes[rnd() % 7];
    case 1: return rnd_range(-1000, 1000);
    case 2: { /* an odd multiple of 2^(e−1): a tie when divided by 2^e */
      const int e = (int)(rnd() % 31);
      return (int32_t)((2 * rnd_range(-1000, 1000) + 1) * (1LL << e) / 2);
    }
    case 3: return rnd_range(-(1 << 20), 1 << 20);
    default: return (int32_t)rnd();
  }
}

static int32_t mult_value(void) {
  static const int32_t extremes[] = {0, 1, 1 << 30, INT32_MAX, INT32_MIN, -1};
  switch (rnd() % 4) {
    case 0: return extremes[rnd() % 6];
    case 1: return (int32_t)rnd();
    default: return (1 << 30) + (int32_t)(rnd() & 0x3fffffff); /* tff_quantize_multiplier's */
  }
}

static int32_t shift_value(void) {
  static const int32_t extremes[] = {-31, -30, -1, 0, 1, 29, 30};
  return rnd() % 3 == 0 ? extremes[rnd() % 7] : rnd_range(-31, 30);
}

static float fscale_value(void) {
  static const float extremes[] = {0.0f, 1e-45f, 1e-40f, FLT_MIN, 0.5f, 1.0f, 0.25f, FLT_MAX,
                                   INFINITY};
  if (rnd() % 4 == 0) return extremes[rnd() % 9];
  return ldexpf(0.5f + 0.5f * rnd_unit(), rnd_range(-40, 10));
}

static double dscale_value(void) {
  static const double extremes[] = {0.5, 0.25, 1.0, 0x1p-140, 0x1p120, 1.5};
  if (rnd() % 4 == 0) return extremes[rnd() % 6];
  return ldexp(0.5 + 0.5 * rnd_unit() + 0x1p-40 * rnd(), rnd_range(-140, 120));
}

static void bounds(int32_t* lo, int32_t* hi) {
  *lo = rnd_range(-128, 127);
  *hi = rnd() % 8 == 0 ? *lo : rnd_range(*lo, 127);
  if (rnd() % 4 == 0) *lo = -128, *hi = 127;
}

static int32_t acc[NMAX], mult[NMAX], shift[NMAX];
static float fscale[NMAX];
static double dscale[NMAX];
static int8_t want[NMAX + GUARD_BYTES], got[NMAX + GUARD_BYTES];

/* Round r's n: 0..27 eight times each, then alternately NMAX and 0..27. */
static size_t case_n(int r) {
  return r < 28 * 8 || r % 2 == 0 ? (size_t)(r % 28) : NMAX;
}

static void fill(size_t n) {
  for (size_t i = 0; i < n; ++i) {
    acc[i] = acc_value();
    mult[i] = mult_value();
    shift[i] = shift_value();
    fscale[i] = fscale_value();
    dscale[i] = dscale_value();
  }
}

/* got vs want over n outputs and the guard; 1 when they differ. */
static int differ(const char* name, size_t n) {
  for (size_t i = 0; i < n + GUARD_BYTES; ++i) {
    const int8_t e = i < n ? want[i] : (int8_t)GUARD;
    if (got[i] != e) {
      printf("FAIL %s: n=%zu at %zu: got %d want %d (acc %d mult %d shift %d fscale %a dscale "
             "%a)\n", name, n, i, got[i], e, i < n ? acc[i] : 0, i < n ? mult[i] : 0,
             i < n ? shift[i] : 0, i < n ? (double)fscale[i] : 0.0, i < n ? dscale[i] : 0.0);
      return 1;
    }
  }
  return 0;
}

static void reset(void) {
  memset(want, GUARD, sizeof(want));
  memset(got, GUARD, sizeof(got));
}

/* The gemmlowp scalar twin against its closed form: srdhm = floor((x·m +
 * 2^30)/2^31) (ties up; saturated), then round(q/2^k) half away. */
static int check_gemmlowp_formula(void) {
  for (int r = 0; r < 200000; ++r) {
    const int32_t x = acc_value(), m = mult_value(), s = shift_value();
    const int left = s > 0 ? s : 0, k = s > 0 ? 0 : -s;
    const int64_t xs = (int32_t)((uint32_t)x << left);
    const int64_t p = xs * m + (1LL << 30);
    int64_t q = (p >= 0 ? p : p - ((1LL << 31) - 1)) / (1LL << 31); /* floor */
    if (q > INT32_MAX) q = INT32_MAX;
    const int64_t d = 1LL << k, aq = q < 0 ? -q : q;
    const int64_t mag = (aq + d / 2) / d; /* k = 0: d/2 = 0 */
    const int64_t e = q < 0 ? -mag : mag;
    if (tff_mbqm(x, m, s) != e) {
      printf("FAIL tff_mbqm(%d, %d, %d) = %d, closed form %lld\n", x, m, s, tff_mbqm(x, m, s),
             (long long)e);
      return 1;
    }
  }
  printf("PASS tff_mbqm closed form (200000 cases)\n");
  return 0;
}

#define RUN_FAMILY(P, ...)                                                            \
  for (int ci = 1; ci < P##_num_configs; ++ci) {                                     \
    const P##_config* cfg = &P##_configs[ci];                                        \
    if (!isa_runs(cfg->isa, cfg->name)) continue;                                    \
    int bad = 0, cases = 0;                                                          \
    for (int r = 0; r < ROUNDS * 2 && !bad; ++r, ++cases) {                          \
      const size_t n = case_n(r);                                                    \
      fill(n);                                                                       \
      int32_t lo, hi, zp = rnd_range(-128, 127);                                     \
      bounds(&lo, &hi);                                                              \
      __VA_ARGS__;                                                                   \
      reset();                                                                       \
      P##_configs[0].fn(n, acc, want, &prm);                                         \
      cfg->fn(n, acc, got, &prm);                                                    \
      bad = differ(cfg->name, n);                                                    \
    }                                                                                \
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);                     \
    failed += bad;                                                                   \
  }

int main(void) {
  int failed = check_gemmlowp_formula();
  RUN_FAMILY(tff_qs8_requantize_fp32,
             const tff_qs8_requantize_fp32_params prm = {fscale, (float)(lo - zp),
                                                         (float)(hi - zp), zp})
  RUN_FAMILY(tff_qs8_requantize_gemmlowp,
             const tff_qs8_requantize_gemmlowp_params prm = {mult, shift, zp, lo, hi})
  RUN_FAMILY(tff_qs8_requantize_double,
             const tff_qs8_requantize_double_params prm = {dscale, zp, lo, hi})
  /* A family whose only kernel is the scalar twin (double on armv7) prints it. */
  if (tff_qs8_requantize_double_num_configs == 1)
    printf("PASS %s (scalar only)\n", tff_qs8_requantize_double_configs[0].name);
  return failed != 0;
}
