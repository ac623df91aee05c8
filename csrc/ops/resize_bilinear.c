/* RESIZE_BILINEAR: NHWC input, output [N, size[0], size[1], C], with
 * align_corners or half_pixel_centers (TFLite refuses both at once). The
 * size must hold its values at prepare. Prepare computes, per output row
 * and column, the two source rows/columns and the weight of the second one;
 * invoke blends four pixels per output pixel.
 *
 * Numerics:
 *  - float32: TFLite's reference expression (in_y = y·s_y, or (y + 0.5)·s_y
 *    − 0.5; s = in/out, or (in−1)/(out−1) with align_corners);
 *      o = v00·(1−dy)·(1−dx) + v10·dy·(1−dx) + v01·(1−dy)·dx + v11·dy·dx.
 *    XNNPACK (AUTO) and TFLite's optimized kernel reorder this; all agree
 *    within 1e-5.
 *  - int8/int16, reference (and int16 or an int8 node AUTO leaves to TFLite,
 *    whose optimized int8 kernel is the reference one): ResizeBilinearInteger,
 *    Q10 positions s10 = (2^10·in + out/2)/out, in_y = y·s10 (+ s10/2 − 2^9),
 *    y0 = max(in_y/2^10, 0), y1 = min(ceil(in_y/2^10), in−1), w = in_y − 2^10·y0;
 *      o = Σ v·wy·wx (int64), rounded half away from zero at 2^20.
 *  - int8, default, when AUTO's XNNPACK takes the node (the size a model
 *    constant, 4-D): XNNPACK's q11 indirection: in_y in float clamped to
 *    [0, in−1], y0 = (int)in_y, y1 = min(y0+1, in−1),
 *    a = lrintf((in_y − y0)·2^11), and
 *      t = (v00 << 11) + (v01 − v00)·ax,  b = (v10 << 11) + (v11 − v10)·ax,
 *      o = ((t << 11) + (b − t)·ay + 2^21) >> 22.
 *    XNNPACK reads align_corners first and ignores half_pixel_centers, so
 *    AUTO accepts both flags at once there, and so does this mode. */
#include <math.h>

#include "kernel_util.h"
#include "ops.h"

enum { SCHEME_FLOAT, SCHEME_INT_REF, SCHEME_INT_XNN };

