/* A busy neighbour for SubjectIT: THREADS (argv[1], default 2) threads that spin until killed,
 * so that it has more samples than the one-threaded program recorded beside it. */
#include <pthread.h>
#include <stdlib.h>

static void *spin(void *arg) {
  volatile unsigned long x = 0;
  for (;;) x++;
  return arg;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  for (int i = 1; i < threads; i++) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
  }
  spin(0);
  return 0;
}
