/* A busy neighbour for SubjectIT: two threads that spin until killed, so that it has more
 * samples than the one-threaded program recorded beside it. */
#include <pthread.h>

static void *spin(void *arg) {
  volatile unsigned long x = 0;
  for (;;) x++;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spin, 0);
  spin(0);
  return 0;
}