typedef struct OpData {
  int scheme;
  int in_h, in_w, out_h, out_w;
  void* mem;      /* owns the tables below */
  int* y0;        /* [out_h] */
  int* y1;
  int* x0;        /* [out_w] */
  int* x1;
  int32_t* wy;    /* integer weights of y1 / x1 */
  int32_t* wx;
  float* fy;      /* float fractions of y1 / x1 */
  float* fx;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static void release(TfLiteContext* ctx, void* data) {
  (void)ctx;
  OpData* d = (OpData*)data;
  if (d) free(d->mem);
  free(d);
}

/* TFLite reference, float: source positions of one axis. */
static void axis_float(int in, int out, int align, int half, int* i0, int* i1, float* f) {
  float scale = (float)in / (float)out;
  if (align && out > 1) scale = (float)(in - 1) / (float)(out - 1);
  for (int o = 0; o < out; ++o) {
    const float v = half ? ((float)o + 0.5f) * scale - 0.5f : (float)o * scale;
    const float fl = floorf(v);
    const int lo = (int)fl > 0 ? (int)fl : 0;
    const int c = (int)ceilf(v);
    i0[o] = lo;
    i1[o] = c < in - 1 ? c : in - 1;
    f[o] = v - (float)lo;
  }
}

/* TFLite reference, integer (Q10). */
static void axis_int(int in, int out, int align, int half, int* i0, int* i1, int32_t* w) {
  int32_t s10 = (int32_t)(((1 << 10) * (int64_t)in + out / 2) / out);
  if (align && out > 1) s10 = (int32_t)(((1 << 10) * (int64_t)(in - 1) + (out - 1) / 2) / (out - 1));
  for (int o = 0; o < out; ++o) {
    const int32_t v = half ? o * s10 + s10 / 2 - (1 << 9) : o * s10;
    int lo = v / (1 << 10) > 0 ? v / (1 << 10) : 0;
    const int hi = (v + (1 << 10) - 1) / (1 << 10);
    /* TFLite would read past the image when rounding of s10 carries the
     * last position beyond it; the index is kept inside, the weight not. */
    const int32_t wt = v - (1 << 10) * lo;
    lo = lo < in - 1 ? lo : in - 1;
    i0[o] = lo;
    i1[o] = hi < in - 1 ? hi : in - 1;
    w[o] = wt;
  }
}

/* XNNPACK xnn_indirection_init_resize_bilinear2d_hwc_q11. */
static void axis_xnn(int in, int out, int align, int half, int* i0, int* i1, int32_t* w) {
  const int adj = align && out != 1;
  const float scale = (float)(in - adj) / (float)(out - adj);
  const float maxv = (float)(in - 1);
  const int legacy = align || !half;
  const float offset = 0.5f * scale - 0.5f;
  for (int o = 0; o < out; ++o) {
    float v = (float)o * scale;
    if (legacy) {
      v = v < maxv ? v : maxv;
    } else {
      v = v + offset;
      v = v > 0.0f ? v : 0.0f;
      v = v < maxv ? v : maxv;
    }
    const int lo = (int)v;
    i0[o] = lo;
    i1[o] = lo + 1 < in - 1 ? lo + 1 : in - 1;
    w[o] = (int16_t)lrintf((v - (float)lo) * 2048.0f);
  }
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "RESIZE_BILINEAR: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 1,
                     "RESIZE_BILINEAR: expected 2 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* size = tff_input(ctx, node, 1);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, in && size && out, "RESIZE_BILINEAR: an input or the output is missing");
  TF_LITE_ENSURE_MSG(ctx, tff_rank(in) == 4, "RESIZE_BILINEAR: input has %d dims, expected 4",
                     tff_rank(in));
  TF_LITE_ENSURE_MSG(ctx, size->type == kTfLiteInt32 && tff_rank(size) == 1 && tff_dim(size, 0) == 2,
                     "RESIZE_BILINEAR: size must be an INT32 vector of 2 elements");
  TF_LITE_ENSURE_MSG(ctx, in->type == out->type,
                     "RESIZE_BILINEAR: input type %s and output type %s differ",
                     TfLiteTypeGetName(in->type), TfLiteTypeGetName(out->type));
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32 || in->type == kTfLiteInt8 ||
                              in->type == kTfLiteInt16,
                     "RESIZE_BILINEAR: type %s is not supported (float32, int8, int16)",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(size),
                     "RESIZE_BILINEAR: size tensor %d is not constant; dynamic shapes are not "
                     "supported yet", node->inputs->data[1]);
  const int oh = size->data.i32[0], ow = size->data.i32[1];
  TF_LITE_ENSURE_MSG(ctx, oh > 0 && ow > 0, "RESIZE_BILINEAR: size %d x %d must be positive", oh,
                     ow);
  const TfLiteResizeBilinearParams* p = (const TfLiteResizeBilinearParams*)node->builtin_data;
  const int align = p != NULL && p->align_corners;
  int half = p != NULL && p->half_pixel_centers;
  /* AUTO's XNNPACK takes float32 and int8 when the size is a model constant. */
  const int xnn = !tff_numerics_ref(ctx) && in->type != kTfLiteInt16 &&
                  size->allocation_type == kTfLiteMmapRo;
  TF_LITE_ENSURE_MSG(ctx, !(align && half) || xnn,
                     "If half_pixel_centers is True, align_corners must be False.");
  if (align) half = 0; /* XNNPACK's reading of both flags */
  d->scheme = in->type == kTfLiteFloat32 ? SCHEME_FLOAT : xnn ? SCHEME_INT_XNN : SCHEME_INT_REF;
  d->in_h = tff_dim(in, 1);
  d->in_w = tff_dim(in, 2);
  d->out_h = oh;
  d->out_w = ow;
  TF_LITE_ENSURE_MSG(ctx, d->in_h > 0 && d->in_w > 0 && d->in_h < (1 << 20) && d->in_w < (1 << 20) &&
                              oh < (1 << 20) && ow < (1 << 20),
                     "RESIZE_BILINEAR: input %d x %d or output %d x %d is out of range", d->in_h,
                     d->in_w, oh, ow);
  free(d->mem);
  const size_t n = (size_t)oh + (size_t)ow;
  d->mem = malloc(n * (2 * sizeof(int) + sizeof(int32_t) + sizeof(float)));
  TF_LITE_ENSURE_MSG(ctx, d->mem != NULL, "RESIZE_BILINEAR: out of memory");
  d->y0 = (int*)d->mem;
  d->y1 = d->y0 + oh;
  d->x0 = d->y1 + oh;
  d->x1 = d->x0 + ow;
  d->wy = (int32_t*)(d->x1 + ow);
  d->wx = d->wy + oh;
  d->fy = (float*)(d->wx + ow);
  d->fx = d->fy + oh;
  switch (d->scheme) {
    case SCHEME_FLOAT:
      axis_float(d->in_h, oh, align, half, d->y0, d->y1, d->fy);
      axis_float(d->in_w, ow, align, half, d->x0, d->x1, d->fx);
      break;
    case SCHEME_INT_REF:
      axis_int(d->in_h, oh, align, half, d->y0, d->y1, d->wy);
      axis_int(d->in_w, ow, align, half, d->x0, d->x1, d->wx);
      break;
    default:
      axis_xnn(d->in_h, oh, align, half, d->y0, d->y1, d->wy);
      axis_xnn(d->in_w, ow, align, half, d->x0, d->x1, d->wx);
      break;
  }
  const int dims[4] = {tff_dim(in, 0), oh, ow, tff_dim(in, 3)};
  return tff_resize_output(ctx, out, 4, dims);
}

