/* RFFT2D (TFLite rfft2d.cc): the 2-D FFT of the last two dims of a float32
 * input, cropped or zero-padded to fft_length = [H, W] (powers of two), kept
 * for frequencies [H, W/2 + 1], as complex64. Computed in double, as TFLite
 * (Ooura's rdft2d) does, here by radix-2 FFTs of the rows then of the
 * columns; the float32 results agree to rounding. fft_length must hold its
 * values at prepare. One kernel in both numerics modes. */
#include "kernel_util.h"
#include "ops.h"

typedef struct OpData {
  int fft_h, fft_w, in_h, in_w;
  size_t slices;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static int pow2(int32_t v) { return v > 0 && (v & (v - 1)) == 0; }

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE(ctx, d != NULL);
  TF_LITE_ENSURE_EQ(ctx, tff_num_inputs(node), 2);
  TF_LITE_ENSURE_EQ(ctx, tff_num_outputs(node), 1);
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* len = tff_input(ctx, node, 1);
  TF_LITE_ENSURE(ctx, in != NULL && len != NULL && tff_output(ctx, node, 0) != NULL);
  TF_LITE_ENSURE_MSG(ctx, in->type == kTfLiteFloat32, "RFFT2D: input type %s must be float32",
                     TfLiteTypeGetName(in->type));
  TF_LITE_ENSURE_MSG(ctx, tff_output(ctx, node, 0)->type == kTfLiteComplex64,
                     "RFFT2D: output type must be complex64");
  const int rank = tff_rank(in);
  TF_LITE_ENSURE_MSG(ctx, rank >= 2 && rank <= 16, "RFFT2D: input rank %d is not in [2, 16]",
                     rank);
  TF_LITE_ENSURE_MSG(ctx, len->type == kTfLiteInt32 && tff_rank(len) == 1 &&
                              tff_dim(len, 0) == 2,
                     "RFFT2D: fft_length must be an int32 vector of 2");
  TF_LITE_ENSURE_MSG(ctx, tff_is_constant(len),
                     "RFFT2D: fft_length tensor %d is not constant; dynamic shapes are not "
                     "supported yet", node->inputs->data[1]);
  d->fft_h = len->data.i32[0];
  d->fft_w = len->data.i32[1];
  TF_LITE_ENSURE_MSG(ctx, pow2(d->fft_h) && pow2(d->fft_w),
                     "RFFT2D: fft_length [%d, %d] must be powers of two", (int)d->fft_h,
                     (int)d->fft_w);
  /* The double-precision work area stays below 256 MiB. */
  TF_LITE_ENSURE_MSG(ctx, (int64_t)d->fft_h * (d->fft_w / 2 + 1) <= (1 << 24),
                     "RFFT2D: fft_length [%d, %d] is too large", (int)d->fft_h, (int)d->fft_w);
  d->in_h = tff_dim(in, rank - 2);
  d->in_w = tff_dim(in, rank - 1);
  d->slices = 1;
  int dims[16];
  for (int i = 0; i < rank - 2; ++i) {
    d->slices *= (size_t)tff_dim(in, i);
    dims[i] = tff_dim(in, i);
  }
  dims[rank - 2] = d->fft_h;
  dims[rank - 1] = d->fft_w / 2 + 1;
  TF_LITE_ENSURE_OK(ctx, tff_resize_output(ctx, tff_output(ctx, node, 0), rank, dims));
  /* The [H, W/2 + 1] spectrum and one line of the longer length, in double. */
  const size_t n = (size_t)(d->fft_h > d->fft_w ? d->fft_h : d->fft_w);
  return tff_scratch_request(ctx, node, 0,
                             sizeof(double) * 2 * ((size_t)d->fft_h * (size_t)dims[rank - 1] + n));
}

/* In-place complex FFT of length n (a power of two): bit reversal, then
 * butterflies with twiddles exp(-2πi·j/len) from cos and sin directly. */
static void fft(double* re, double* im, int n) {
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) {
      double t = re[i];
      re[i] = re[j], re[j] = t;
      t = im[i];
      im[i] = im[j], im[j] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int half = len / 2;
    for (int j = 0; j < half; ++j) {
      const double a = -6.283185307179586477 * (double)j / (double)len;
      const double wr = cos(a), wi = sin(a);
      for (int i = 0; i < n; i += len) {
        const int p = i + j, q = p + half;
        const double vr = re[q] * wr - im[q] * wi, vi = re[q] * wi + im[q] * wr;
        re[q] = re[p] - vr, im[q] = im[p] - vi;
        re[p] += vr, im[p] += vi;
      }
    }
  }
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const OpData* d = (const OpData*)node->user_data;
  const float* x = tff_input(ctx, node, 0)->data.f;
  TfLiteComplex64* y = tff_output(ctx, node, 0)->data.c64;
  const int h = d->fft_h, w = d->fft_w, wc = d->fft_w / 2 + 1;
  const int vh = d->in_h < h ? d->in_h : h, vw = d->in_w < w ? d->in_w : w;
  double* spec = (double*)tff_scratch(ctx, node, 0); /* [h][wc] (re, im) */
  double* re = spec + 2 * (size_t)h * (size_t)wc;
  double* im = re + (h > w ? h : w);
  for (size_t s = 0; s < d->slices; ++s) {
    const float* xs = x + s * (size_t)d->in_h * (size_t)d->in_w;
    for (int i = 0; i < h; ++i) {
      for (int j = 0; j < w; ++j) {
        re[j] = i < vh && j < vw ? (double)xs[(size_t)i * (size_t)d->in_w + (size_t)j] : 0.0;
        im[j] = 0.0;
      }
      fft(re, im, w);
      for (int k = 0; k < wc; ++k) {
        spec[2 * ((size_t)i * wc + k)] = re[k];
        spec[2 * ((size_t)i * wc + k) + 1] = im[k];
      }
    }
    TfLiteComplex64* ys = y + s * (size_t)h * (size_t)wc;
    for (int k = 0; k < wc; ++k) {
      for (int i = 0; i < h; ++i) {
        re[i] = spec[2 * ((size_t)i * wc + k)];
        im[i] = spec[2 * ((size_t)i * wc + k) + 1];
      }
      fft(re, im, h);
      for (int i = 0; i < h; ++i) {
        ys[(size_t)i * wc + k].re = (float)re[i];
        ys[(size_t)i * wc + k].im = (float)im[i];
      }
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_RFFT2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinRfft2d,
                                       .version = 1};
  return &r;
}
