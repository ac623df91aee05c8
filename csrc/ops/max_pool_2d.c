/* MAX_POOL_2D: float32, int8 and int16 (TFLite pooling.cc). The int8 kernel works on
 * raw codes like TFLite's: input and output quantization are meant to match
 * (TFLite only DCHECKs it), and the output is clamped to the activation
 * bounds of the output quantization. float32 and int8 run the f32-maxpool /
 * qs8-maxpool ukernel prepare picks for the CPU (every ISA the same bits).
 * int16 (16x8 mode) is the same on int16 codes in both numerics modes, in
 * portable C: XNNPACK takes no int16 pooling. */
#include "cpu/cpu.h"
#include "ops.h"
#include "pool_common.h"
#include "ukernels/f32-maxpool/f32-maxpool.h"
#include "ukernels/qs8-maxpool/qs8-maxpool.h"

typedef tff_pool_op OpData;

static void maxpool_s16(size_t pixels, size_t taps, size_t channels, const int16_t* const* in,
                        int16_t* out, const tff_qs8_pool_params* p) {
  tff_pool_s16(pixels, taps, channels, in, out, p, 1);
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_pool_prepare(ctx, node, d ? &d->g : NULL));
  const TfLitePoolParams* p = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* in = tff_input(ctx, node, 0);
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  const uint32_t isa = tff_cpu_effective();
  const tff_f32_maxpool_minmax_config* f = tff_f32_maxpool_minmax_select(isa);
  const tff_qs8_maxpool_minmax_config* q = tff_qs8_maxpool_minmax_select(isa);
  tff_pool_kernels(d, out->type, f->fn, f->name, q->fn, q->name, maxpool_s16,
                   "maxpool_s16 (portable)");
  if (out->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "MAX_POOL_2D", "output", out));
  if (out->type == kTfLiteInt16)
    return tff_act_range_quant(ctx, p->activation, out, &d->qp.min, &d->qp.max);
  /* AUTO hands int8 max pooling to XNNPACK when no stride exceeds the filter
   * and the quantization of input and output match; XNNPACK rounds the
   * activation bounds ties-to-even, the builtin kernel half away from zero.
   * XNNPACK declines activations past RELU6; tff_act_range_quant rejects them. */
  const int xnnpack = !tff_numerics_ref(ctx) && p->stride_width <= p->filter_width &&
                      p->stride_height <= p->filter_height &&
                      tff_scale(in) == tff_scale(out) &&
                      tff_zero_point(in) == tff_zero_point(out);
  if (xnnpack && p->activation <= kTfLiteActRelu6) {
    tff_act_range_quant_xnn(p->activation, tff_scale(out), tff_zero_point(out), INT8_MIN,
                            INT8_MAX, &d->qp.min, &d->qp.max);
    return kTfLiteOk;
  }
  return tff_act_range_quant(ctx, p->activation, out, &d->qp.min, &d->qp.max);
}

const TfLiteRegistration* tff_register_MAX_POOL_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_pool_invoke,
                                       .profiling_string = tff_pool_kernel_name,
                                       .builtin_code = kTfLiteBuiltinMaxPool2d,
                                       .version = 1};
  return &r;
}
