// Deep call stacks for bench/run.sh native: 2 threads, each recursing DEPTH frames (default 48)
// and spinning at the bottom, ITERS times (default 20000). Built with frame pointers and without
// sibling-call optimization, so that every level is a frame perf's callchain sees.
#include <pthread.h>
#include <stdlib.h>

static int depth = 48;
static int iters = 20000;
static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long descend(int level) {
  if (level == 0) {
    unsigned long s = 0;
    for (int i = 0; i < 100000; i++) s += i ^ (s >> 3);
    sink = s;
    return s;
  }
  unsigned long r = descend(level - 1);
  sink += level; // work after the call: the frame stays on the stack
  return r + 1;
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < iters; i++) descend(depth);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) iters = atoi(argv[1]);
  if (argc > 2) depth = atoi(argv[2]);
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 0;
}
