// Threads a scenario starts: `pthread_create` as the program and Foundation's `Thread` call it.
// A thread started from a runner (or from a thread a runner started) is counted while it runs,
// because work it does may still come back to the scenario (a `DispatchQueue.main.async` after a
// real sleep). A run about to be called stuck waits for such work only while one is alive, so a
// run that can never finish is known at once, in virtual time.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

#include <stdlib.h>

int ssdc_threads_rebound;

static long alive;
// Set on a thread started by the scenario's code: the threads it starts count too.
static __thread int started_by_scenario;
static pthread_key_t ending;
static pthread_once_t ending_once = PTHREAD_ONCE_INIT;

struct counted_start {
    void *(*start)(void *);
    void *argument;
};

// Runs when a counted thread ends, however it ends (a return or pthread_exit).
static void thread_ended(void *value) {
    (void)value;
    __atomic_sub_fetch(&alive, 1, __ATOMIC_SEQ_CST);
}

static void make_ending_key(void) { pthread_key_create(&ending, thread_ended); }

static void *counted(void *payload) {
    struct counted_start start = *(struct counted_start *)payload;
    free(payload);
    started_by_scenario = 1;
    pthread_setspecific(ending, (void *)1);
    return start.start(start.argument);
}

static int my_pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    if (!ssdc_virtual_elapsed && !started_by_scenario) return ssdc_real.pthread_create(thread, attributes, start, argument);
    struct counted_start *payload = malloc(sizeof *payload);
    if (!payload) return ssdc_real.pthread_create(thread, attributes, start, argument);
    payload->start = start;
    payload->argument = argument;
    pthread_once(&ending_once, make_ending_key);
    __atomic_add_fetch(&alive, 1, __ATOMIC_SEQ_CST);
    int result = ssdc_real.pthread_create(thread, attributes, counted, payload);
    if (result != 0) {
        __atomic_sub_fetch(&alive, 1, __ATOMIC_SEQ_CST);
        free(payload);
    }
    return result;
}

struct rebinding ssdc_thread_rebindings[] = {
    {"pthread_create", (void *)my_pthread_create, &ssdc_threads_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

long ssdc_scenario_threads_alive(void) { return __atomic_load_n(&alive, __ATOMIC_SEQ_CST); }

int ssdc_thread_count_available(void) { return ssdc_threads_rebound; }

#endif
