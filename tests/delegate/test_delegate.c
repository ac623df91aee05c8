/* A TFLite external delegate used as a test fixture: the same .so runs under
 * ai_edge_litert (the oracle) and under tflite_fast. Built by the tests
 * against tflite_fast's installed headers; it calls no runtime function
 * (only the TfLiteContext callbacks), as real delegates do.
 *
 * Options (all optional):
 *   ops=0,18,41   builtin codes to claim (ADD, MUL, SUB; float32 only)
 *   fail=STAGE    create | prepare | init | kprepare | invoke: fail there
 *   skip=N        ... but only from the (N+1)-th call of that stage on
 *   dynamic=1     set kTfLiteDelegateFlagsAllowDynamicTensors
 *   handles=1     kernels keep their outputs in their own buffers: each
 *                 output gets buffer_handle = its tensor index and is marked
 *                 stale; the runtime fetches it with CopyFromBufferHandle
 *                 (fail=copy fails that)
 *   freeh=1       with handles=1: set FreeBufferHandle, which logs
 *                 "freehandle H" and resets the handle
 *   preview=1     also log PreviewDelegatePartitioning's partitions
 *   probe=1       kernel prepare calls the delegate-only callbacks (allowed
 *                 only inside the delegate's Prepare) and logs their statuses
 *   acquire=1     the delegate's Prepare acquires its own subgraph's context
 *                 and does not release it
 * Build variants for the layout hazards of docs/delegate-abi.md §1.9:
 *   -DOLD_DELEG   a 48-byte TfLiteDelegate (no opaque_delegate_builder),
 *                 followed by 0x41 garbage
 *   -DOLD_REG     passes a 64-byte (V1) TfLiteRegistration by value to
 *                 ReplaceNodeSubsetsWithDelegateKernels (crashes TFLite)
 * Kernels compute float ADD/MUL/SUB (with fused activation) of same-shape
 * inputs, keeping their own buffers for tensors internal to the partition
 * (the runtime does not allocate those). Everything that happens is
 * appended to a text log, one event per line, read with
 * test_delegate_log() and reset with test_delegate_log_clear(). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_fast/builtin_op_data.h"
#include "tflite_fast/builtin_ops.h"
#include "tflite_fast/common.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_CODES 16
#define MAX_HANDLES 1024

static char g_log[1 << 16];
static size_t g_log_len;

static void log_line(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const size_t room = sizeof(g_log) - g_log_len;
  const int n = vsnprintf(g_log + g_log_len, room, fmt, ap);
  va_end(ap);
  if (n > 0 && (size_t)n + 1 < room) {
    g_log_len += (size_t)n;
    g_log[g_log_len++] = '\n';
    g_log[g_log_len] = 0;
  }
}

/* "1,2,3" of an int array into buf. */
static const char* ints(char* buf, const TfLiteIntArray* a) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; a && i < a->size; ++i)
    k += (size_t)sprintf(buf + k, i ? ",%d" : "%d", a->data[i]);
  return buf;
}

/* Buffer handle h (a tensor index) -> the kernel buffer holding its data. */
static const float* g_handle[MAX_HANDLES];

EXPORT const char* test_delegate_log(void) { return g_log; }
EXPORT void test_delegate_log_clear(void) { g_log_len = 0, g_log[0] = 0; }

typedef struct options {
  int codes[MAX_CODES];
  int num_codes;
  char fail[16];
  int skip;                 /* the failure spares the first `skip` calls of its stage */
  int preview, probe, acquire, handles, freeh;
} options;

/* 1 when this call of `stage` is to fail. */
static int failing(options* opt, const char* stage) {
  if (strcmp(opt->fail, stage) != 0) return 0;
  if (opt->skip > 0) return opt->skip--, 0;
  return 1;
}

typedef struct step { /* one original node of the partition */
  int code, in0, in1, out;
  TfLiteFusedActivation act;
} step;

typedef struct kernel {
  options* opt;
  int num_steps;
  step* steps;
  TfLiteIntArray* inputs;   /* partition inputs / outputs (own copies) */
  TfLiteIntArray* outputs;
  int num_tensors;
  float** own;              /* per tensor: our buffer (internal, or output with handles) */
} kernel;

