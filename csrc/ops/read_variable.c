/* READ_VARIABLE: copies the value of the resource variable whose id is the
 * input into the output.
 *
 * The value exists only after an ASSIGN_VARIABLE ran (usually in a CALL_ONCE
 * init subgraph), so its shape is unknown at prepare. Like TFLite, an output
 * whose shape the model states (rank > 0, no -1 in its signature) keeps that
 * shape and stays in the arena; invoke then checks that the value has exactly
 * that type and shape. Otherwise the output is dynamic and invoke sizes it
 * to the value (the interpreter prepares the ops after it at invoke). */
#include <stdio.h>

#include "../runtime/subgraph.h"
#include "kernel_util.h"
#include "ops.h"

/* "[d0,d1,...]" into buf (truncated to its size). */
static const char* shape_str(const TfLiteIntArray* dims, char* buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < dims->size && n < size; ++i)
    n += (size_t)snprintf(buf + n, size - n, i ? ",%d" : "%d", dims->data[i]);
  if (n < size) snprintf(buf + n, size - n, "]");
  return buf;
}

static int has_unknown_dim(const TfLiteTensor* t) {
  if (t->dims_signature == NULL) return 0;
  for (int i = 0; i < t->dims_signature->size; ++i)
    if (t->dims_signature->data[i] < 0) return 1;
  return 0;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_MSG(ctx, tff_num_inputs(node) == 1 && tff_num_outputs(node) == 1,
                     "READ_VARIABLE: expected 1 input and 1 output, got %d and %d",
                     tff_num_inputs(node), tff_num_outputs(node));
  const TfLiteTensor* id = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  TF_LITE_ENSURE_MSG(ctx, id != NULL, "READ_VARIABLE: the resource input is missing");
  TF_LITE_ENSURE_MSG(ctx, id->type == kTfLiteResource || id->type == kTfLiteInt32,
                     "READ_VARIABLE: resource input type %s must be RESOURCE or INT32",
                     TfLiteTypeGetName(id->type));
  TF_LITE_ENSURE_MSG(ctx, tff_num_elements(id->dims) == 1,
                     "READ_VARIABLE: the resource input must have one element, has %zu",
                     tff_num_elements(id->dims));
  TF_LITE_ENSURE_MSG(ctx, tff_type_size(out->type) > 0,
                     "READ_VARIABLE: output type %s is not supported",
                     TfLiteTypeGetName(out->type));
  /* A rank-0 model shape may mean "unknown" as well as "scalar" (TFLite). */
  if (out->dims->size == 0 || has_unknown_dim(out)) out->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* id = tff_input(ctx, node, 0);
  TfLiteTensor* out = tff_output(ctx, node, 0);
  const int32_t rid = id->data.i32[0];
  const TfLiteTensor* v = tff_resource_value(ctx, rid);
  char a[96], b[96];
  TF_LITE_ENSURE_MSG(ctx, v != NULL,
                     "READ_VARIABLE: resource variable %d has no value (it was never assigned)",
                     (int)rid);
  TF_LITE_ENSURE_MSG(ctx, v->type == out->type,
                     "READ_VARIABLE: variable '%s' holds %s, the output is %s", v->name,
                     TfLiteTypeGetName(v->type), TfLiteTypeGetName(out->type));
  if (out->allocation_type == kTfLiteDynamic) {
    TF_LITE_ENSURE_OK(ctx, tff_resize_dynamic(ctx, out, v->dims->size, v->dims->data));
  } else {
    TF_LITE_ENSURE_MSG(ctx, TfLiteIntArrayEqual(out->dims, v->dims),
                       "READ_VARIABLE: variable '%s' has shape %s, but the model gives the "
                       "output the static shape %s",
                       v->name, shape_str(v->dims, a, sizeof(a)),
                       shape_str(out->dims, b, sizeof(b)));
  }
  tff_copy(out->data.raw, v->data.raw, v->bytes);
  return kTfLiteOk;
}

const TfLiteRegistration* tff_register_READ_VARIABLE(void) {
  static const TfLiteRegistration r = {.prepare = prepare,
                                       .invoke = invoke,
                                       .builtin_code = kTfLiteBuiltinReadVariable,
                                       .version = 1};
  return &r;
}
