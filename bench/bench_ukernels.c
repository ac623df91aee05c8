/* Times every kernel this CPU runs of the families built in (UKB_GEMM,
 * UKB_DWCONV, UKB_POOL) on layer shapes read from stdin, one per line:
 * "family label numbers..." (the numbers: ukbench_<kind>.c). Prints per
 * family a table: one row per shape, one column per kernel, the best of
 * several timed repetitions. Built and fed by bench/bench_ukernels.py:
 *   bench_ukernels REPS SECONDS  (SECONDS: length of one repetition) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu.h"
#include "ukbench.h"

static int reps = 5;
static double target = 0.02;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first repetition is one pass (it also warms the caches); it sets how
 * many passes the others time, so each lasts about `target` seconds. */
double ukb_seconds(void (*pass)(const void* ctx), const void* ctx) {
  double best = 1e30;
  size_t passes = 1;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
    for (size_t it = 0; it < passes; ++it) pass(ctx);
    const double dt = (now() - t0) / (double)passes;
    best = dt < best ? dt : best;
    if (r == 0 && dt < target) passes = (size_t)(target / dt) + 1;
  }
  return best;
}

int ukb_runs(uint32_t isa) { return (tff_cpu_detected() & isa) == isa; }

int ukb_isa_columns(uint32_t (*built)(uint32_t bit), uint32_t* isa) {
  static const uint32_t bits[] = {TFF_ISA_SCALAR, TFF_ISA_SSE41, TFF_ISA_AVX2,
                                  TFF_ISA_AVX512VNNI};
  int n = 0;
  for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); ++i)
    if (ukb_runs(bits[i]) && built(bits[i]) == bits[i]) isa[n++] = bits[i];
  return n;
}

void ukb_header(const char* family, const char* unit, const char* cols, int n,
                const char* const* names) {
  printf("\n%s (%s)\n%-28s %s", family, unit, "shape", cols);
  for (int i = 0; i < n; ++i) printf(" %14s", names[i]);
  printf("\n");
}

void ukb_cell(double rate) {
  if (rate < 0)
    printf(" %14s", "-");
  else
    printf(" %14.2f", rate);
  fflush(stdout); /* a slow row shows progress */
}

void ukb_end_row(void) { printf("\n"); }

void ukb_fill(void* x, size_t n, size_t esize) {
  for (size_t i = 0; i < n; ++i)
    if (esize == 1)
      ((int8_t*)x)[i] = (int8_t)(rand() % 201 - 100);
    else
      ((float*)x)[i] = (float)(rand() % 2001 - 1000) * 1e-3f;
}

const char* ukb_short_name(const char* name) {
  const char* s = strstr(name, "ukernel_");
  if (!s) return name;
  for (s += 8; *s == '_';) ++s; /* a one-kernel-per-ISA family's "ukernel__avx2" */
  return s;
}

void* ukb_alloc(size_t bytes) {
  void* p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "bench_ukernels: out of memory\n");
    exit(1);
  }
  return p;
}

int ukb_read_window(ukb_window* w) {
  return scanf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu", &w->ih, &w->iw, &w->c,
               &w->oh, &w->ow, &w->kh, &w->kw, &w->sh, &w->sw, &w->dh, &w->dw, &w->pt,
               &w->pl) == 13;
}

void ukb_print_window(const char* label, const ukb_window* w) {
  printf("%-28s %6zu %5zu %2zux%zu %2zu", label, w->oh * w->ow, w->c, w->kh, w->kw, w->sh);
}

/* A coordinate o·s + k·d − p of the image (size n), else UKB_PAD or, with
 * clamp, the nearest edge. */
static size_t tap(size_t o, size_t s, size_t k, size_t d, size_t p, size_t n, int clamp) {
  const size_t x = o * s + k * d;
  if (x >= p && x - p < n) return x - p;
  if (!clamp) return UKB_PAD;
  return x < p ? 0 : n - 1;
}

void ukb_window_offsets(const ukb_window* w, int clamp, size_t* off) {
  for (size_t oy = 0; oy < w->oh; ++oy)
    for (size_t ox = 0; ox < w->ow; ++ox)
      for (size_t ky = 0; ky < w->kh; ++ky)
        for (size_t kx = 0; kx < w->kw; ++kx) {
          const size_t y = tap(oy, w->sh, ky, w->dh, w->pt, w->ih, clamp);
          const size_t x = tap(ox, w->sw, kx, w->dw, w->pl, w->iw, clamp);
          *off++ = y == UKB_PAD || x == UKB_PAD ? UKB_PAD : (y * w->iw + x) * w->c;
        }
}

/* The typed tap pointers of the offsets. */
#define POINTERS(T, l, off, n)                                                        \
  for (size_t i = 0; i < (n); ++i)                                                  \
    ((const T**)(l)->ind)[i] =                                                      \
        (off)[i] == UKB_PAD ? (const T*)(l)->zero : (const T*)(l)->image + (off)[i];

void ukb_layer_alloc(ukb_layer* l, size_t esize, size_t image, const size_t* off, size_t taps,
                     size_t weights, size_t zero, size_t out) {
  l->image = ukb_alloc(image * esize);
  l->ind = ukb_alloc(taps * sizeof(void*));
  l->weights = ukb_alloc(weights * esize);
  l->zero = ukb_alloc(zero * esize);
  l->out = ukb_alloc(out * esize);
  ukb_fill(l->image, image, esize);
  ukb_fill(l->weights, weights, esize);
  memset(l->zero, 0, zero * esize); /* 0 and 0.0f */
  if (esize == 1) {
    POINTERS(int8_t, l, off, taps)
  } else {
    POINTERS(float, l, off, taps)
  }
}

void ukb_layer_free(ukb_layer* l) {
  void* const bufs[] = {l->image, l->ind, l->weights, l->zero, l->out};
  for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); ++i) free(bufs[i]);
}

/* The families built in; lines of other families are an error. */
static const ukb_family* const kinds[] = {
#if UKB_GEMM
    ukb_gemm,
#endif
#if UKB_DWCONV
    ukb_dwconv,
#endif
#if UKB_POOL
    ukb_pool,
#endif
    NULL};

static const ukb_family* find(const char* name) {
  for (int k = 0; kinds[k]; ++k)
    for (const ukb_family* f = kinds[k]; f->name; ++f)
      if (strcmp(f->name, name) == 0) return f;
  return NULL;
}

int main(int argc, char** argv) {
  if (argc > 1) reps = atoi(argv[1]);
  if (argc > 2) target = atof(argv[2]);
  if (reps < 1) reps = 1;
  const char* bad = NULL;
  tff_cpu_init(&bad);
  char name[64], label[128];
  const ukb_family* last = NULL;
  while (scanf("%63s %127s", name, label) == 2) {
    const ukb_family* f = find(name);
    if (!f) {
      fprintf(stderr, "bench_ukernels: family %s is not built in\n", name);
      return 1;
    }
    if (f != last) f->header(f->arg);
    last = f;
    if (!f->row(label, f->arg)) {
      fprintf(stderr, "bench_ukernels: bad %s line %s\n", name, label);
      return 1;
    }
  }
  return 0;
}
