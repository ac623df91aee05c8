/* See arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFF_ARENA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFF_ARENA_ASAN 1
#endif

/* Under AddressSanitizer the arena bumps as always, but a chunk starts
 * poisoned, a block unpoisons exactly its bytes and a redzone follows it, so
 * an overflow into the alignment padding, the next block or past the chunk
 * is reported, and the chunk sizing logic runs as in the plain build. */
#ifdef TFF_ARENA_ASAN
#include <sanitizer/asan_interface.h>
enum { kRedzone = 16 };
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
enum { kRedzone = 0 };
#endif

enum { kAlign = 16, kFirstChunk = 16 << 10, kMaxChunk = 1 << 20 };

/* The header keeps the blocks after it 16-byte aligned. */
typedef struct tff_arena_chunk {
  struct tff_arena_chunk* next;
  size_t size;
  _Alignas(kAlign) char data[];
} tff_arena_chunk;

static char* new_chunk(tff_arena* a, size_t bytes) {
  tff_arena_chunk* c = (tff_arena_chunk*)malloc(sizeof(tff_arena_chunk) + bytes);
  if (c == NULL) return NULL;
  c->next = a->chunks;
  c->size = bytes;
  a->chunks = c;
  ASAN_POISON_MEMORY_REGION(c->data, bytes);
  return c->data;
}

static void* bump(tff_arena* a, size_t need) {
  if (need > a->left) {
    /* A large block gets a chunk of its own; the current one keeps filling. */
    if (need > kMaxChunk / 4) return new_chunk(a, need);
    size_t size = a->grow ? a->grow : kFirstChunk;
    if (size < need) size = need; /* a block bigger than the chunk due */
    char* p = new_chunk(a, size);
    if (p == NULL) return NULL;
    a->next = p;
    a->left = size;
    a->grow = size < kMaxChunk ? 2 * size : size;
  }
  char* p = a->next;
  a->next += need;
  a->left -= need;
  return p;
}

void* tff_arena_alloc(tff_arena* a, size_t bytes) {
  if (bytes > SIZE_MAX / 2) return NULL;
  const size_t need = (bytes ? (bytes + kAlign - 1) & ~(size_t)(kAlign - 1) : kAlign) + kRedzone;
  void* p = bump(a, need);
  if (p) ASAN_UNPOISON_MEMORY_REGION(p, bytes);
  return p;
}

void* tff_arena_zalloc(tff_arena* a, size_t n, size_t size) {
  if (n == 0) n = 1;
  if (size && n > SIZE_MAX / 2 / size) return NULL;
  void* p = tff_arena_alloc(a, n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

void tff_arena_release(tff_arena* a) {
  while (a->chunks) {
    tff_arena_chunk* c = a->chunks;
    a->chunks = c->next;
    ASAN_UNPOISON_MEMORY_REGION(c->data, c->size);
    free(c);
  }
  memset(a, 0, sizeof(*a));
}
