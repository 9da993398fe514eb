/*
 * steady ITERS: a fixed amount of CPU work, so that only the machine can change its real time.
 * Each iteration spins 2 ms of its own CPU time in serial_part, then two workers spin 4 ms of
 * theirs each in parallel_part. CPU time is measured per thread (CLOCK_THREAD_CPUTIME_ID), so
 * the work done is the same however long another process keeps a thread off its CPU: alone on
 * 2 CPUs an iteration takes about 6 ms; beside a busy process its threads wait for the CPUs.
 * Used for the interference fixtures (traces/compare/alone-N, neighbour-N).
 *   cc -O1 -fno-omit-frame-pointer -g -pthread -o steady bench/steady.c
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t start_line;
static pthread_barrier_t finish_line;
static int iterations;
static volatile unsigned long sink;

static long thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void __attribute__((noinline)) spin(long ns) {
  long until = thread_cpu_ns() + ns;
  while (thread_cpu_ns() < until) {
    for (int i = 0; i < 1000; i++) {
      sink += i;
    }
  }
}

static void __attribute__((noinline)) serial_part(void) { spin(2000000L); }

static void __attribute__((noinline)) parallel_part(void) { spin(4000000L); }

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < iterations; i++) {
    pthread_barrier_wait(&start_line);
    parallel_part();
    pthread_barrier_wait(&finish_line);
  }
  return NULL;
}

int main(int argc, char **argv) {
  iterations = argc > 1 ? atoi(argv[1]) : 30;
  pthread_t workers[2];
  pthread_barrier_init(&start_line, NULL, 3);
  pthread_barrier_init(&finish_line, NULL, 3);
  for (int w = 0; w < 2; w++) {
    pthread_create(&workers[w], NULL, worker, NULL);
  }
  for (int i = 0; i < iterations; i++) {
    serial_part();
    pthread_barrier_wait(&start_line);
    pthread_barrier_wait(&finish_line);
  }
  for (int w = 0; w < 2; w++) {
    pthread_join(workers[w], NULL);
  }
  printf("steady: %d iterations\n", iterations);
  return 0;
}
