/* SUB: a − b; float32, int32 and int8, every fused activation,
 * broadcasting up to 6 dims. The kernels are ADD's with b negated
 * (binary_common.h): int8 uses XNNPACK's integer add with b's multiplier
 * negated in default mode when AUTO would delegate it, else TFLite's
 * reference formula (docs/numerics.md §1.6). */
#include "binary_common.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_addsub_prepare(ctx, node, "SUB", 1);
}

const TfLiteRegistration* tff_register_SUB(void) {
  static const TfLiteRegistration r = {.init = tff_addsub_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_addsub_invoke,
                                       .profiling_string = tff_binary_kernel_name,
                                       .builtin_code = kTfLiteBuiltinSub,
                                       .version = 1};
  return &r;
}
