/* Writing an external delegate for tflite_fast (or for TFLite: the ABI is
 * the same, see common.h).
 *
 * A delegate is a shared library exporting the two plugin symbols below.
 * Python loads it with tflite_fast.interpreter.load_delegate(path, options)
 * and passes it to Interpreter(experimental_delegates=[...]). At
 * construction the runtime calls the delegate's Prepare once per subgraph;
 * Prepare walks the execution plan (GetExecutionPlan and
 * GetNodeAndRegistration, callable only there), picks the nodes it can run
 * and hands them to ReplaceNodeSubsetsWithDelegateKernels with one kernel
 * registration. The runtime partitions the picked nodes as TFLite does and
 * replaces each partition by one node running that kernel: init receives
 * the partition's TfLiteDelegateParams (nodes replaced, its input and output
 * tensors), prepare and invoke get the new node. Tensors the partition uses
 * only inside itself get no memory.
 *
 * Rules the runtime relies on:
 *  - the registration is copied at ReplaceNodeSubsetsWithDelegateKernels and
 *    only its init/free/prepare/invoke/profiling_string/builtin_code/
 *    custom_name/version fields are read (any TFLite header version works);
 *  - kernel invoke reads and writes only the partition's input and output
 *    tensors, through context->tensors;
 *  - errors are reported with context->ReportError and kTfLiteError; the
 *    interpreter then raises RuntimeError with the reported text, and a
 *    failure in Prepare leaves the graph as it was (nothing delegated).
 *
 * Worked example: a delegate that runs every float32 ADD without broadcast
 * or fused activation. It compiles as it stands
 * (tests/test_delegate_guide.py builds it from this header and checks its
 * outputs against ai-edge-litert):
 *
 *   cc -shared -fPIC -I$(python -c "import tflite_fast; print(tflite_fast.get_include())") \
 *      add_delegate.c -o libadd_delegate.so
 *
 * BEGIN EXAMPLE add_delegate.c
#include <stdlib.h>
#include <string.h>

#include "tflite_fast/delegate.h"

static int is_plain_add(TfLiteContext* ctx, const TfLiteNode* node,
                        const TfLiteRegistration* reg) {
  if (reg->builtin_code != kTfLiteBuiltinAdd || node->inputs->size != 2) return 0;
  const TfLiteAddParams* p = (const TfLiteAddParams*)node->builtin_data;
  if (p && p->activation != kTfLiteActNone) return 0;
  const TfLiteTensor* a = &ctx->tensors[node->inputs->data[0]];
  const TfLiteTensor* b = &ctx->tensors[node->inputs->data[1]];
  return a->type == kTfLiteFloat32 && b->type == kTfLiteFloat32 && a->bytes == b->bytes;
}

// One kernel per partition: the ADD nodes it replaced, run in plan order.
typedef struct {
  int n;
  int* a;  // per ADD: input, input, output tensor indices
  int* b;
  int* out;
} Kernel;

static void* kernel_init(TfLiteContext* ctx, const char* buffer, size_t length) {
  (void)length;
  const TfLiteDelegateParams* params = (const TfLiteDelegateParams*)buffer;
  Kernel* k = (Kernel*)calloc(1, sizeof(Kernel));
  const int n = params->nodes_to_replace->size;
  k->a = (int*)malloc(sizeof(int) * (size_t)n);
  k->b = (int*)malloc(sizeof(int) * (size_t)n);
  k->out = (int*)malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    ctx->GetNodeAndRegistration(ctx, params->nodes_to_replace->data[i], &node, &reg);
    k->a[i] = node->inputs->data[0];
    k->b[i] = node->inputs->data[1];
    k->out[i] = node->outputs->data[0];
  }
  k->n = n;
  return k;
}

static void kernel_free(TfLiteContext* ctx, void* data) {
  (void)ctx;
  Kernel* k = (Kernel*)data;
  free(k->a);
  free(k->b);
  free(k->out);
  free(k);
}

static TfLiteStatus kernel_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const Kernel* k = (const Kernel*)node->user_data;
  for (int i = 0; i < k->n; ++i) {
    const TfLiteTensor* a = &ctx->tensors[k->a[i]];
    const TfLiteTensor* b = &ctx->tensors[k->b[i]];
    TfLiteTensor* out = &ctx->tensors[k->out[i]];
    for (size_t j = 0; j < a->bytes / sizeof(float); ++j)
      out->data.f[j] = a->data.f[j] + b->data.f[j];
  }
  return kTfLiteOk;
}

static TfLiteStatus delegate_prepare(TfLiteContext* ctx, TfLiteDelegate* delegate) {
  TfLiteIntArray* plan;
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return kTfLiteError;
  TfLiteIntArray* mine = (TfLiteIntArray*)malloc(sizeof(int) * (size_t)(1 + plan->size));
  mine->size = 0;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    ctx->GetNodeAndRegistration(ctx, plan->data[i], &node, &reg);
    if (is_plain_add(ctx, node, reg)) mine->data[mine->size++] = plan->data[i];
  }
  TfLiteRegistration kernel;
  memset(&kernel, 0, sizeof(kernel));
  kernel.init = kernel_init;
  kernel.free = kernel_free;
  kernel.invoke = kernel_invoke;
  kernel.custom_name = "AddDelegate";
  kernel.version = 1;
  const TfLiteStatus st = ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, kernel, mine, delegate);
  free(mine);
  return st;
}

TFF_PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(
    const char* const* keys, const char* const* values, size_t num_options,
    void (*report_error)(const char*)) {
  (void)keys, (void)values, (void)num_options, (void)report_error;
  TfLiteDelegate* d = (TfLiteDelegate*)calloc(1, sizeof(TfLiteDelegate));
  if (d) d->Prepare = delegate_prepare;
  return d;
}

TFF_PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) {
  free(delegate);
}
 * END EXAMPLE
 */
#ifndef TFLITE_FAST_DELEGATE_H_
#define TFLITE_FAST_DELEGATE_H_

#include <stddef.h>

#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/builtin_ops.h"
#include "tflite_fast/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the two plugin symbols for export (libraries built with
 * -fvisibility=hidden still export them). */
#if defined(_WIN32)
#define TFF_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TFF_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* The external-delegate plugin ABI (TFLite's
 * external_delegate_interface.h): load_delegate() calls create with the
 * options as UTF-8 key/value strings and report_error for messages; a NULL
 * result makes load_delegate raise ValueError. destroy is called once when
 * the Python Delegate object goes, even after a NULL create. */
TFF_PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(
    const char* const* options_keys, const char* const* options_values, size_t num_options,
    void (*report_error)(const char*));
TFF_PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate);

#ifdef __cplusplus
}
#endif

#endif /* TFLITE_FAST_DELEGATE_H_ */