static void free_own(kernel* k) {
  for (int t = 0; k->own && t < k->num_tensors; ++t) {
    if (t < MAX_HANDLES && k->own[t] != NULL && g_handle[t] == k->own[t]) g_handle[t] = NULL;
    free(k->own[t]);
  }
  free(k->own);
  k->own = NULL;
}

static int has(const TfLiteIntArray* a, int x) {
  for (int i = 0; i < a->size; ++i)
    if (a->data[i] == x) return 1;
  return 0;
}

static TfLiteIntArray* copy_ints(const TfLiteIntArray* a) {
  TfLiteIntArray* c = (TfLiteIntArray*)malloc(sizeof(int) * (size_t)(a->size + 1));
  if (c) memcpy(c, a, sizeof(int) * (size_t)(a->size + 1));
  return c;
}

static void kernel_free(TfLiteContext* ctx, void* buffer) {
  (void)ctx;
  kernel* k = (kernel*)buffer;
  log_line("free");
  if (k == NULL) return;
  free_own(k);
  free(k->steps);
  free(k->inputs);
  free(k->outputs);
  free(k);
}

static void* kernel_init(TfLiteContext* ctx, const char* buffer, size_t length) {
  const TfLiteDelegateParams* p = (const TfLiteDelegateParams*)buffer;
  options* opt = (options*)p->delegate->data_;
  char a[512], b[512], c[512];
  log_line("init length=%zu nodes=%s inputs=%s outputs=%s", length, ints(a, p->nodes_to_replace),
           ints(b, p->input_tensors), ints(c, p->output_tensors));
  if (failing(opt, "init")) {
    ctx->ReportError(ctx, "test_delegate: init failure requested");
    return TfLiteKernelInitFailed();
  }
  kernel* k = (kernel*)calloc(1, sizeof(kernel));
  if (k == NULL) return TfLiteKernelInitFailed();
  k->opt = opt;
  k->num_steps = p->nodes_to_replace->size;
  k->steps = (step*)calloc((size_t)k->num_steps, sizeof(step));
  k->inputs = copy_ints(p->input_tensors);
  k->outputs = copy_ints(p->output_tensors);
  if (!k->steps || !k->inputs || !k->outputs) {
    kernel_free(ctx, k);
    return TfLiteKernelInitFailed();
  }
  for (int i = 0; i < k->num_steps; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (ctx->GetNodeAndRegistration(ctx, p->nodes_to_replace->data[i], &node, &reg) != kTfLiteOk) {
      kernel_free(ctx, k);
      return TfLiteKernelInitFailed();
    }
    step* s = &k->steps[i];
    s->code = reg->builtin_code;
    s->in0 = node->inputs->data[0];
    s->in1 = node->inputs->data[1];
    s->out = node->outputs->data[0];
    /* ADD, MUL and SUB params all start with the activation */
    s->act = node->builtin_data ? ((const TfLiteMulParams*)node->builtin_data)->activation
                                : kTfLiteActNone;
  }
  return k;
}

static size_t count(const TfLiteIntArray* dims) {
  size_t n = 1;
  for (int i = 0; i < dims->size; ++i) n *= (size_t)dims->data[i];
  return n;
}

static void probe(TfLiteContext* ctx);

