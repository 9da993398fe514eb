/* pipeline: a producer-consumer pipeline of two stages and 150 items, through a queue of 4.
 *   produce_item()  stage 1 (the producer thread), 4 ms of work an item
 *   consume_item()  stage 2 (the consumer thread), 2 ms of work an item
 * The producer is the slower stage: the consumer waits on the empty queue for each item (woken
 * by the producer's push), so the critical path is the producer's work, then the last item's
 * consume_item: 150 x 4 + 2 ms = 0.6 s.
 * Knobs (FUNCTION=PERCENT, knobs.h): produce_item, consume_item.
 * Expected: produce_item=75 gains 150 x 1 ms = 0.15 s (the producer stays the slower stage);
 * consume_item=50 gains only the last item's 1 ms. */
#include "knobs.h"

volatile uint64_t knob_sink;
static struct knob knobs[] = {{"produce_item", 100}, {"consume_item", 100}};
#define ITEMS 150
#define SLOTS 4

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static int queued;

__attribute__((noinline)) void produce_item(void) { WORK_MS(4.0, knobs[0].percent); }
__attribute__((noinline)) void consume_item(void) { WORK_MS(2.0, knobs[1].percent); }

static void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        produce_item();
        pthread_mutex_lock(&mu);
        while (queued == SLOTS) pthread_cond_wait(&not_full, &mu);
        queued++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&mu);
        while (queued == 0) pthread_cond_wait(&not_empty, &mu);
        queued--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&mu);
        consume_item();
    }
    return NULL;
}

int main(int argc, char **argv) {
    read_knobs(argc, argv, knobs, 2);
    double t0 = mono_now();
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    report_total("pipeline", t0, knobs, 2);
    return 0;
}
