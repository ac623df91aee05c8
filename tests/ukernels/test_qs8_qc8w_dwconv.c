/* qs8-qc8w-dwconv kernels against a direct computation (which checks the
 * scalar twin and the packing) and against the scalar twin (bit-exact), over
 * channel counts around every tile, 9/25/other tap counts, padding taps,
 * batch offsets, extreme zero points, scales, bounds and wrapping
 * accumulators; guard bytes between and after the output pixels. Each ISA's
 * column kernel is checked the same way, with its any-tap kernel, on one
 * pixel whose taps are a column of the image (a stride past the channels). */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "dwconv_test.h"
#include "ukernels/qs8-qc8w-dwconv/qs8-qc8w-dwconv.h"

enum { MAX_WIDTH = 3, OFFSET = 64 };

typedef struct {
  size_t channels, taps, width, out_inc;
  size_t stride; /* column kernel: bytes between taps (0: the indirect kernel) */
  const int8_t** ind; /* [width][taps]: into image (before the offset) or zero */
  int8_t* zero;
  int8_t* wt;         /* [taps][channels] */
  int32_t* bias;
  float* scale;
  int32_t izp;
  tff_qs8_dwconv_params p;
} Case;

/* out = requant(bias + Σ (x − izp)·w) from the unpacked operands. */
static void direct(const Case* t, int8_t* out) {
  for (size_t px = 0; px < t->width; ++px) {
    for (size_t c = 0; c < t->channels; ++c) {
      uint32_t acc = (uint32_t)t->bias[c];
      for (size_t s = 0; s < t->taps; ++s) {
        const int8_t* x = t->ind[px * t->taps + s];
        if (x != t->zero) x += OFFSET;
        acc += (uint32_t)((x[c] - t->izp) * t->wt[s * t->channels + c]);
      }
      volatile float v = (float)(int32_t)acc * t->scale[c];
      float f = v;
      f = f < t->p.min_less_zp ? t->p.min_less_zp : f;
      f = f > t->p.max_less_zp ? t->p.max_less_zp : f;
      out[px * (t->channels + t->out_inc) + c] = (int8_t)((int32_t)lrintf(f) + t->p.zero_point);
    }
  }
}

static void produce(const tff_qs8_qc8w_dwconv_config* cfg, const Case* t, int8_t* out) {
  void* packed = malloc(tff_qs8_qc8w_dwconv_packed_size(cfg, t->channels, t->taps));
  tff_qs8_qc8w_dwconv_pack(cfg, t->channels, t->taps, t->wt, t->bias, t->izp, t->scale, packed);
  if (t->stride)
    cfg->col(t->channels, t->taps, t->ind[0] + OFFSET, t->stride, packed, out, &t->p);
  else
    cfg->fn(t->channels, t->width, t->taps, t->ind, packed, out, t->out_inc, OFFSET, t->zero,
            &t->p);
  free(packed);
}

/* 0 when the pixels match and every byte between/after them holds GUARD. */
static int compare(const Case* t, const int8_t* got, const int8_t* want, const char* name,
                   const char* what) {
  const size_t stride = t->channels + t->out_inc, total = t->width * stride + GUARD_BYTES;
  for (size_t i = 0; i < total; ++i) {
    const int in_pixel = i < t->width * stride && i % stride < t->channels;
    if (in_pixel ? got[i] == want[i] : (uint8_t)got[i] == GUARD) continue;
    printf("FAIL %s vs %s: channels=%zu taps=%zu width=%zu inc=%zu column stride=%zu byte %zu: "
           "%d != %d\n", name, what, t->channels, t->taps, t->width, t->out_inc, t->stride, i, got[i],
           in_pixel ? want[i] : GUARD);
    return 1;
  }
  return 0;
}

/* One case: random operands shaped by the arguments, `mode` picks the
 * zero points, scales and bounds (0 random, 1..3 extremes); with a stride,
 * one pixel of the column kernels over taps `stride` bytes apart. */
