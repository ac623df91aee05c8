/* bench_ukernels: qs8-maxpool, qs8-avgpool, f32-maxpool, f32-avgpool, one
 * column per kernel (one per ISA). Line numbers: a ukb_window
 * (ukbench.h); every output pixel gets the full window, taps in the
 * padding at the nearest image pixel. Gelem/s = input values read
 * (pixels·taps·c) per second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ukbench.h"
#include "ukernels/f32-avgpool/f32-avgpool.h"
#include "ukernels/f32-maxpool/f32-maxpool.h"
#include "ukernels/qs8-avgpool/qs8-avgpool.h"
#include "ukernels/qs8-maxpool/qs8-maxpool.h"

/* A kernel of either element type (the other pointer is NULL). */
typedef struct {
  const char* name;
  uint32_t isa;
  tff_f32_pool_ukernel* f32;
  tff_qs8_pool_ukernel* qs8;
} pool_kernel;

typedef struct {
  const char* family;
  const int* count;
  pool_kernel (*kernel)(int i);
} pool_family;

typedef struct {
  size_t pixels, taps, c;
  pool_kernel k;
  const void* ind; /* pixels·taps tap pointers of the kernel's type */
  void* out;
} pool_run;

/* Config i of family P as a pool_kernel whose FIELD is set. */
#define POOL_KERNEL(P, FIELD)                                               \
  static pool_kernel P##_kernel(int i) {                                     \
    pool_kernel k = {P##_configs[i].name, P##_configs[i].isa, NULL, NULL}; \
    k.FIELD = P##_configs[i].fn;                                             \
    return k;                                                                \
  }
POOL_KERNEL(tff_qs8_maxpool_minmax, qs8)
POOL_KERNEL(tff_qs8_avgpool_minmax, qs8)
POOL_KERNEL(tff_f32_maxpool_minmax, f32)
POOL_KERNEL(tff_f32_avgpool_minmax, f32)

static void pool_pass(const void* run) {
  const pool_run* r = run;
  const tff_f32_pool_params pf = {-INFINITY, INFINITY};
  const tff_qs8_pool_params pq = {-128, 127};
  if (r->k.f32)
    r->k.f32(r->pixels, r->taps, r->c, r->ind, r->out, &pf);
  else
    r->k.qs8(r->pixels, r->taps, r->c, r->ind, r->out, &pq);
}

static void pool_header(const void* arg) {
  const pool_family* f = arg;
  const char* names[8];
  int n = 0;
  for (int i = 0; i < *f->count && n < 8; ++i) {
    const pool_kernel k = f->kernel(i);
    if (ukb_runs(k.isa)) names[n++] = ukb_short_name(k.name);
  }
  ukb_header(f->family, "Gelem/s: input values read", UKB_WINDOW_COLS, n, names);
}

static int pool_row(const char* label, const void* arg) {
  const pool_family* f = arg;
  const size_t esize = f->kernel(0).f32 ? sizeof(float) : 1;
  ukb_window w;
  if (!ukb_read_window(&w)) return 0;
  ukb_print_window(label, &w);
  pool_run r = {w.oh * w.ow, w.kh * w.kw, w.c};
  const size_t n = r.pixels * r.taps;
  size_t* off = ukb_alloc(n * sizeof(size_t));
  ukb_window_offsets(&w, 1, off);
  ukb_layer l;
  ukb_layer_alloc(&l, esize, w.ih * w.iw * w.c, off, n, 0, 0, r.pixels * r.c);
  free(off);
  r.ind = l.ind;
  r.out = l.out;
  for (int i = 0; i < *f->count; ++i) {
    r.k = f->kernel(i);
    if (ukb_runs(r.k.isa)) ukb_cell((double)(n * r.c) / ukb_seconds(pool_pass, &r) * 1e-9);
  }
  ukb_end_row();
  ukb_layer_free(&l);
  return 1;
}

#define POOL_FAMILY(name, P) \
  {name, pool_header, pool_row, &(const pool_family){name, &P##_num_configs, P##_kernel}}
const ukb_family ukb_pool[] = {POOL_FAMILY("qs8-maxpool", tff_qs8_maxpool_minmax),
                               POOL_FAMILY("qs8-avgpool", tff_qs8_avgpool_minmax),
                               POOL_FAMILY("f32-maxpool", tff_f32_maxpool_minmax),
                               POOL_FAMILY("f32-avgpool", tff_f32_avgpool_minmax),
                               {NULL, NULL, NULL, NULL}};
