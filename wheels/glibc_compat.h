/* Force-included (-include) when building wheels on a new glibc (Debian
 * bookworm, 2.36) so the extension binds only to symbol versions every
 * manylinux2014 (glibc 2.17) system has. Not used by normal builds; the
 * cibuildwheel images have an old glibc and need none of this.
 *
 * Each symbol is pinned to the architecture's base version, which newer
 * glibc still exports (as the compat version):
 *   exp, exp2, log, log2, pow (2.29) and their float forms (2.27): the new
 *                   versions only drop the SVID error wrapper; same results,
 *                   and the extension builds with -fno-math-errno anyway.
 *   pthread_create, pthread_join
 *                   2.34 moved them into libc.so.6; before that they live in
 *                   libpthread.so.0 under the base version, so the link also
 *                   keeps libpthread.so.0 as DT_NEEDED (build_x86.sh,
 *                   cross_build.sh: -Wl,--no-as-needed -l:libpthread.so.0).
 *   fstat           a real symbol only since 2.33; before, an inline call of
 *                   __fxstat(_STAT_VER, ...), which is what we emit. */
#ifndef TFF_WHEELS_GLIBC_COMPAT_H
#define TFF_WHEELS_GLIBC_COMPAT_H

#if defined(__linux__) && !defined(__ANDROID__)
#include <features.h>
#if defined(__GLIBC__)

#if defined(__x86_64__)
#define TFF_GLIBC_BASE "GLIBC_2.2.5"
#define TFF_STAT_VER 1 /* _STAT_VER_LINUX */
#elif defined(__aarch64__)
#define TFF_GLIBC_BASE "GLIBC_2.17"
#define TFF_STAT_VER 0 /* generic _STAT_VER */
#elif defined(__arm__)
#define TFF_GLIBC_BASE "GLIBC_2.4"
#define TFF_STAT_VER 3 /* _STAT_VER_LINUX */
#endif

#ifdef TFF_GLIBC_BASE
/* Every math function glibc re-versioned that tflite_fast calls (2.27: float,
 * 2.29: double, 2.35: hypot). */
__asm__(".symver exp,exp@" TFF_GLIBC_BASE);
__asm__(".symver exp2,exp2@" TFF_GLIBC_BASE);
__asm__(".symver log,log@" TFF_GLIBC_BASE);
__asm__(".symver log2,log2@" TFF_GLIBC_BASE);
__asm__(".symver pow,pow@" TFF_GLIBC_BASE);
__asm__(".symver expf,expf@" TFF_GLIBC_BASE);
__asm__(".symver exp2f,exp2f@" TFF_GLIBC_BASE);
__asm__(".symver logf,logf@" TFF_GLIBC_BASE);
__asm__(".symver log2f,log2f@" TFF_GLIBC_BASE);
__asm__(".symver powf,powf@" TFF_GLIBC_BASE);
__asm__(".symver hypot,hypot@" TFF_GLIBC_BASE);
__asm__(".symver hypotf,hypotf@" TFF_GLIBC_BASE);
__asm__(".symver pthread_create,pthread_create@" TFF_GLIBC_BASE);
__asm__(".symver pthread_join,pthread_join@" TFF_GLIBC_BASE);
__asm__(".symver __fxstat,__fxstat@" TFF_GLIBC_BASE);

#include <sys/stat.h>
extern int __fxstat(int ver, int fd, struct stat *buf);
static inline int tff_compat_fstat(int fd, struct stat *buf) {
  return __fxstat(TFF_STAT_VER, fd, buf);
}
#define fstat(fd, buf) tff_compat_fstat(fd, buf)
#endif

#endif
#endif
#endif
