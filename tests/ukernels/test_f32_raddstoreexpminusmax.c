/* f32-raddstoreexpminusmax kernels: each y[i] equals the family's element
 * formula (fused for avx2), and the returned sum a lane-by-lane model of
 * XNNPACK's order for the ISA (two accumulators over 4W blocks, single
 * vectors, the tail, the fold; xnn_order.h), bit for bit. Inputs span the
 * cutoff (-87.3 below the max), the model runs under the kernels' FTZ/DAZ;
 * every length to 4W + 3 and longer ones, from every alignment, with NaN
 * around x and a guard around y (ukernel_test.h). */
#include <math.h>
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
  for (int ci = 0; ci < tff_f32_raddstoreexpminusmax_num_configs; ++ci) {
    const tff_f32_raddstoreexpminusmax_config* cfg = &tff_f32_raddstoreexpminusmax_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const int w = xnn_lanes(cfg->isa);
    const int tl = cfg->isa == TFF_ISA_SSE41 ? XNN_TAIL_PAIR : XNN_TAIL_LANES;
    const int fused = cfg->isa == TFF_ISA_AVX2;
    int cases = 0, bad = 0;
    for (int ni = 0; ni < TEST_NUM_NS && !bad; ++ni) {
      for (size_t off = 0; off < 4 && !bad; ++off, ++cases) {
        const size_t n = test_n(ni);
        float* x = fenced(n, off, NAN);
        float* y = fenced(n, off, 12345.0f);
        float max = -INFINITY;
        for (size_t q = 0; q < n; ++q) {
          x[q] = (rnd_unit() - 0.5f) * (q % 3 ? 20.0f : 200.0f);
          max = x[q] > max ? x[q] : max;
        }
        /* A fifth around the cutoff, where t·s is denormal: the kernel must
         * flush it as the model does (armv7 NEON always does). */
        for (size_t q = 4; q < n; q += 5) x[q] = max - 87.7f + 1.2f * rnd_unit();
        const float got = cfg->fn(n, x, max, y);
        for (size_t q = 0; q < n && !bad; ++q) {
          const float e = tff_f32_expminus(x[q], max, fused);
          if (memcmp(&y[q], &e, sizeof(float)) != 0) {
            printf("FAIL %s: n=%zu off=%zu y[%zu]: got %.9g want %.9g\n", cfg->name, n, off, q,
                   y[q], e);
            bad = 1;
          }
        }
        const float want = model_sum(n, y, w, tl);
        const int fence = fence_holds(y, n, off, 12345.0f);
        if (!bad && (memcmp(&got, &want, sizeof(float)) != 0 || !fence)) {
          printf("FAIL %s: n=%zu off=%zu: sum %.9g want %.9g (or wrote outside y)\n", cfg->name, n,
                 off, got, want);
          bad = 1;
        }
        fenced_free(x, off);
        fenced_free(y, off);
      }
    }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += bad;
  }
  return failed != 0;
}
