/* f32-raddstoreexpminusmax kernels: each y[i] equals the family's element
 * formula (fused for avx2), and the returned sum a lane-by-lane model of
 * XNNPACK's order for the ISA (two accumulators over 4W blocks, single
 * vectors, the tail, the fold; xnn_order.h), bit for bit. Inputs span the
 * cutoff (-87.3 below the max), the model runs under the kernels' FTZ/DAZ;
 * a guard after y. */
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/f32-raddstoreexpminusmax/f32-raddstoreexpminusmax.h"
#include "ukernels/ftz.h"
#include "xnn_order.h"

static float model_sum(size_t n, const float* y, int w, int tail) {
  float acc[2][8] = {{0}};
  size_t i = 0;
  for (; n - i >= (size_t)(4 * w); i += 4 * (size_t)w)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < w; ++l) acc[k & 1][l] += y[i + (size_t)(k * w + l)];
  float lanes[8];
  for (int l = 0; l < w; ++l) lanes[l] = acc[0][l] + acc[1][l];
  for (; n - i >= (size_t)w; i += (size_t)w)
    for (int l = 0; l < w; ++l) lanes[l] += y[i + (size_t)l];
  xnn_add_tail(lanes, y + i, n - i, tail);
  return xnn_fold(lanes, w);
}

int main(void) {
  tff_ftz_enter();
  int failed = 0;
  const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100, 1000};
  for (int ci = 0; ci < tff_f32_raddstoreexpminusmax_num_configs; ++ci) {
    const tff_f32_raddstoreexpminusmax_config* cfg = &tff_f32_raddstoreexpminusmax_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const int w = xnn_lanes(cfg->isa);
    const int tl = cfg->isa == TFF_ISA_SSE41 ? XNN_TAIL_PAIR : XNN_TAIL_LANES;
    const int fused = cfg->isa == TFF_ISA_AVX2;
    int cases = 0, bad = 0;
    for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]) && !bad; ++ni) {
      const size_t n = ns[ni];
      float* x = malloc(n * sizeof(float));
      float* y = malloc((n + 1) * sizeof(float));
      float max = -INFINITY;
      for (size_t q = 0; q < n; ++q) {
        x[q] = (rnd_unit() - 0.5f) * (q % 3 ? 20.0f : 200.0f);
        max = x[q] > max ? x[q] : max;
      }
      y[n] = 12345.0f;
      const float got = cfg->fn(n, x, max, y);
      for (size_t q = 0; q < n && !bad; ++q) {
        const float e = tff_f32_expminus(x[q], max, fused);
        if (memcmp(&y[q], &e, sizeof(float)) != 0) {
          printf("FAIL %s: n=%zu y[%zu]: got %.9g want %.9g\n", cfg->name, n, q, y[q], e);
          bad = 1;
        }
      }
      const float want = model_sum(n, y, w, tl);
      if (!bad && (memcmp(&got, &want, sizeof(float)) != 0 || y[n] != 12345.0f)) {
        printf("FAIL %s: n=%zu: sum %.9g want %.9g (guard %g)\n", cfg->name, n, got, want, y[n]);
        bad = 1;
      }
      free(x);
      free(y);
      ++cases;
    }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += bad;
  }
  return failed != 0;
}