/* One output row of float pixels from source rows r0, r1. */
static void row_float(const OpData* d, const float* r0, const float* r1, float fy, int c,
                      float* o) {
  for (int x = 0; x < d->out_w; ++x, o += c) {
    const float* a = r0 + (size_t)d->x0[x] * c;
    const float* b = r0 + (size_t)d->x1[x] * c;
    const float* e = r1 + (size_t)d->x0[x] * c;
    const float* f = r1 + (size_t)d->x1[x] * c;
    const float fx = d->fx[x];
    for (int k = 0; k < c; ++k)
      o[k] = a[k] * (1 - fy) * (1 - fx) + e[k] * fy * (1 - fx) + b[k] * (1 - fy) * fx +
             f[k] * fy * fx;
  }
}

#define ROW_INT_REF(T)                                                                    \
  static void row_ref_##T(const OpData* d, const T* r0, const T* r1, int32_t wy, int c,   \
                          T* o) {                                                          \
    for (int x = 0; x < d->out_w; ++x, o += c) {                                          \
      const T* a = r0 + (size_t)d->x0[x] * c;                                             \
      const T* b = r0 + (size_t)d->x1[x] * c;                                             \
      const T* e = r1 + (size_t)d->x0[x] * c;                                             \
      const T* f = r1 + (size_t)d->x1[x] * c;                                             \
      const int64_t wx = d->wx[x];                                                        \
      const int64_t w00 = (1024 - wy) * (1024 - wx), w10 = wy * (1024 - wx);              \
      const int64_t w01 = (1024 - wy) * wx, w11 = wy * wx;                                \
      for (int k = 0; k < c; ++k) {                                                       \
        const int64_t s = a[k] * w00 + e[k] * w10 + b[k] * w01 + f[k] * w11;              \
        o[k] = (T)((s + (s > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20));                   \
      }                                                                                   \
    }                                                                                     \
  }
ROW_INT_REF(int8_t)
ROW_INT_REF(int16_t)
#undef ROW_INT_REF

static void row_xnn(const OpData* d, const int8_t* r0, const int8_t* r1, int32_t ay, int c,
                    int8_t* o) {
  for (int x = 0; x < d->out_w; ++x, o += c) {
    const int8_t* a = r0 + (size_t)d->x0[x] * c;
    const int8_t* b = r0 + (size_t)d->x1[x] * c;
    const int8_t* e = r1 + (size_t)d->x0[x] * c;
    const int8_t* f = r1 + (size_t)d->x1[x] * c;
    const int32_t ax = d->wx[x];
    for (int k = 0; k < c; ++k) {
      const int32_t t = (int32_t)((uint32_t)a[k] << 11) + (b[k] - a[k]) * ax;
      const int32_t u = (int32_t)((uint32_t)e[k] << 11) + (f[k] - e[k]) * ax;
      const int32_t acc = (int32_t)((uint32_t)t << 11) + (u - t) * ay;
      o[k] = (int8_t)((acc + (1 << 21)) >> 22);
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int batches = tff_dim(in, 0), c = tff_dim(in, 3);
  const size_t es = tff_type_size(in->type);
  const size_t in_row = (size_t)d->in_w * c * es, in_img = in_row * d->in_h;
  const size_t out_row = (size_t)d->out_w * c * es;
  for (int n = 0; n < batches; ++n) {
    const char* img = in->data.raw_const + n * in_img;
    char* o = out->data.raw + (size_t)n * d->out_h * out_row;
    for (int y = 0; y < d->out_h; ++y, o += out_row) {
      const char* r0 = img + d->y0[y] * in_row;
      const char* r1 = img + d->y1[y] * in_row;
      switch (d->scheme) {
        case SCHEME_FLOAT:
          row_float(d, (const float*)r0, (const float*)r1, d->fy[y], c, (float*)o);
          break;
        case SCHEME_INT_XNN:
          row_xnn(d, (const int8_t*)r0, (const int8_t*)r1, d->wy[y], c, (int8_t*)o);
          break;
        default:
          if (in->type == kTfLiteInt8) {
            row_ref_int8_t(d, (const int8_t*)r0, (const int8_t*)r1, d->wy[y], c, (int8_t*)o);
          } else {
            row_ref_int16_t(d, (const int16_t*)r0, (const int16_t*)r1, d->wy[y], c,
                            (int16_t*)o);
          }
          break;
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_RESIZE_BILINEAR(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = release,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinResizeBilinear,
                                       .version = 1};
  return &r;
}
