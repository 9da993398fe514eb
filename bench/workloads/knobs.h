/* knobs.h: shared by the what-if workloads (forkjoin, convoy, pipeline, sleeper).
 *
 * Each workload's named functions do a fixed amount of integer work, so a function's cost is
 * its work, not a wall-clock deadline: a thread preempted by another process takes longer, as
 * a real program would. The work is a macro, so the samples land in the named function itself
 * (no helper frame). Every cost has a knob named after its function, given as FUNCTION=PERCENT
 * of its default work on the command line: `forkjoin serial_part=50` halves serial_part, i.e.
 * makes it 50 % faster. An unknown knob or a percent outside 1..1000 exits 2.
 *
 * Build: -O1 -g -fno-omit-frame-pointer (the Makefile), and every knobbed function noinline,
 * so that perf's frame-pointer stacks name it.
 *
 * WHATIF_FIFO=PRIO in the environment runs the program (all its threads: they inherit it) under
 * SCHED_FIFO at that priority. On a 2-CPU machine shared with busy builds, a normal-priority run
 * gets about half the CPU time it asks for, at random, and the other processes' share stretches
 * the work by 1.5-2.5x: a real-time class keeps them off while it runs (each program is at most
 * 2 busy threads for under 1.5 s; the kernel's RT throttling still leaves others 5 %). */
#ifndef WHATIF_KNOBS_H
#define WHATIF_KNOBS_H
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* About 1 ms of work on the first project VM (2.2-2.5 ns an iteration at -O1); read_knobs
 * measures this machine's rate instead (calibrate_work), so that "5 ms of work" is 5 ms here
 * too: on a faster machine the fixed count made forkjoin's serial_part 2.8 ms, and WhatIfIT's
 * expected gain (60 x 2.5 ms) 85 ms. Within a run the work stays a fixed count of iterations. */
#define ITERS_PER_MS 400000L
static long knob_iters_per_ms = ITERS_PER_MS;

extern volatile uint64_t knob_sink;

/* Runs ms milliseconds' worth of work (scaled by the knob's percent) in the calling function. */
#define WORK_MS(ms, percent)                                                \
    do {                                                                    \
        long _n = (long)((ms) * knob_iters_per_ms * (percent) / 100.0);     \
        uint64_t _x = 88172645463325252ull;                                 \
        for (long _i = 0; _i < _n; _i++) {                                  \
            _x ^= _x << 13; _x ^= _x >> 7; _x ^= _x << 17;                  \
        }                                                                   \
        knob_sink += _x;                                                    \
    } while (0)

static inline double mono_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline void sleep_ms(double ms) {
    struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - 1e3 * (time_t)(ms / 1e3)) * 1e6)};
    nanosleep(&ts, NULL);
}

/* This machine's iterations a millisecond: the fastest of 5 tries of 1 ms' worth at the
 * nominal rate (a try another process preempted is slower, never faster); ~5 ms before main's
 * clock starts. */
static inline void calibrate_work(void) {
    double best = 1e9;
    for (int t = 0; t < 5; t++) {
        double t0 = mono_now();
        uint64_t x = 88172645463325252ull;
        for (long i = 0; i < ITERS_PER_MS; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        }
        knob_sink += x;
        double dt = mono_now() - t0;
        if (dt < best) best = dt;
    }
    if (best > 0) knob_iters_per_ms = (long)(ITERS_PER_MS / (best * 1e3));
}

/* A knob: the names a program has, and their percents (100 unless given). */
struct knob { const char *function; int percent; };

/* Reads FUNCTION=PERCENT arguments into knobs[0..n), or exits 2 naming the bad one; applies
 * WHATIF_FIFO. */
static inline void read_knobs(int argc, char **argv, struct knob *knobs, int n) {
    const char *fifo = getenv("WHATIF_FIFO");
    if (fifo != NULL && *fifo != '\0') {
        struct sched_param sp = {.sched_priority = atoi(fifo)};
        if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
            perror("WHATIF_FIFO: sched_setscheduler(SCHED_FIFO) (needs root)");
            exit(2);
        }
    }
    calibrate_work(); /* under SCHED_FIFO when asked: other processes keep off it too */
    for (int a = 1; a < argc; a++) {
        const char *eq = strchr(argv[a], '=');
        int found = 0;
        for (int k = 0; eq && k < n; k++) {
            if (strlen(knobs[k].function) == (size_t)(eq - argv[a])
                && strncmp(argv[a], knobs[k].function, eq - argv[a]) == 0) {
                char *end;
                long p = strtol(eq + 1, &end, 10);
                if (*end != '\0' || p < 1 || p > 1000) {
                    fprintf(stderr, "%s: %s: the percent must be 1..1000\n", argv[0], argv[a]);
                    exit(2);
                }
                knobs[k].percent = (int)p;
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "%s: unknown argument '%s'; knobs (FUNCTION=PERCENT of its work):",
                    argv[0], argv[a]);
            for (int k = 0; k < n; k++) fprintf(stderr, " %s", knobs[k].function);
            fprintf(stderr, "\n");
            exit(2);
        }
    }
}

/* The closing line on stderr: the program's own wall time, to check loadprof's span against. */
static inline void report_total(const char *name, double t0, struct knob *knobs, int n) {
    fprintf(stderr, "%s pid=%d total=%.6f s", name, (int)getpid(), mono_now() - t0);
    for (int k = 0; k < n; k++) fprintf(stderr, " %s=%d", knobs[k].function, knobs[k].percent);
    fprintf(stderr, "\n");
}
#endif
