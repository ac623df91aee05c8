/* VAR_HANDLE: the resource id of the variable (container, shared_name), as an
 * int32 in a RESOURCE scalar. Ids are interpreter-wide (csrc/runtime/
 * resources.c), so every subgraph's handle to a name holds the same id.
 *
 * The id is fixed at prepare, so the output is written there and points at
 * the node's own 4 bytes (kTfLiteCustom: neither planned nor freed by the
 * runtime); invoke has nothing to do. A RESOURCE tensor has no element size,
 * so the runtime could not size it anyway. */
#include "../runtime/subgraph.h"
#include "kernel_util.h"
#include "ops.h"

typedef struct {
  int32_t id;
} OpData;

TFF_ZEROED_INIT(init, OpData)

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  OpData* d = (OpData*)node->user_data;
  const TfLiteVarHandleParams* p = (const TfLiteVarHandleParams*)node->builtin_data;
  TF_LITE_ENSURE_MSG(ctx, d != NULL, "VAR_HANDLE: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 0 && tff_num_outputs(node) == 1,
                     "VAR_HANDLE: expected 0 inputs and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, out->type == kTfLiteResource || out->type == kTfLiteInt32,
                     "VAR_HANDLE: output type %s must be RESOURCE or INT32",
                     TfLiteTypeGetName(out->type));
  d->id = tff_resource_id(ctx, p ? p->container : NULL, p ? p->shared_name : NULL);
  TF_LITE_ENSURE_MSG(ctx, d->id >= 0, "VAR_HANDLE: out of memory");
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(out->dims) == 1,
                     "VAR_HANDLE: output must have one element, has %zu",
                     tff_num_elements(out->dims));
  out->allocation_type = kTfLiteCustom;
  out->data.i32 = &d->id;
  out->bytes = sizeof(d->id);
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  (void)ctx, (void)node;
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_VAR_HANDLE(void) {
  static const TfLiteRegistration r = {.init = init,
                                       .free = tff_free_user_data,
                                       .prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinVarHandle,
                                       .version = 1};
  return &r;
}
