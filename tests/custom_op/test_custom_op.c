/* Custom ops for tests/test_custom_ops.py, built against the installed
 * headers: TffAdd (out = a + b, float32, same shapes) returned with its
 * custom_name set, the same kernel without a name (the test names it with
 * NAME=...), and a registerer returning NULL. init/free count the live nodes,
 * so the test sees every init matched by a free. */
#include <stdlib.h>
#include <string.h>

#include "tflite_fast/common.h"

#define EXPORT __attribute__((visibility("default")))

static int live_nodes;

static void* init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx, (void)buf, (void)len;
  ++live_nodes;
  return &live_nodes; /* any non-NULL pointer: free is called with it */
}

static void free_node(TfLiteContext* ctx, void* data) {
  (void)ctx, (void)data;
  --live_nodes;
}

static TfLiteStatus prepare(TfLiteContext* ctx, TfLiteNode* node) {
  if (node->inputs->size != 2 || node->outputs->size != 1) {
    ctx->ReportError(ctx, "TffAdd: expected 2 inputs and 1 output, got %d and %d",
                     node->inputs->size, node->outputs->size);
    return kTfLiteError;
  }
  const TfLiteTensor* a = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* b = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (a->type != kTfLiteFloat32 || b->type != kTfLiteFloat32 || a->bytes != b->bytes) {
    ctx->ReportError(ctx, "TffAdd: inputs must be float32 of one shape");
    return kTfLiteError;
  }
  /* The library links nothing of tflite_fast (as a TFLite op would not):
   * the new dims are built by hand; ResizeTensor takes and frees them. */
  TfLiteIntArray* dims = (TfLiteIntArray*)malloc(sizeof(int) * (size_t)(1 + a->dims->size));
  if (!dims) return kTfLiteError;
  dims->size = a->dims->size;
  memcpy(dims->data, a->dims->data, sizeof(int) * (size_t)a->dims->size);
  return ctx->ResizeTensor(ctx, out, dims);
}

static TfLiteStatus invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* a = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* b = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const size_t n = a->bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i) out->data.f[i] = a->data.f[i] + b->data.f[i];
  return kTfLiteOk;
}

EXPORT const TfLiteRegistration* register_tff_add(void) {
  static TfLiteRegistration r;
  r.init = init;
  r.free = free_node;
  r.prepare = prepare;
  r.invoke = invoke;
  r.custom_name = "TffAdd";
  r.version = 1;
  return &r;
}

EXPORT const TfLiteRegistration* register_unnamed_add(void) {
  static TfLiteRegistration r;
  r.init = init;
  r.free = free_node;
  r.prepare = prepare;
  r.invoke = invoke;
  return &r;
}

EXPORT const TfLiteRegistration* register_null(void) { return NULL; }

EXPORT int live_node_count(void) { return live_nodes; }
