/* Builtin code -> registration. */
#include "ops.h"

#include <stddef.h>

const TfLiteRegistration* tff_builtin_registration(int builtin_code) {
  switch (builtin_code) {
#define TFF_OP(name, code) \
  case code:               \
    return tff_register_##name();
#include "op_list.h"
#undef TFF_OP
    default:
      return NULL;
  }
}
