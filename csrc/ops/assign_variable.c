/* ASSIGN_VARIABLE: copies input 1 (type, shape, quantization params, data)
 * into the resource variable whose id is input 0; the variable's storage
 * follows the value's size (csrc/runtime/resources.c). */
#include "../runtime/subgraph.h"
#include "kernel_util.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 2 && tff_num_outputs(node) == 0,
                     "ASSIGN_VARIABLE: expected 2 inputs and 0 outputs, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* id = tff_input(ctx, node, 0);
  const TfLiteTensor* value = tff_input(ctx, node, 1);
  TF_LITE_ENSURE_MSG(ctx, id && value, "ASSIGN_VARIABLE: an input is missing");
  TF_LITE_ENSURE_MSG(ctx, id->type == kTfLiteResource || id->type == kTfLiteInt32,
                     "ASSIGN_VARIABLE: resource input type %s must be RESOURCE or INT32",
                     TfLiteTypeGetName(id->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(id->dims) == 1,
                     "ASSIGN_VARIABLE: the resource input must have one element, has %zu",
                     tff_num_elements(id->dims));
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(value->type) > 0,
                     "ASSIGN_VARIABLE: value type %s is not supported",
                     TfLiteTypeGetName(value->type));
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* id = tff_input(ctx, node, 0);
  return tff_resource_assign(ctx, id->data.i32[0], tff_input(ctx, node, 1));
}

const TfLiteRegistration* tff_register_ASSIGN_VARIABLE(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinAssignVariable,
                                       .version = 1};
  return &r;
}