static TfLiteStatus kernel_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  kernel* k = (kernel*)node->user_data;
  log_line("kprepare");
  if (k->opt->probe) probe(ctx);
  if (failing(k->opt, "kprepare")) {
    ctx->ReportError(ctx, "test_delegate: kprepare failure requested");
    return kTfLiteError;
  }
  /* (Re)allocate our buffers for internal tensors; shapes are the inputs'. */
  free_own(k);
  if (k->opt->handles && ctx->tensors_size > MAX_HANDLES) {
    ctx->ReportError(ctx, "test_delegate: too many tensors for handles");
    return kTfLiteError;
  }
  k->num_tensors = (int)ctx->tensors_size;
  k->own = (float**)calloc(ctx->tensors_size, sizeof(float*));
  if (k->own == NULL) return kTfLiteError;
  for (int i = 0; i < k->num_steps; ++i) {
    const step* s = &k->steps[i];
    const TfLiteTensor* x = &ctx->tensors[s->in0];
    const TfLiteTensor* y = &ctx->tensors[s->in1];
    TfLiteTensor* z = &ctx->tensors[s->out];
    if (x->type != kTfLiteFloat32 || y->type != kTfLiteFloat32 || z->type != kTfLiteFloat32 ||
        count(x->dims) != count(y->dims)) {
      ctx->ReportError(ctx, "test_delegate: unsupported node");
      return kTfLiteError;
    }
    const int output = has(k->outputs, s->out);
    if (output && count(z->dims) != count(x->dims)) {
      TfLiteIntArray* d = copy_ints(x->dims);
      if (d == NULL || ctx->ResizeTensor(ctx, z, d) != kTfLiteOk) return kTfLiteError;
    }
    if (!output || k->opt->handles) {
      k->own[s->out] = (float*)malloc(sizeof(float) * count(x->dims));
      if (k->own[s->out] == NULL) return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

/* A stale tensor with a handle is read from the producing kernel's buffer
 * (the runtime copies it only for consumers outside the delegate). */
static const float* rd(TfLiteContext* ctx, kernel* k, int t) {
  const TfLiteTensor* x = &ctx->tensors[t];
  if (k->own[t]) return k->own[t];
  if (x->data_is_stale && x->buffer_handle >= 0 && x->buffer_handle < MAX_HANDLES)
    return g_handle[x->buffer_handle];
  return x->data.f;
}

static TfLiteStatus kernel_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  kernel* k = (kernel*)node->user_data;
  log_line("invoke");
  if (failing(k->opt, "invoke")) {
    ctx->ReportError(ctx, "test_delegate: invoke failure requested");
    return kTfLiteError;
  }
  for (int i = 0; i < k->num_steps; ++i) {
    const step* s = &k->steps[i];
    const float* x = rd(ctx, k, s->in0);
    const float* y = rd(ctx, k, s->in1);
    float* z = k->own[s->out] ? k->own[s->out] : ctx->tensors[s->out].data.f;
    if (x == NULL || y == NULL || z == NULL) {
      ctx->ReportError(ctx, "test_delegate: tensor without data");
      return kTfLiteError;
    }
    const size_t n = count(ctx->tensors[s->in0].dims);
    float lo = -3.4e38f, hi = 3.4e38f;
    if (s->act == kTfLiteActRelu) lo = 0;
    if (s->act == kTfLiteActRelu6) lo = 0, hi = 6;
    if (s->act == kTfLiteActReluN1To1) lo = -1, hi = 1;
    for (size_t j = 0; j < n; ++j) {
      float v = s->code == kTfLiteBuiltinAdd ? x[j] + y[j]
                : s->code == kTfLiteBuiltinMul ? x[j] * y[j]
                                               : x[j] - y[j];
      z[j] = v < lo ? lo : v > hi ? hi : v;
    }
  }
  for (int i = 0; k->opt->handles && i < k->outputs->size; ++i) {
    const int t = k->outputs->data[i];
    g_handle[t] = k->own[t];
    ctx->tensors[t].buffer_handle = t;
    ctx->tensors[t].data_is_stale = 1;
  }
  return kTfLiteOk;
}

static TfLiteStatus copy_from_handle(TfLiteContext* ctx, TfLiteDelegate* d, TfLiteBufferHandle h,
                                     TfLiteTensor* t) {
  log_line("copy %d", h);
  if (failing((options*)d->data_, "copy")) {
    ctx->ReportError(ctx, "test_delegate: copy failure requested");
    return kTfLiteError;
  }
  if (h < 0 || h >= MAX_HANDLES || g_handle[h] == NULL || t->data.raw == NULL) {
    ctx->ReportError(ctx, "test_delegate: bad buffer handle %d", h);
    return kTfLiteError;
  }
  memcpy(t->data.raw, g_handle[h], t->bytes);
  return kTfLiteOk;
}

static void free_handle(TfLiteContext* ctx, TfLiteDelegate* d, TfLiteBufferHandle* h) {
  (void)ctx, (void)d;
  log_line("freehandle %d", *h);
  *h = kTfLiteNullBufferHandle;
}

#ifdef OLD_REG
/* TfLiteRegistration as it was before TF 2.10: 64 bytes. */
typedef struct registration_v1 {
  void* (*init)(TfLiteContext*, const char*, size_t);
  void (*free)(TfLiteContext*, void*);
  TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*);
  TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*);
  const char* (*profiling_string)(const TfLiteContext*, const TfLiteNode*);
  int32_t builtin_code;
  const char* custom_name;
  int version;
} registration_v1;
typedef TfLiteStatus (*replace_v1)(TfLiteContext*, registration_v1, const TfLiteIntArray*,
                                   TfLiteDelegate*);
