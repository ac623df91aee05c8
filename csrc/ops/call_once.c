/* CALL_ONCE: runs the init subgraph (typically VAR_HANDLE + ASSIGN_VARIABLE
 * of every resource variable's initial value) on the first invoke, then does
 * nothing. "Once" is per interpreter and per init subgraph (as TFLite), and
 * starts over after reset_all_variables(), which drops the variables' values
 * (csrc/runtime/resources.c). */
#include "control_flow.h"
#include "ops.h"

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteCallOnceParams* p = (const TfLiteCallOnceParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, p != NULL, "CALL_ONCE: missing options");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 0 && tff_num_outputs(node) == 0,
                     "CALL_ONCE: expected no inputs and no outputs, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const int index = p->init_subgraph_index;
  TfLiteContext* init = tff_cf_subgraph(ctx, "CALL_ONCE", "init", index);
  if (init == NULL) return kTfLiteError;
  TF_LITE_ENSURE_MSG(ctx, tff_subgraph_input_indices(init)->size == 0 &&
                              tff_subgraph_output_indices(init)->size == 0,
                     "CALL_ONCE: init subgraph %d must have no inputs and no outputs", index);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const int index = ((const TfLiteCallOnceParams*)node->builtin_data)->init_subgraph_index;
  if (tff_resource_init_done(ctx, index)) return kTfLiteOk;
  TfLiteContext* init = tff_subgraph_context(ctx, index);
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_allocate(init));
  TF_LITE_ENSURE_OK(ctx, tff_subgraph_invoke(init));
  return tff_resource_set_init_done(ctx, index);
}

const TfLiteRegistration* tff_register_CALL_ONCE(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinCallOnce,
                                       .version = 1};
  return &r;
}
