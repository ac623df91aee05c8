/* PADV2: PAD with the pad value as a third input (constant_values); TFLite
 * runs both codes on one kernel, and so does pad.c. */
#include "ops.h"
#include "pad_common.h"

const TfLiteRegistration* tff_register_PADV2(void) {
  static const TfLiteRegistration r = {.init = tff_pad_init,
                                       .free = tff_free_user_data,
                                       .prepare = tff_pad_prepare,
                                       .invoke = tff_pad_invoke,
                                       .builtin_code = kTfLiteBuiltinPadv2,
                                       .version = 1};
  return &r;
}
