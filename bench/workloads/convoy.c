/* convoy: two threads take turns at one lock, 120 times each.
 *   outside_work()      1.5 ms of work outside the lock
 *   critical_section()  2.5 ms of work holding a pthread mutex
 * The lock is busy 2 x 120 x 2.5 ms = 0.6 s, longer than either thread's own work (120 x 4 ms
 * = 0.48 s), so the threads form a convoy: each waits for the other's critical section, and the
 * critical path runs through the critical sections, hopping threads at each unlock.
 * Knobs (FUNCTION=PERCENT, knobs.h): critical_section, outside_work.
 * Expected: critical_section=75 gains 25 % of the lock's 0.6 s, 0.15 s (the lock stays the
 * bottleneck: 0.45 s of lock against 0.405 s of work a thread); outside_work=50 gains nothing (it
 * runs while the other thread holds the lock). */
#include "knobs.h"

volatile uint64_t knob_sink;
static struct knob knobs[] = {{"critical_section", 100}, {"outside_work", 100}};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define ROUNDS 120

__attribute__((noinline)) void outside_work(void) { WORK_MS(1.5, knobs[1].percent); }
__attribute__((noinline)) void critical_section(void) { WORK_MS(2.5, knobs[0].percent); }

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        outside_work();
        pthread_mutex_lock(&lock);
        critical_section();
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(int argc, char **argv) {
    read_knobs(argc, argv, knobs, 2);
    double t0 = mono_now();
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    report_total("convoy", t0, knobs, 2);
    return 0;
}
