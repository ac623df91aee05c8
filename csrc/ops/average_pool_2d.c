/* AVERAGE_POOL_2D: float32, int8 and int16 (TFLite pooling.cc). Padding taps are not
 * counted. int8 (docs/numerics.md §1.10): raw codes (input and output
 * quantization are meant to match; TFLite only DCHECKs it), the sum S of the
 * n in-image taps rounded half away from zero, (S ± n/2)/n, then clamped to
 * the activation bounds. XNNPACK takes only float average pooling, so both
 * numerics modes run this int8 formula; int16 (16x8 mode) runs the same one
 * on int16 codes. float32 and int8 run the f32-avgpool / qs8-avgpool
 * ukernel prepare picks for the CPU (every ISA the same bits); int16 runs
 * portable C. */
#include "cpu/cpu.h"
#include "ops.h"
#include "pool_common.h"
#include "ukernels/f32-avgpool/f32-avgpool.h"
#include "ukernels/qs8-avgpool/qs8-avgpool.h"

typedef tff_pool_op OpData;

static void avgpool_s16(size_t pixels, size_t taps, size_t channels, const int16_t* const* in,
                        int16_t* out, const tff_qs8_pool_params* p) {
  tff_pool_s16(pixels, taps, channels, in, out, p, 0);
}

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  TF_LITE_ENSURE_OK(ctx, tff_pool_prepare(ctx, node, d ? &d->g : NULL));
  const TfLitePoolParams* p = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* out = tff_output(ctx, node, 0);
  const uint32_t isa = tff_cpu_effective();
  const tff_f32_avgpool_minmax_config* f = tff_f32_avgpool_minmax_select(isa);
  const tff_qs8_avgpool_minmax_config* q = tff_qs8_avgpool_minmax_select(isa);
  tff_pool_kernels(d, out->type, f->fn, f->name, q->fn, q->name, avgpool_s16,
                   "avgpool_s16 (portable)");
  if (out->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(ctx, tff_check_quant(ctx, "AVERAGE_POOL_2D", "output", out));
  return tff_act_range_quant(ctx, p->activation, out, &d->qp.min, &d->qp.max);
}

const TfLiteRegistration* tff_register_AVERAGE_POOL_2D(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_pool_invoke,
                                       .profiling_string = tff_pool_kernel_name,
                                       .builtin_code = kTfLiteBuiltinAveragePool2d,
                                       .version = 1};
  return &r;
}
