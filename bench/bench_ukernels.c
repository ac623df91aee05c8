/* Times every qs8-qc8w-gemm kernel this CPU runs on GEMM shapes read from
 * stdin, one per line: "label m n kc ks" (rows, output channels, input
 * channels per tap, taps). Rows are tiled by each kernel's MR as CONV_2D
 * does; the ks taps of row r point at rows r..r+ks-1 of an image (a conv's
 * overlapping taps). Prints per shape and kernel the best of several timed
 * repetitions in GOP/s (2·m·n·kc·ks ops). Built and fed by
 * bench/bench_ukernels.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu.h"
#include "ukernels/qs8-qc8w-gemm/qs8-qc8w-gemm.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds of one pass over all rows, best of `reps` repetitions of passes
 * lasting about `target` seconds each. */
static double time_kernel(const tff_qs8_qc8w_gemm_config* cfg, size_t m, size_t n, size_t kc,
                          size_t ks, const int8_t* const* ind, const void* packed, int8_t* c,
                          const tff_qs8_minmax_fp32_params* p, int reps, double target) {
  double best = 1e30;
  size_t passes = 1;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
    for (size_t it = 0; it < passes; ++it)
      for (size_t m0 = 0; m0 < m; m0 += cfg->mr)
        cfg->fn(m - m0 < cfg->mr ? m - m0 : cfg->mr, n, kc, ks, ind + m0 * ks, 0, packed,
                c + m0 * n, n, p);
    const double dt = (now() - t0) / (double)passes;
    best = dt < best ? dt : best;
    if (r == 0 && dt * (double)passes < target) passes = (size_t)(target / dt) + 1;
  }
  return best;
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 5;
  const double target = argc > 2 ? atof(argv[2]) : 0.02;
  const char* bad = NULL;
  tff_cpu_init(&bad);
  char label[128];
  size_t m, n, kc, ks;
  printf("%-28s %6s %5s %5s %3s", "shape", "m", "n", "kc", "ks");
  for (int i = 0; i < tff_qs8_qc8w_gemm_num_configs; ++i)
    if ((tff_cpu_detected() & tff_qs8_qc8w_gemm_configs[i].isa) == tff_qs8_qc8w_gemm_configs[i].isa)
      printf(" %14s", strstr(tff_qs8_qc8w_gemm_configs[i].name, "ukernel_") + 8);
  printf("   (GOP/s)\n");
  while (scanf("%127s %zu %zu %zu %zu", label, &m, &n, &kc, &ks) == 5) {
    const size_t rows = m + ks;
    int8_t* image = malloc(rows * kc);
    const int8_t** ind = malloc(m * ks * sizeof(*ind));
    int8_t* c = malloc(m * n);
    int8_t* wt = malloc(n * ks * kc);
    float* scale = malloc(n * sizeof(float));
    int32_t* init = calloc(n, sizeof(int32_t));
    if (!image || !ind || !c || !wt || !scale || !init) return 1;
    for (size_t i = 0; i < rows * kc; ++i) image[i] = (int8_t)(rand() % 256 - 128);
    for (size_t i = 0; i < n * ks * kc; ++i) wt[i] = (int8_t)(rand() % 255 - 127);
    for (size_t j = 0; j < n; ++j) scale[j] = 1e-4f;
    for (size_t r = 0; r < m; ++r)
      for (size_t t = 0; t < ks; ++t) ind[r * ks + t] = image + (r + t) * kc;
    const tff_qs8_minmax_fp32_params p = {-128.0f, 127.0f, 0};
    printf("%-28s %6zu %5zu %5zu %3zu", label, m, n, kc, ks);
    for (int i = 0; i < tff_qs8_qc8w_gemm_num_configs; ++i) {
      const tff_qs8_qc8w_gemm_config* cfg = &tff_qs8_qc8w_gemm_configs[i];
      if ((tff_cpu_detected() & cfg->isa) != cfg->isa) continue;
      if (cfg->xmax && ks * ((kc + cfg->kr - 1) / cfg->kr * cfg->kr) > cfg->xmax) {
        printf(" %14s", "-");
        continue;
      }
      void* packed = malloc(tff_qs8_qc8w_gemm_packed_size(n, ks, kc, cfg->nr, cfg->kr));
      if (!packed) return 1;
      cfg->pack(n, ks, kc, cfg->nr, cfg->kr, wt, scale, 1, packed);
      tff_qs8_qc8w_gemm_pack_init(n, ks, kc, cfg->nr, cfg->kr, init, packed);
      const double s = time_kernel(cfg, m, n, kc, ks, ind, packed, c, &p, reps, target);
      printf(" %14.1f", 2.0 * (double)(m * n * kc * ks) / s * 1e-9);
      fflush(stdout);
      free(packed);
    }
    printf("\n");
    free(image);
    free(ind);
    free(c);
    free(wt);
    free(scale);
    free(init);
  }
  return 0;
}
