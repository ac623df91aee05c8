/* Work splitting; see threadpool.h. One pool per interpreter: num_threads - 1
 * workers plus the calling thread claim chunks from an atomic counter that
 * also carries the task's generation, so a worker that wakes late claims
 * nothing from a finished task and the caller waits only for the chunks, not
 * for every worker (which matters when the machine is oversubscribed).
 * A task is published by bumping `generation`; idle workers spin briefly on
 * it (ops of one invoke follow each other within microseconds) and then
 * sleep on a condition variable, so an idle interpreter costs no CPU. */
#include "threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "threadpool_internal.h"

/* How long an idle worker spins before it sleeps: by the clock, not by
 * iterations, because PAUSE takes ~10 to ~140 cycles depending on the CPU
 * (4000 of them were ~10 us on this EPYC: workers slept between the ops of
 * one invoke and every op paid a futex wake-up). 1 ms covers the gaps
 * between ops and between back-to-back invokes; then the worker sleeps, so
 * an idle interpreter still costs no CPU. Also the caller's spins before it
 * starts yielding while it waits for stragglers. */
enum { kSpinNsBeforeSleep = 1000000, kSpinsBeforeYield = 1000 };

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
/* Guided chunks: a claim takes 1/kGuide of the items a thread has left
 * (remaining / (threads · kGuide), at least the grain), so chunks shrink
 * toward the end and the threads finish within about one grain of each
 * other, in O(threads · log n) claims. 4 equal chunks a thread left a thread
 * idle for up to a chunk (7x7 layers on 2 threads: 3 chunks against 2). */
enum { kGuide = 2 };

struct tff_threadpool {
  int num_workers;
  pthread_t* threads;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  atomic_uint generation;     /* bumped once per task (and at shutdown) */
  atomic_int sleepers;        /* workers blocked on `wake` */
  atomic_int busy;            /* a task is running: nested calls go inline */
  int stop;
  /* The current task, written before `generation` is bumped and read only
   * after claiming one of its chunks (the task cannot end before then). */
  tff_task_fn fn;
  void* arg;
  atomic_int n, grain;        /* atomic: a late worker may read them during the next task */
  _Atomic uint64_t claim;     /* generation << 32 | next item */
  atomic_int done;            /* items finished */
};

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

/* Runs chunks of task `gen` until none is left (or the task is over). n and
 * grain may belong to a newer task when v is stale; the CAS then fails. */
static void run_chunks(struct tff_threadpool* p, unsigned gen) {
  const int parts = (p->num_workers + 1) * kGuide;
  uint64_t v = atomic_load_explicit(&p->claim, memory_order_acquire);
  for (;;) {
    if ((unsigned)(v >> 32) != gen) return;
    const int begin = (int)(uint32_t)v;
    const int n = atomic_load_explicit(&p->n, memory_order_relaxed);
    if (begin >= n) return;
    int size = (n - begin) / parts;
    const int grain = atomic_load_explicit(&p->grain, memory_order_relaxed);
    if (size < grain) size = grain;
    if (size > n - begin) size = n - begin;
    if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + (uint64_t)size,
                                               memory_order_acq_rel, memory_order_acquire))
      continue;
    p->fn(p->arg, begin, begin + size);
    atomic_fetch_add_explicit(&p->done, size, memory_order_release);
    v = atomic_load_explicit(&p->claim, memory_order_acquire);
  }
}

