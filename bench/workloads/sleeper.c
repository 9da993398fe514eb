/* sleeper: a program bounded by sleeps, with CPU work on and off its critical path.
 *   tick_work()   main, 5 ms of work, then a 10 ms nanosleep, 40 times: 0.6 s, all of it on
 *                 the path (the sleeps are relative: work done sooner sleeps sooner)
 *   side_work()   a helper thread, 40 pieces of 5 ms (0.2 s) that main never waits for until
 *                 the end: beside the sleeps, off the path
 * Knobs (FUNCTION=PERCENT, knobs.h): tick_work, side_work.
 * Expected: tick_work=50 gains 40 x 2.5 ms = 0.1 s; side_work=50 gains nothing. */
#include "knobs.h"

volatile uint64_t knob_sink;
static struct knob knobs[] = {{"tick_work", 100}, {"side_work", 100}};
#define TICKS 40

__attribute__((noinline)) void tick_work(void) { WORK_MS(5.0, knobs[0].percent); }
__attribute__((noinline)) void side_work(void) { WORK_MS(5.0, knobs[1].percent); }

static void *helper(void *arg) {
    (void)arg;
    for (int i = 0; i < TICKS; i++) side_work();
    return NULL;
}

int main(int argc, char **argv) {
    read_knobs(argc, argv, knobs, 2);
    double t0 = mono_now();
    pthread_t h;
    pthread_create(&h, NULL, helper, NULL);
    for (int i = 0; i < TICKS; i++) {
        tick_work();
        sleep_ms(10.0);
    }
    pthread_join(h, NULL);
    report_total("sleeper", t0, knobs, 2);
    return 0;
}