static const registration_v1 kernel_registration = {
    kernel_init, kernel_free, kernel_prepare, kernel_invoke, NULL, 0, "TestDelegate", 1};
#define REPLACE(ctx) ((replace_v1)(void (*)(void))(ctx)->ReplaceNodeSubsetsWithDelegateKernels)
#else
static const TfLiteRegistration kernel_registration = {
    kernel_init, kernel_free, kernel_prepare, kernel_invoke, NULL, 0, "TestDelegate", 1,
    NULL, NULL, 0};
#define REPLACE(ctx) ((ctx)->ReplaceNodeSubsetsWithDelegateKernels)
#endif

/* The delegate-only callbacks, called from a kernel's prepare. */
static void probe(TfLiteContext* ctx) {
  TfLiteIntArray none = {0}, *plan;
  TfLiteDelegateParams* parts;
  TfLiteNode* n;
  TfLiteRegistration* r;
  TfLiteContext* sub;
  int num, st[6];
  st[0] = (int)ctx->GetExecutionPlan(ctx, &plan);
  st[1] = (int)ctx->GetNodeAndRegistration(ctx, 0, &n, &r);
  st[2] = (int)ctx->PreviewDelegatePartitioning(ctx, &none, &parts, &num);
  st[3] = (int)REPLACE(ctx)(ctx, kernel_registration, &none, NULL);
  st[4] = (int)ctx->AcquireSubgraphContext(ctx, 0, &sub);
  st[5] = (int)ctx->ReleaseSubgraphContext(ctx, 0);
  log_line("probe plan=%d node=%d preview=%d replace=%d acquire=%d release=%d", st[0], st[1],
           st[2], st[3], st[4], st[5]);
}

static int claims(const options* opt, TfLiteContext* ctx, const TfLiteNode* node,
                  const TfLiteRegistration* reg) {
  int ok = 0;
  for (int i = 0; i < opt->num_codes; ++i) ok |= reg->builtin_code == opt->codes[i];
  if (!ok || node->inputs->size != 2 || node->outputs->size != 1) return 0;
  for (int i = 0; i < 2; ++i)
    if (node->inputs->data[i] < 0 || ctx->tensors[node->inputs->data[i]].type != kTfLiteFloat32)
      return 0;
  return ctx->tensors[node->outputs->data[0]].type == kTfLiteFloat32;
}

