/* ADD: float32, int32 and int8, every fused activation, broadcasting up to
 * 6 dims. The kernels are shared with SUB in binary_common.h; int8 uses
 * XNNPACK's integer add in default mode when AUTO would delegate it, else
 * TFLite's reference formula (docs/numerics.md §1.6). */
#include "binary_common.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return tff_addsub_prepare(ctx, node, "ADD", 0);
}

const TfLiteRegistration* tff_register_ADD(void) {
  static const TfLiteRegistration r = {.init = tff_addsub_init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = tff_addsub_invoke,
                                       .profiling_string = tff_binary_kernel_name,
                                       .builtin_code = kTfLiteBuiltinAdd,
                                       .version = 1};
  return &r;
}
