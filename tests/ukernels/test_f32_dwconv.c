/* f32-dwconv kernels against a direct computation (which checks the scalar
 * twins and the packing) and against the scalar twin of their kind (mul then
 * add, or fused; bit-exact), over
 * channel counts around every tile, 9/25/other tap counts, padding taps,
 * batch offsets, NaN/inf/denormal inputs and clamp bounds; guard bytes
 * between and after the output pixels. */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "dwconv_test.h"
#include "ukernels/f32-dwconv/f32-dwconv.h"

enum { MAX_WIDTH = 5, OFFSET = 64 }; /* 5: three pixels then one or two */

typedef struct {
  size_t channels, taps, width, out_inc; /* out_inc in floats */
  const float** ind; /* [width][taps]: into image (before the offset) or zero */
  float* zero;
  float* wt;         /* [taps][channels] */
  float* bias;       /* NULL: no bias */
  tff_f32_dwconv_params p;
} Case;

/* bias first, then the taps in order, each product rounded on its own or
 * (fused) not at all. */
static void direct(const Case* t, int fused, float* out) {
  for (size_t px = 0; px < t->width; ++px) {
    for (size_t c = 0; c < t->channels; ++c) {
      float acc = t->bias ? t->bias[c] : 0.0f;
      for (size_t s = 0; s < t->taps; ++s) {
        const float* x = t->ind[px * t->taps + s];
        if (x != t->zero) x += OFFSET;
        const float w = t->wt[s * t->channels + c];
        acc = fused ? fmaf(x[c], w, acc) : acc + x[c] * w;
      }
      acc = acc < t->p.min ? t->p.min : acc;
      out[px * (t->channels + t->out_inc) + c] = acc > t->p.max ? t->p.max : acc;
    }
  }
}

static void produce(const tff_f32_dwconv_config* cfg, const Case* t, float* out) {
  void* packed = malloc(tff_f32_dwconv_packed_size(t->channels, t->taps, cfg->tile));
  tff_f32_dwconv_pack(t->channels, t->taps, cfg->tile, t->wt, t->bias, packed);
  cfg->fn(t->channels, t->width, t->taps, t->ind, packed, out, t->out_inc * sizeof(float),
          OFFSET * sizeof(float), t->zero, &t->p);
  free(packed);
}

/* Which NaN an operation with two NaN operands returns depends on the
 * operand order the compiler emits (x86 keeps the first), which C leaves
 * open; so NaNs match any NaN, everything else bit for bit. */
static int is_nan(uint32_t bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }

/* 0 when the pixels match and the gaps and tail hold GUARD. */
static int compare(const Case* t, const float* got, const float* want, const char* name,
                   const char* what) {
  const size_t stride = t->channels + t->out_inc, n = t->width * stride + GUARD_BYTES;
  for (size_t i = 0; i < n; ++i) {
    const int in_pixel = i < t->width * stride && i % stride < t->channels;
    uint32_t g, w;
    memcpy(&g, got + i, 4);
    memcpy(&w, want + i, 4);
    if (in_pixel ? g == w || (is_nan(g) && is_nan(w)) : g == 0x5a5a5a5au) continue;
    printf("FAIL %s vs %s: channels=%zu taps=%zu width=%zu inc=%zu float %zu: %08x != %08x\n",
           name, what, t->channels, t->taps, t->width, t->out_inc, i, g,
           in_pixel ? w : 0x5a5a5a5au);
    return 1;
  }
  return 0;
}

static float rnd_float(int mode) {
  const float special[5] = {NAN, INFINITY, -INFINITY, 1e-40f, -0.0f};
  if (mode == 3 && rnd() % 16 == 0) return special[rnd() % 5];
  return (rnd_unit() - 0.5f) * (mode == 2 ? 1e30f : 4.0f);
}

/* One case; mode 0 plain, 1 no bias and tight bounds, 2 huge values
 * (overflow to inf), 3 NaN/inf/denormal/−0 inputs. */
static int run_case(const tff_f32_dwconv_config* cfg, const tff_f32_dwconv_config* twin,
                    size_t channels, size_t taps, size_t width, int mode) {
  Case t = {channels, taps, width, mode & 1 ? 3 : 0, NULL, NULL, NULL, NULL, {0, 0}};
  const size_t pixels = 4, npx = OFFSET + pixels * channels;
  float* image = malloc(npx * sizeof(float));
  t.zero = calloc(channels, sizeof(float));
  t.ind = malloc(width * taps * sizeof(*t.ind));
  t.wt = malloc(taps * channels * sizeof(float));
  t.bias = mode == 1 ? NULL : malloc(channels * sizeof(float));
  for (size_t i = 0; i < npx; ++i) image[i] = rnd_float(mode);
  for (size_t i = 0; i < width * taps; ++i)
    t.ind[i] = rnd() % 4 == 0 ? t.zero : image + (rnd() % pixels) * channels;
  for (size_t i = 0; i < taps * channels; ++i) t.wt[i] = rnd_float(mode);
  for (size_t c = 0; t.bias && c < channels; ++c) t.bias[c] = rnd_float(mode);
  t.p = mode == 1 ? (tff_f32_dwconv_params){-0.5f, 0.5f}
                  : (mode == 0 ? (tff_f32_dwconv_params){0.0f, 6.0f}
                               : (tff_f32_dwconv_params){-INFINITY, INFINITY});
  const size_t n = width * (channels + t.out_inc) + GUARD_BYTES;
  float* want = malloc(n * sizeof(float));
  float* ref = malloc(n * sizeof(float));
  float* got = malloc(n * sizeof(float));
  memset(want, GUARD, n * sizeof(float));
  memset(ref, GUARD, n * sizeof(float));
  memset(got, GUARD, n * sizeof(float));
  direct(&t, twin->fma, want);
  produce(twin, &t, ref);
  produce(cfg, &t, got);
  const int bad = compare(&t, ref, want, twin->name, "direct") ||
                  compare(&t, got, ref, cfg->name, twin->name);
  free(image), free(t.zero), free(t.ind), free(t.wt), free(t.bias);
  free(want), free(ref), free(got);
  return bad;
}

DWCONV_TEST_MAIN(tff_f32_dwconv_config, tff_f32_dwconv_configs, tff_f32_dwconv_num_configs,
                 tff_f32_dwconv_twin)
