/* forkjoin: a serial part, then two branches in parallel, ITERS times (default 60).
 *   serial_part()   main, 5 ms of work, while the workers wait
 *   branch_long()   worker A, 6 ms          } in parallel; main waits for both, so only the
 *   branch_short()  worker B, 3 ms          } longer branch is on the critical path
 * One iteration is about 11 ms (5 + max(6, 3)) plus the hand-offs: 0.66 s in all.
 * Knobs (FUNCTION=PERCENT of its work, knobs.h): serial_part, branch_long, branch_short.
 * Expected: serial_part=50 gains 60 x 2.5 ms = 0.15 s; branch_long=75 gains 60 x 1.5 ms =
 * 0.09 s; branch_short=50 gains nothing (its branch is not the longer one). */
#include "knobs.h"

volatile uint64_t knob_sink;
static struct knob knobs[] = {{"serial_part", 100}, {"branch_long", 100}, {"branch_short", 100}};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_start = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cv_done = PTHREAD_COND_INITIALIZER;
static int generation, done_count, quit;

__attribute__((noinline)) void serial_part(void) { WORK_MS(5.0, knobs[0].percent); }
__attribute__((noinline)) void branch_long(void) { WORK_MS(6.0, knobs[1].percent); }
__attribute__((noinline)) void branch_short(void) { WORK_MS(3.0, knobs[2].percent); }

static void *worker(void *arg) {
    void (*branch)(void) = (void (*)(void))arg;
    int seen = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (generation == seen && !quit) pthread_cond_wait(&cv_start, &mu);
        if (quit) { pthread_mutex_unlock(&mu); return NULL; }
        seen = generation;
        pthread_mutex_unlock(&mu);
        branch();
        pthread_mutex_lock(&mu);
        if (++done_count == 2) pthread_cond_signal(&cv_done);
        pthread_mutex_unlock(&mu);
    }
}

int main(int argc, char **argv) {
    int iters = 60;
    read_knobs(argc, argv, knobs, 3);
    double t0 = mono_now();
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)branch_long);
    pthread_create(&b, NULL, worker, (void *)branch_short);
    for (int it = 0; it < iters; it++) {
        serial_part();
        pthread_mutex_lock(&mu);
        done_count = 0;
        generation++;
        pthread_cond_broadcast(&cv_start);
        while (done_count < 2) pthread_cond_wait(&cv_done, &mu);
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_lock(&mu);
    quit = 1;
    pthread_cond_broadcast(&cv_start);
    pthread_mutex_unlock(&mu);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    report_total("forkjoin", t0, knobs, 3);
    return 0;
}
