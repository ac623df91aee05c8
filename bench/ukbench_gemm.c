/* bench_ukernels: qs8-qc8w-gemm and f32-gemm, every kernel (all tiles of
 * each ISA). Line numbers "m n kc ks": rows, output channels, input
 * channels per tap, taps. Rows are tiled by each kernel's MR as CONV_2D
 * does; the ks taps of row r point at rows r..r+ks-1 of an image (a conv's
 * overlapping taps). GOP/s = 2·m·n·kc·ks ops per second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ukbench.h"
#include "ukernels/f32-gemm/f32-gemm.h"
#include "ukernels/qs8-qc8w-gemm/qs8-qc8w-gemm.h"

typedef struct {
  size_t m, n, kc, ks;
  const void* cfg;    /* the family's config */
  const void* ind;    /* m·ks tap pointers of the family's type */
  const void* packed; /* weights for cfg */
  void* out;          /* m·n outputs */
} gemm_run;

typedef struct {
  const char* family;
  size_t esize;
  const int* count;
  /* Config i, its kernel's name and ISA. */
  const void* (*config)(int i, const char** name, uint32_t* isa);
  /* Random weights packed for r->cfg, or NULL if the kernel rejects the shape. */
  void* (*pack)(const gemm_run* r, const void* weights);
  void (*pass)(const void* run);
} gemm_family;

/* ---- qs8-qc8w-gemm ---- */

/* gemm_family.config of family P. */
#define GEMM_CONFIG(P)                                                     \
  static const void* P##_column(int i, const char** name, uint32_t* isa) { \
    *name = P##_configs[i].name;                                           \
    *isa = P##_configs[i].isa;                                             \
    return &P##_configs[i];                                                \
  }
GEMM_CONFIG(tff_qs8_qc8w_gemm)
GEMM_CONFIG(tff_f32_gemm)

static void* qs8_pack(const gemm_run* r, const void* weights) {
  const tff_qs8_qc8w_gemm_config* cfg = r->cfg;
  if (cfg->xmax && r->ks * ((r->kc + cfg->kr - 1) / cfg->kr * cfg->kr) > cfg->xmax) return NULL;
  float* scale = ukb_alloc(r->n * sizeof(float));
  int32_t* init = ukb_alloc(r->n * sizeof(int32_t));
  void* packed = ukb_alloc(tff_qs8_qc8w_gemm_packed_size(r->n, r->ks, r->kc, cfg->nr, cfg->kr));
  for (size_t j = 0; j < r->n; ++j) scale[j] = 1e-4f, init[j] = 0;
  cfg->pack(r->n, r->ks, r->kc, cfg->nr, cfg->kr, weights, scale, 1, packed);
  tff_qs8_qc8w_gemm_pack_init(r->n, r->ks, r->kc, cfg->nr, cfg->kr, init, packed);
  free(scale);
  free(init);
  return packed;
}

static void qs8_pass(const void* run) {
  const gemm_run* r = run;
  const tff_qs8_qc8w_gemm_config* cfg = r->cfg;
  const tff_qs8_minmax_fp32_params p = {-128.0f, 127.0f, 0};
  for (size_t m0 = 0; m0 < r->m; m0 += cfg->mr)
    cfg->fn(r->m - m0 < cfg->mr ? r->m - m0 : cfg->mr, r->n, r->kc, r->ks,
            (const int8_t* const*)r->ind + m0 * r->ks, 0, r->packed, (int8_t*)r->out + m0 * r->n,
            r->n, &p);
}

/* ---- f32-gemm ---- */

static void* f32_pack(const gemm_run* r, const void* weights) {
  const tff_f32_gemm_config* cfg = r->cfg;
  float* packed = ukb_alloc(tff_f32_gemm_packed_size(r->n, r->ks, r->kc, cfg->nr) * sizeof(float));
  cfg->pack(r->n, r->ks, r->kc, cfg->nr, weights, packed);
  tff_f32_gemm_pack_bias(r->n, r->ks, r->kc, cfg->nr, NULL, packed);
  return packed;
}

static void f32_pass(const void* run) {
  const gemm_run* r = run;
  const tff_f32_gemm_config* cfg = r->cfg;
  const tff_f32_minmax_params p = {-INFINITY, INFINITY};
  for (size_t m0 = 0; m0 < r->m; m0 += cfg->mr)
    cfg->fn(r->m - m0 < cfg->mr ? r->m - m0 : cfg->mr, r->n, r->kc, r->ks,
            (const float* const*)r->ind + m0 * r->ks, 0, r->packed, (float*)r->out + m0 * r->n,
            r->n * sizeof(float), &p);
}

/* ---- the shared table ---- */

static void gemm_header(const void* arg) {
  const gemm_family* f = arg;
  const char* names[32];
  int n = 0;
  for (int i = 0; i < *f->count && n < 32; ++i) {
    const char* name;
    uint32_t isa;
    f->config(i, &name, &isa);
    if (ukb_runs(isa)) names[n++] = ukb_short_name(name);
  }
  ukb_header(f->family, "GOP/s", "     m     n    kc  ks", n, names);
}

static int gemm_row(const char* label, const void* arg) {
  const gemm_family* f = arg;
  gemm_run r = {0};
  if (scanf("%zu %zu %zu %zu", &r.m, &r.n, &r.kc, &r.ks) != 4) return 0;
  printf("%-28s %6zu %5zu %5zu %3zu", label, r.m, r.n, r.kc, r.ks);
  const size_t taps = r.m * r.ks;
  size_t* off = ukb_alloc(taps * sizeof(size_t));
  for (size_t i = 0; i < taps; ++i) off[i] = (i / r.ks + i % r.ks) * r.kc; /* row + tap */
  ukb_layer l;
  ukb_layer_alloc(&l, f->esize, (r.m + r.ks) * r.kc, off, taps, r.n * r.ks * r.kc, 0, r.m * r.n);
  free(off);
  r.ind = l.ind;
  r.out = l.out;
  for (int i = 0; i < *f->count; ++i) {
    const char* name;
    uint32_t isa;
    r.cfg = f->config(i, &name, &isa);
    if (!ukb_runs(isa)) continue;
    void* packed = f->pack(&r, l.weights);
    r.packed = packed;
    ukb_cell(packed ? 2.0 * (double)(r.m * r.n * r.kc * r.ks) / ukb_seconds(f->pass, &r) * 1e-9
                    : -1.0);
    free(packed);
  }
  ukb_end_row();
  ukb_layer_free(&l);
  return 1;
}

static const gemm_family qs8 = {"qs8-qc8w-gemm", 1, &tff_qs8_qc8w_gemm_num_configs,
                                tff_qs8_qc8w_gemm_column, qs8_pack, qs8_pass};
static const gemm_family f32 = {"f32-gemm", sizeof(float), &tff_f32_gemm_num_configs,
                                tff_f32_gemm_column, f32_pack, f32_pass};

const ukb_family ukb_gemm[] = {{"qs8-qc8w-gemm", gemm_header, gemm_row, &qs8},
                               {"f32-gemm", gemm_header, gemm_row, &f32},
                               {NULL, NULL, NULL, NULL}};
