/* f32-rsum kernels against a lane-by-lane model of XNNPACK's order for their
 * ISA (xnn_order.h), bit for bit, over every length to 4W + 3 and longer
 * ones from every alignment (NaN around x, ukernel_test.h), with an
 * accumulated *out and a guard after it. */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/f32-rsum/f32-rsum.h"
#include "xnn_order.h"

/* acc4: four W-lane accumulators, blocks of 4W, up to three single vectors
 * into accumulators 0..2, (a0 + a2) + (a1 + a3), the tail, the fold. */
static float model(size_t n, const float* x, int w, int tail) {
  float acc[4][8] = {{0}};
  size_t i = 0;
  for (; n - i >= (size_t)(4 * w); i += 4 * (size_t)w)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < w; ++l) acc[k][l] += x[i + (size_t)(k * w + l)];
  for (int k = 0; k < 3 && n - i >= (size_t)w; ++k, i += (size_t)w)
    for (int l = 0; l < w; ++l) acc[k][l] += x[i + (size_t)l];
  float lanes[8];
  for (int l = 0; l < w; ++l) lanes[l] = (acc[0][l] + acc[2][l]) + (acc[1][l] + acc[3][l]);
  xnn_add_tail(lanes, x + i, n - i, tail);
  return xnn_fold(lanes, w);
}

int main(void) {
  int failed = 0;
  for (int ci = 0; ci < tff_f32_rsum_num_configs; ++ci) {
    const tff_f32_rsum_config* cfg = &tff_f32_rsum_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const int w = xnn_lanes(cfg->isa);
    const int tl = cfg->isa == TFF_ISA_SSE41 ? XNN_TAIL_LANE0 : XNN_TAIL_LANES;
    int cases = 0, bad = 0;
    for (int ni = 0; ni < TEST_NUM_NS && !bad; ++ni) {
      for (size_t off = 0; off < 4 && !bad; ++off, ++cases) {
        const size_t n = test_n(ni);
        float* x = fenced(n, off, NAN);
        for (size_t q = 0; q < n; ++q) x[q] = (rnd_unit() - 0.5f) * (float)(1 + q % 7) * 100.0f;
        const float scale = n ? 1.0f / (float)n : 0.5f, start = 0.25f;
        const float want = start + model(n, x, w, tl) * scale;
        float got[2] = {start, 12345.0f};
        cfg->fn(n, x, scale, got);
        if (memcmp(&got[0], &want, sizeof(float)) != 0 || got[1] != 12345.0f) {
          printf("FAIL %s: n=%zu off=%zu: got %.9g want %.9g (guard %g)\n", cfg->name, n, off,
                 got[0], want, got[1]);
          bad = 1;
        }
        fenced_free(x, off);
      }
    }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += bad;
  }
  return failed != 0;
}