static TfLiteStatus delegate_prepare(TfLiteContext* ctx, TfLiteDelegate* d) {
  options* opt = (options*)d->data_;
  TfLiteIntArray* plan;
  if (opt->acquire) { /* not released: the callbacks stay on after Prepare */
    TfLiteContext* sub = NULL;
    const int st = (int)ctx->AcquireSubgraphContext(ctx, 0, &sub);
    log_line("probe acquire=%d self=%d", st, sub == ctx);
  }
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return kTfLiteError;
  char a[512];
  log_line("prepare plan=%s", ints(a, plan));
  if (failing(opt, "prepare")) {
    ctx->ReportError(ctx, "test_delegate: prepare failure requested");
    return kTfLiteError;
  }
  TfLiteIntArray* mine = (TfLiteIntArray*)malloc(sizeof(int) * (size_t)(plan->size + 1));
  if (mine == NULL) return kTfLiteError;
  mine->size = 0;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (ctx->GetNodeAndRegistration(ctx, plan->data[i], &node, &reg) != kTfLiteOk) {
      free(mine);
      return kTfLiteError;
    }
    if (claims(opt, ctx, node, reg)) mine->data[mine->size++] = plan->data[i];
  }
  if (opt->preview) {
    TfLiteDelegateParams* parts;
    int n;
    if (ctx->PreviewDelegatePartitioning(ctx, mine, &parts, &n) != kTfLiteOk) {
      free(mine);
      return kTfLiteError;
    }
    for (int i = 0; i < n; ++i) {
      char b[512], c[512];
      log_line("preview delegate=%d nodes=%s inputs=%s outputs=%s", parts[i].delegate != NULL,
               ints(a, parts[i].nodes_to_replace), ints(b, parts[i].input_tensors),
               ints(c, parts[i].output_tensors));
    }
  }
  const TfLiteStatus s = REPLACE(ctx)(ctx, kernel_registration, mine, d);
  free(mine);
  return s;
}

EXPORT TfLiteDelegate* tflite_plugin_create_delegate(const char* const* keys,
                                                      const char* const* values,
                                                      size_t num_options,
                                                      void (*report_error)(const char*)) {
  options* opt = (options*)calloc(1, sizeof(options));
  TfLiteDelegate* d = (TfLiteDelegate*)calloc(1, sizeof(TfLiteDelegate));
  if (opt == NULL || d == NULL) {
    free(opt);
    free(d);
    return NULL;
  }
#ifdef OLD_DELEG
  /* only the first 48 bytes are a delegate; what follows is foreign memory */
  memset(d, 0x41, sizeof(TfLiteDelegate));
  d->data_ = NULL;
  d->Prepare = NULL;
  d->CopyFromBufferHandle = d->CopyToBufferHandle = NULL;
  d->FreeBufferHandle = NULL;
  d->flags = 0;
#endif
  /* num_options arrives as a C int from Python's ctypes: use the low half */
  const int n = (int)(unsigned)num_options;
  for (int i = 0; i < n; ++i) {
    if (strcmp(keys[i], "ops") == 0) {
      for (const char* p = values[i]; *p && opt->num_codes < MAX_CODES;) {
        char* end;
        opt->codes[opt->num_codes++] = (int)strtol(p, &end, 10);
        p = *end == ',' ? end + 1 : end + strlen(end);
      }
    } else if (strcmp(keys[i], "fail") == 0) {
      snprintf(opt->fail, sizeof(opt->fail), "%s", values[i]);
    } else if (strcmp(keys[i], "skip") == 0) {
      opt->skip = atoi(values[i]);
    } else if (strcmp(keys[i], "dynamic") == 0) {
      d->flags = strcmp(values[i], "1") == 0 ? kTfLiteDelegateFlagsAllowDynamicTensors : 0;
    } else if (strcmp(keys[i], "preview") == 0) {
      opt->preview = strcmp(values[i], "1") == 0;
    } else if (strcmp(keys[i], "probe") == 0) {
      opt->probe = strcmp(values[i], "1") == 0;
    } else if (strcmp(keys[i], "acquire") == 0) {
      opt->acquire = strcmp(values[i], "1") == 0;
    } else if (strcmp(keys[i], "handles") == 0) {
      opt->handles = strcmp(values[i], "1") == 0;
    } else if (strcmp(keys[i], "freeh") == 0) {
      opt->freeh = strcmp(values[i], "1") == 0;
    }
  }
  log_line("create");
  if (strcmp(opt->fail, "create") == 0) {
    if (report_error) report_error("test_delegate: create failure requested");
    free(opt);
    free(d);
    return NULL;
  }
  d->data_ = opt;
  d->Prepare = delegate_prepare;
  if (opt->handles) d->CopyFromBufferHandle = copy_from_handle;
  if (opt->freeh) d->FreeBufferHandle = free_handle;
  return d;
}

EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* d) {
  log_line("destroy %s", d ? "delegate" : "null");
  if (d == NULL) return;
  free(d->data_);
  free(d);
}
