/* bench_ukernels: qs8-qc8w-dwconv and f32-dwconv, one column per ISA: the
 * kernel the family's select picks with only that ISA for the layer's taps
 * (the 9- or 25-tap kernel, else the any-tap one). Line numbers: a
 * ukb_window (ukbench.h); the indirection is the layer's own, padding taps
 * at the zero buffer. GOP/s = 2·pixels·c·taps ops per second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "ukbench.h"
#include "ukernels/f32-dwconv/f32-dwconv.h"
#include "ukernels/qs8-qc8w-dwconv/qs8-qc8w-dwconv.h"

typedef struct {
  size_t c, pixels, taps;
  const void* cfg;    /* the family's config */
  const void* ind;    /* pixels·taps tap pointers of the family's type */
  const void* packed; /* weights for cfg */
  const void* zero;   /* c zero-point values */
  void* out;
} dw_run;

typedef struct {
  const char* family;
  size_t esize;
  uint32_t (*built)(uint32_t bit); /* for ukb_isa_columns */
  /* The kernel for r->taps with only `bit`, into r->cfg; returns random
   * weights packed for it. */
  void* (*pack)(dw_run* r, uint32_t bit, const void* weights);
  void (*pass)(const void* run);
} dw_family;

/* ---- qs8-qc8w-dwconv ---- */

static uint32_t qs8_built(uint32_t bit) {
  return tff_qs8_qc8w_dwconv_select(bit, 9, SIZE_MAX)->isa;
}

static void* qs8_pack(dw_run* r, uint32_t bit, const void* weights) {
  const tff_qs8_qc8w_dwconv_config* cfg = tff_qs8_qc8w_dwconv_select(bit, r->taps, SIZE_MAX);
  float* scale = ukb_alloc(r->c * sizeof(float));
  void* packed = ukb_alloc(tff_qs8_qc8w_dwconv_packed_size(cfg, r->c, r->taps));
  for (size_t j = 0; j < r->c; ++j) scale[j] = 1e-3f;
  tff_qs8_qc8w_dwconv_pack(cfg, r->c, r->taps, weights, NULL, 0, scale, packed);
  free(scale);
  r->cfg = cfg;
  return packed;
}

static void qs8_pass(const void* run) {
  const dw_run* r = run;
  const tff_qs8_dwconv_params p = {-128.0f, 127.0f, 0};
  ((const tff_qs8_qc8w_dwconv_config*)r->cfg)
      ->fn(r->c, r->pixels, r->taps, (const int8_t**)r->ind, r->packed, r->out, 0, 0, r->zero, &p);
}

/* ---- f32-dwconv ---- */

static uint32_t f32_built(uint32_t bit) { return tff_f32_dwconv_select(bit, 9)->isa; }

static void* f32_pack(dw_run* r, uint32_t bit, const void* weights) {
  const tff_f32_dwconv_config* cfg = tff_f32_dwconv_select(bit, r->taps);
  void* packed = ukb_alloc(tff_f32_dwconv_packed_size(r->c, r->taps, cfg->tile));
  tff_f32_dwconv_pack(r->c, r->taps, cfg->tile, weights, NULL, packed);
  r->cfg = cfg;
  return packed;
}

static void f32_pass(const void* run) {
  const dw_run* r = run;
  const tff_f32_dwconv_params p = {-INFINITY, INFINITY};
  ((const tff_f32_dwconv_config*)r->cfg)
      ->fn(r->c, r->pixels, r->taps, (const float**)r->ind, r->packed, r->out, 0, 0, r->zero, &p);
}

/* ---- the shared table ---- */

static void dw_header(const void* arg) {
  const dw_family* f = arg;
  uint32_t isa[8];
  const char* names[8];
  const int n = ukb_isa_columns(f->built, isa);
  for (int i = 0; i < n; ++i) names[i] = tff_isa_name(isa[i]);
  ukb_header(f->family, "GOP/s", UKB_WINDOW_COLS, n, names);
}

static int dw_row(const char* label, const void* arg) {
  const dw_family* f = arg;
  ukb_window w;
  if (!ukb_read_window(&w)) return 0;
  ukb_print_window(label, &w);
  dw_run r = {w.c, w.oh * w.ow, w.kh * w.kw, NULL, NULL, NULL, NULL, NULL};
  const size_t n = r.pixels * r.taps;
  size_t* off = ukb_alloc(n * sizeof(size_t));
  ukb_window_offsets(&w, 0, off);
  ukb_layer l;
  ukb_layer_alloc(&l, f->esize, w.ih * w.iw * w.c, off, n, r.taps * r.c, r.c, r.pixels * r.c);
  free(off);
  r.ind = l.ind;
  r.zero = l.zero;
  r.out = l.out;
  uint32_t isa[8];
  const int cols = ukb_isa_columns(f->built, isa);
  for (int i = 0; i < cols; ++i) {
    void* packed = f->pack(&r, isa[i], l.weights);
    r.packed = packed;
    ukb_cell(2.0 * (double)(n * r.c) / ukb_seconds(f->pass, &r) * 1e-9);
    free(packed);
  }
  ukb_end_row();
  ukb_layer_free(&l);
  return 1;
}

static const dw_family qs8 = {"qs8-qc8w-dwconv", 1, qs8_built, qs8_pack, qs8_pass};
static const dw_family f32 = {"f32-dwconv", sizeof(float), f32_built, f32_pack, f32_pass};

const ukb_family ukb_dwconv[] = {{"qs8-qc8w-dwconv", dw_header, dw_row, &qs8},
                                 {"f32-dwconv", dw_header, dw_row, &f32},
                                 {NULL, NULL, NULL, NULL}};
