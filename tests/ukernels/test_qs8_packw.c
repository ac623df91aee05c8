/* qs8-packw kernels against a direct packing (which checks the scalar twin)
 * and the scalar twin, byte for byte, sums included, over every n and k
 * through two tiles and a tail, then around the blocks of taps (AVX2: 32,
 * then one of 16, the rest) and more tiles, with weights at -128 and 127
 * (the biased sums' extremes); guard bytes after the packed tiles. */
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/qs8-packw/qs8-packw.h"

static void direct(size_t n, size_t k, const int8_t* w, int8_t* packed, int32_t* sums) {
  for (size_t n0 = 0; n0 < n; n0 += 16)
    for (size_t i = 0; i < k; ++i)
      for (size_t j = 0; j < 16; ++j)
        packed[n0 * k + i * 16 + j] = n0 + j < n ? w[(n0 + j) * k + i] : 0;
  direct_row_sums(n, k, w, sums);
}

/* 1 when cfg packs n rows of k weights (random, or all -128 or 127 by v)
 * as the reference does, writing nothing past the tiles and sums. */
static int check(int ci, size_t n, size_t k, int v) {
  const tff_qs8_packw_config* cfg = &tff_qs8_packw_configs[ci];
  const size_t bytes = (n + 15) / 16 * 16 * k;
  int8_t* w = malloc(n * k);
  for (size_t q = 0; q < n * k; ++q)
    w[q] = v == 0 ? (int8_t)rnd_range(-128, 127) : (v == 1 ? -128 : 127);
  int8_t* want = malloc(bytes);
  int8_t* got = malloc(bytes + GUARD_BYTES);
  int32_t* want_sums = malloc(n * sizeof(int32_t));
  int32_t* got_sums = malloc((n + 1) * sizeof(int32_t));
  memset(got, GUARD, bytes + GUARD_BYTES);
  got_sums[n] = 0x5a5a5a5a;
  if (ci == 0)
    direct(n, k, w, want, want_sums);
  else
    tff_qs8_packw_configs[0].fn(n, k, w, want, want_sums);
  cfg->fn(n, k, w, got, got_sums);
  int ok = 1;
  for (size_t q = 0; q < bytes + GUARD_BYTES && ok; ++q) {
    const int8_t e = q < bytes ? want[q] : (int8_t)GUARD;
    if (got[q] != e) {
      printf("FAIL %s: n=%zu k=%zu byte %zu: got %d want %d%s\n", cfg->name, n, k, q, got[q],
             e, q < bytes ? "" : " (guard overwritten)");
      ok = 0;
    }
  }
  for (size_t c = 0; c <= n && ok; ++c) {
    const int32_t e = c < n ? want_sums[c] : 0x5a5a5a5a;
    if (got_sums[c] != e) {
      printf("FAIL %s: n=%zu k=%zu sum %zu: got %d want %d\n", cfg->name, n, k, c, got_sums[c],
             e);
      ok = 0;
    }
  }
  free(w);
  free(want);
  free(got);
  free(want_sums);
  free(got_sums);
  return ok;
}

/* 0..35, then the extra sizes. */
static size_t size_at(size_t i, const size_t* extra) { return i < 36 ? i : extra[i - 36]; }

int main(void) {
  int failed = 0;
  const size_t ns[] = {47, 48, 64}, ks[] = {47, 48, 63, 64, 65, 80, 100, 257};
  const size_t num_n = 36 + sizeof(ns) / sizeof(ns[0]), num_k = 36 + sizeof(ks) / sizeof(ks[0]);
  for (int ci = 0; ci < tff_qs8_packw_num_configs; ++ci) {
    const tff_qs8_packw_config* cfg = &tff_qs8_packw_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    int cases = 0, ok = 1;
    for (size_t ni = 0; ni < num_n && ok; ++ni)
      for (size_t ki = 0; ki < num_k && ok; ++ki)
        for (int v = 0; v < 3 && ok; ++v, ++cases)
          ok = check(ci, size_at(ni, ns), size_at(ki, ks), v);
    if (ok) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += !ok;
  }
  return failed != 0;
}