/* Waits until `generation` moves past `seen`; returns the new value. */
static unsigned wait_for_task(struct tff_threadpool* p, unsigned seen) {
  const uint64_t until = now_ns() + kSpinNsBeforeSleep;
  for (unsigned i = 1;; ++i) {
    const unsigned g = atomic_load_explicit(&p->generation, memory_order_acquire);
    if (g != seen) return g;
    cpu_relax();
    if (i % 64 == 0 && now_ns() >= until) break; /* the clock read is ~20 ns */
  }
  pthread_mutex_lock(&p->mutex);
  /* sleepers++ before re-reading generation pairs with the publisher's
   * generation++ before reading sleepers (both seq_cst): one of the two sees
   * the other, so a wakeup is never lost. */
  atomic_fetch_add(&p->sleepers, 1);
  unsigned g;
  while ((g = atomic_load(&p->generation)) == seen) pthread_cond_wait(&p->wake, &p->mutex);
  atomic_fetch_sub(&p->sleepers, 1);
  pthread_mutex_unlock(&p->mutex);
  return g;
}

static void* worker_main(void* arg) {
  struct tff_threadpool* p = (struct tff_threadpool*)arg;
  /* The generation at creation, not at thread start: a task may be published
   * before this thread first runs. */
  unsigned seen = 0;
  for (;;) {
    seen = wait_for_task(p, seen);
    if (p->stop) return NULL;
    run_chunks(p, seen);
  }
}

static void publish(struct tff_threadpool* p, unsigned gen) {
  atomic_store(&p->generation, gen);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->mutex);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mutex);
  }
}

/* A pool of num_threads - 1 workers; fewer when pthread_create fails (with
 * none the pool is never used). */
static struct tff_threadpool* pool_create(int num_threads) {
  struct tff_threadpool* p = (struct tff_threadpool*)calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->threads = (pthread_t*)calloc((size_t)(num_threads - 1), sizeof(pthread_t));
  if (p->threads == NULL || pthread_mutex_init(&p->mutex, NULL) != 0) {
    free(p->threads);
    free(p);
    return NULL;
  }
  pthread_cond_init(&p->wake, NULL);
  atomic_init(&p->generation, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->busy, 0);
  atomic_init(&p->claim, 0);
  atomic_init(&p->done, 0);
  atomic_init(&p->n, 0);
  atomic_init(&p->grain, 1);
  for (int i = 0; i < num_threads - 1; ++i) {
    if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0) break;
    p->num_workers++;
  }
  return p;
}

void tff_threadpool_destroy(struct tff_threadpool* p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mutex);
  p->stop = 1;
  atomic_fetch_add(&p->generation, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mutex);
  for (int i = 0; i < p->num_workers; ++i) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->mutex);
  free(p->threads);
  free(p);
}

void tff_parallel_for(TfLiteContext* ctx, int n, int grain, tff_task_fn fn, void* arg) {
  if (n <= 0) return;
  const int threads = tff_num_threads(ctx);
  if (grain < 1) grain = 1;
  if (threads == 1 || n < 2 * grain) {
    fn(arg, 0, n);
    return;
  }
  struct tff_threadpool** slot = tff_context_pool(ctx);
  if (*slot == NULL) *slot = pool_create(threads);
  struct tff_threadpool* p = *slot;
  int expected = 0;
  /* No pool, no workers, or a nested call from inside a task: run inline. */
  if (p == NULL || p->num_workers == 0 ||
      !atomic_compare_exchange_strong(&p->busy, &expected, 1)) {
    fn(arg, 0, n);
    return;
  }
  p->fn = fn;
  p->arg = arg;
  atomic_store_explicit(&p->n, n, memory_order_relaxed);
  atomic_store_explicit(&p->grain, grain, memory_order_relaxed);
  const unsigned gen = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  atomic_store_explicit(&p->claim, (uint64_t)gen << 32, memory_order_release);
  publish(p, gen);
  run_chunks(p, gen);
  /* Chunks claimed by workers may still run: wait for all of them. */
  for (int i = 0; atomic_load_explicit(&p->done, memory_order_acquire) != n; ++i) {
    if (i < kSpinsBeforeYield) cpu_relax();
    else sched_yield();
  }
  atomic_store_explicit(&p->busy, 0, memory_order_release);
}

int tff_num_threads(const TfLiteContext* ctx) {
  return ctx->recommended_num_threads > 1 ? ctx->recommended_num_threads : 1;
}
