/* The memory-read ceiling of "-c on one file, --threads 2 against 1" (issue 18, BENCHMARKS.md):
 * maps FILE (cached) and compares every byte with 'z' on N threads, each on its own contiguous
 * part, the way utf8-grep splits a large file, with the page faults of the mapping (POPULATE 0)
 * or with the mapping populated up front (POPULATE 1). No search, no output: what two threads
 * can gain at best from reading pages that are already in memory.
 *
 *   gcc -O2 -mavx2 -pthread xtask/c/membw.c -o /tmp/membw
 *   for t in 1 2 1 2; do /tmp/membw target/bench/real-4x256MiB.txt $t 0; done
 */
#include <fcntl.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static const unsigned char *base;
static size_t len;
static long threads;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *scan(void *arg) {
    size_t part = len / threads;
    const unsigned char *p = base + (long)arg * part;
    __m256i acc = _mm256_setzero_si256(), z = _mm256_set1_epi8('z');
    for (size_t o = 0; o + 128 <= part; o += 128) {
        __m256i a = _mm256_cmpeq_epi8(_mm256_loadu_si256((const void *)(p + o)), z);
        __m256i b = _mm256_cmpeq_epi8(_mm256_loadu_si256((const void *)(p + o + 32)), z);
        __m256i c = _mm256_cmpeq_epi8(_mm256_loadu_si256((const void *)(p + o + 64)), z);
        __m256i d = _mm256_cmpeq_epi8(_mm256_loadu_si256((const void *)(p + o + 96)), z);
        acc = _mm256_or_si256(acc, _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)));
    }
    return (void *)(long)_mm256_movemask_epi8(acc);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: membw FILE THREADS POPULATE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 2;
    }
    len = st.st_size;
    threads = atol(argv[2]);
    int populate = atoi(argv[3]);
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "membw: THREADS must be 1 to 64\n");
        return 2;
    }
    double t0 = now();
    base = mmap(0, len, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (base == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    double t1 = now();
    pthread_t th[64];
    for (long i = 0; i < threads; i++) pthread_create(&th[i], 0, scan, (void *)i);
    for (long i = 0; i < threads; i++) pthread_join(th[i], 0);
    double t2 = now();
    printf("threads %ld populate %d: map %.1f ms, scan %.1f ms, total %.1f ms\n", threads, populate,
           (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t0) * 1e3);
    return 0;
}
