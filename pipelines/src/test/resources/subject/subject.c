/* The program of SubjectIT, built twice: built with -DSLOWER, hot_loop does twice the work (a
 * CPU regression in one function). A fixed amount of work, not a fixed time, so that its CPU
 * time does not depend on how busy the machine is. argv[1]: rounds (default 4). */
#include <stdlib.h>

volatile unsigned long sink;

#ifdef SLOWER
#define HOT_WORK 120000000L
#else
#define HOT_WORK 60000000L
#endif

/* A macro, so that the samples land in the function itself, not in a helper. */
#define SPIN(n) do { unsigned long x = sink + 1; \
    for (long i = 0; i < (n); i++) x = x * 6364136223846793005UL + 1442695040888963407UL; \
    sink = x; } while (0)

__attribute__((noinline)) void parse_input(void) { SPIN(60000000L); }

__attribute__((noinline)) void hot_loop(void) { SPIN(HOT_WORK); }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 4;
  for (int r = 0; r < rounds; r++) {
    parse_input();
    hot_loop();
  }
  return 0;
}
