/* Registration getters of the builtin ops (see op_list.h). Each returns a
 * static TfLiteRegistration; the same registration serves every version of
 * the op and both numerics modes (prepare reads the mode with
 * tff_numerics_ref()). */
#ifndef TFLITE_FAST_OPS_OPS_H_
#define TFLITE_FAST_OPS_OPS_H_

#include "tflite_fast/builtin_ops.h"
#include "tflite_fast/common.h"

#define TFF_OP(name, code) const TfLiteRegistration* tff_register_##name(void);
#include "op_list.h"
#undef TFF_OP

/* The registration for a builtin code, or NULL when unsupported. */
const TfLiteRegistration* tff_builtin_registration(int builtin_code);

#endif /* TFLITE_FAST_OPS_OPS_H_ */
