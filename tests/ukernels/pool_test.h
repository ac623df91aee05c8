/* The shared driver of the pooling kernel tests (f32/qs8 maxpool/avgpool):
 * for every kernel of the family this build has, channels from 1 to
 * 5·W_MAX + 3 (around every vector width and the 4-vector blocks), tap
 * counts 1..30 (with 1, 4, 9, 25), 1-3 pixels per call and random bounds,
 * compares the kernel with the scalar twin bit for bit and the twin with the
 * family's per-channel element (pool.h, the op's formula). Every tap row is
 * its own allocation of exactly `channels` values, so ASan catches a read
 * past it; guard bytes after the output must stay untouched.
 *
 * Before including, define T, P (params type), FAMILY (the select prefix),
 * ELEM (the pool.h element), W_MAX, BIG_TAPS (a tap count past a kernel's
 * fast path, or 0), random_value(), random_params(P*). */
#ifndef TFF_TESTS_POOL_TEST_H_
#define TFF_TESTS_POOL_TEST_H_

#include <string.h>

#include "ukernel_test.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define CONFIG CAT(FAMILY, _config)
#define CONFIGS CAT(FAMILY, _configs)
#define NUM_CONFIGS CAT(FAMILY, _num_configs)

enum { ROWS = 8, MAX_PIXELS = 3, MAX_TAPS = 30 };

/* Runs fn and the twin on one call; 1 when they differ (prints FAIL). */
static int check_call(const CONFIG* cfg, size_t pixels, size_t taps, size_t channels,
                      T* const* rows, int fill) {
  const T** in = malloc(pixels * taps * sizeof(*in));
  for (size_t i = 0; i < pixels * taps; ++i) in[i] = rows[rnd() % ROWS];
  if (fill >= 0) { /* every tap one row: the extremes of a long sum */
    for (size_t i = 0; i < pixels * taps; ++i) in[i] = rows[fill];
  }
  P p;
  random_params(&p);
  const size_t n = pixels * channels;
  T* want = malloc(n * sizeof(T));
  T* got = malloc(n * sizeof(T) + GUARD_BYTES);
  memset(got, GUARD, n * sizeof(T) + GUARD_BYTES);
  CONFIGS[0].fn(pixels, taps, channels, in, want, &p);
  cfg->fn(pixels, taps, channels, in, got, &p);
  int bad = 0;
  for (size_t i = 0; i < n && !bad; ++i) {
    const T direct = ELEM(taps, in + (i / channels) * taps, i % channels, &p);
    if (memcmp(&want[i], &direct, sizeof(T)) || memcmp(&got[i], &want[i], sizeof(T))) {
      printf("FAIL %s: pixels=%zu taps=%zu channels=%zu i=%zu got %g twin %g direct %g\n",
             cfg->name, pixels, taps, channels, i, (double)got[i], (double)want[i],
             (double)direct);
      bad = 1;
    }
  }
  const unsigned char* tail = (const unsigned char*)(got + n);
  for (size_t i = 0; i < GUARD_BYTES && !bad; ++i) {
    if (tail[i] != GUARD) {
      printf("FAIL %s: taps=%zu channels=%zu wrote past the end\n", cfg->name, taps, channels);
      bad = 1;
    }
  }
  free(in);
  free(want);
  free(got);
  return bad;
}

/* ROWS rows of `channels` values, each its own allocation; row 0 holds the
 * lowest value of T in every channel, row 1 the highest. */
static void make_rows(size_t channels, T** rows, T lowest, T highest) {
  for (int r = 0; r < ROWS; ++r) {
    rows[r] = malloc(channels * sizeof(T));
    for (size_t c = 0; c < channels; ++c) rows[r][c] = r == 0 ? lowest : r == 1 ? highest
                                                                                  : random_value();
  }
}

static void free_rows(T** rows) {
  for (int r = 0; r < ROWS; ++r) free(rows[r]);
}

static int check_kernel(const CONFIG* cfg, T lowest, T highest) {
  static const size_t tap_counts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 25, 30};
  int cases = 0, bad = 0;
  for (size_t channels = 1; channels <= 5 * W_MAX + 3 && !bad; ++channels) {
    T* rows[ROWS];
    make_rows(channels, rows, lowest, highest);
    for (size_t k = 0; k < sizeof(tap_counts) / sizeof(tap_counts[0]) && !bad; ++k) {
      const size_t pixels = 1 + rnd() % MAX_PIXELS;
      bad |= check_call(cfg, pixels, tap_counts[k], channels, rows, -1);
      bad |= !bad && check_call(cfg, 1, tap_counts[k], channels, rows, (int)(rnd() % 2));
      cases += 2;
    }
    if (BIG_TAPS && channels % 13 == 3) { /* a few widths: each call is long */
      for (int fill = -1; fill < 2 && !bad; ++fill, ++cases)
        bad |= check_call(cfg, 1, BIG_TAPS, channels, rows, fill);
    }
    free_rows(rows);
  }
  if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
  return bad;
}

int main(void) {
  int failed = 0;
  for (int ci = 0; ci < NUM_CONFIGS; ++ci) {
    const CONFIG* cfg = &CONFIGS[ci];
    if (ci > 0 && !isa_runs(cfg->isa, cfg->name)) continue;
    failed |= check_kernel(cfg, LOWEST, HIGHEST);
  }
  return failed;
}

#endif /* TFF_TESTS_POOL_TEST_H_ */