static int run_one(const tff_qs8_qc8w_dwconv_config* cfg, const tff_qs8_qc8w_dwconv_config* twin,
                   size_t channels, size_t taps, size_t width, int mode, size_t stride) {
  Case t = {channels, taps,  width, mode & 1 ? 5 : 0, stride, NULL, NULL, NULL,
            NULL,     NULL, 0,     {0, 0, 0}};
  const size_t pixels = stride ? taps : 4, pixel = stride ? stride : channels;
  int8_t* image = malloc(OFFSET + pixels * pixel);
  t.zero = malloc(channels);
  t.ind = malloc(width * taps * sizeof(*t.ind));
  t.wt = malloc(taps * channels);
  t.bias = malloc(channels * sizeof(int32_t));
  t.scale = malloc(channels * sizeof(float));
  const int32_t zps[4] = {rnd_range(-128, 127), -128, 127, 0};
  t.izp = zps[mode];
  const int32_t ozp = zps[(mode + 1) % 4];
  for (size_t i = 0; i < OFFSET + pixels * pixel; ++i) image[i] = (int8_t)rnd_range(-128, 127);
  memset(t.zero, (int8_t)t.izp, channels);
  for (size_t i = 0; i < width * taps; ++i) /* a quarter of the taps in the padding */
    t.ind[i] = stride ? image + i * stride
                      : (rnd() % 4 == 0 ? t.zero : image + (rnd() % pixels) * channels);
  for (size_t i = 0; i < taps * channels; ++i)
    t.wt[i] = (int8_t)(mode == 2 ? -128 : rnd_range(-128, 127));
  for (size_t c = 0; c < channels; ++c) {
    /* mode 3: accumulators near and past ±2^31, so they wrap */
    t.bias[c] = mode == 3 ? (int32_t)(rnd() | 0x7fff0000u) : rnd_range(-100000, 100000);
    const float scales[4] = {rnd_unit() * 0.01f + 1e-6f, rnd_unit() * 0.5f, 10.0f,
                             rnd_unit() * 1e-3f};
    t.scale[c] = scales[mode];
  }
  int32_t lo = -128, hi = 127;
  if (mode == 0) {
    lo = rnd_range(-128, 0);
    hi = rnd_range(lo, 127);
  } else if (mode == 2) {
    hi = lo = rnd_range(-128, 127);
  }
  t.p = (tff_qs8_dwconv_params){(float)(lo - ozp), (float)(hi - ozp), ozp};

  const size_t bytes = width * (channels + t.out_inc) + GUARD_BYTES;
  int8_t* want = malloc(bytes);
  int8_t* ref = malloc(bytes);
  int8_t* got = malloc(bytes);
  memset(want, GUARD, bytes);
  memset(ref, GUARD, bytes);
  memset(got, GUARD, bytes);
  direct(&t, want);
  produce(twin, &t, ref);
  produce(cfg, &t, got);
  const int bad = compare(&t, ref, want, twin->name, "direct") ||
                  compare(&t, got, ref, cfg->name, twin->name);
  free(image), free(t.zero), free(t.ind), free(t.wt), free(t.bias), free(t.scale);
  free(want), free(ref), free(got);
  return bad;
}

/* The case through the kernel, and for width 1 through the ISA's column
 * kernel (with its any-tap kernel) when the channels fill its tile. */
static int run_case(const tff_qs8_qc8w_dwconv_config* cfg, const tff_qs8_qc8w_dwconv_config* twin,
                    size_t channels, size_t taps, size_t width, int mode) {
  if (run_one(cfg, twin, channels, taps, width, mode, 0)) return 1;
  if (cfg->taps != 0 || width != 1 || channels < cfg->tile) return 0;
  return run_one(cfg, twin, channels, taps, 1, mode, channels + 3 + (size_t)mode * 16);
}

/* The scalar kernel for `taps` taps. */
static const tff_qs8_qc8w_dwconv_config* twin_of(const tff_qs8_qc8w_dwconv_config* cfg,
                                                 size_t taps) {
  (void)cfg;
  return tff_qs8_qc8w_dwconv_select(0, taps, 1);
}

DWCONV_TEST_MAIN(tff_qs8_qc8w_dwconv_config, tff_qs8_qc8w_dwconv_configs,
                 tff_qs8_qc8w_dwconv_num_configs, twin_of)
