/* Work splitting for kernels: the interpreter owns a small pthread pool of
 * num_threads - 1 workers (the calling thread works too). Tasks split output
 * tiles only, never a reduction, so results are identical for every thread
 * count. With one thread, or one chunk, fn runs inline on the caller. */
#ifndef TFLITE_FAST_RUNTIME_THREADPOOL_H_
#define TFLITE_FAST_RUNTIME_THREADPOOL_H_

#include "tflite_fast/common.h"

/* Processes items [begin, end) of the range. */
typedef void (*tff_task_fn)(void* arg, int begin, int end);

/* Runs fn over [0, n) in chunks of `grain` items (fewer at the end of a
 * thread's share; n < 2·grain runs inline), spread over the interpreter's
 * threads, thread t mostly on the t-th of equal consecutive shares; returns
 * when all chunks are done. */
void tff_parallel_for(TfLiteContext* ctx, int n, int grain, tff_task_fn fn, void* arg);

/* Threads available to ctx's interpreter (>= 1). */
int tff_num_threads(const TfLiteContext* ctx);

#endif /* TFLITE_FAST_RUNTIME_THREADPOOL_H_ */
