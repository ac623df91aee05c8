/* The runtime side of threadpool.h: each interpreter owns one pool slot,
 * filled lazily by the first tff_parallel_for that needs workers and freed
 * with the interpreter. Nothing is shared between interpreters. */
#ifndef TFLITE_FAST_RUNTIME_THREADPOOL_INTERNAL_H_
#define TFLITE_FAST_RUNTIME_THREADPOOL_INTERNAL_H_

#include "tflite_fast/common.h"

struct tff_threadpool;

/* The pool slot of ctx's interpreter (interpreter.c). */
struct tff_threadpool** tff_context_pool(const TfLiteContext* ctx);

/* Stops and joins the workers and frees the pool; NULL is a no-op. */
void tff_threadpool_destroy(struct tff_threadpool* pool);

#endif /* TFLITE_FAST_RUNTIME_THREADPOOL_INTERNAL_H_ */
