#ifndef C_RUNTIME_HOOKS_H
#define C_RUNTIME_HOOKS_H

#include <stdint.h>

// What the scenario engine hooks in the runtime a stack calls through, on Linux (the global
// offset tables of the libraries, rewritten once per process): Dispatch (Dispatch.c), clocks,
// sleeps and condition waits on a runner thread (Time.c), the way onto the network
// (NetworkGuard.c), run-loop timers and the main-thread check (RunLoopTimers.c); Rebinding.c
// rewrites the tables. Each handler returns nonzero when it took the call; zero sends the call on
// unchanged. Queues, groups, sources and semaphores are passed as opaque pointers, blocks too.

typedef struct {
    /// dispatch_async (barrier 0), dispatch_barrier_async (barrier 1), dispatch_group_async (group set).
    int (*async)(void *queue, void *block, void *group, int barrier);
    int (*after)(uint64_t when, void *queue, void *block);
    int (*sync)(void *queue, void *block, int barrier);
    int (*group_notify)(void *group, void *queue, void *block);
    /// dispatch_block_notify: `notification` goes to `queue` once the work item `block` has run.
    int (*block_notify)(void *block, void *queue, void *notification);
    /// A wait on a group (kind 0), a semaphore (kind 1) or a work item's block (kind 2); sets
    /// *result when taken.
    int (*wait)(void *object, uint64_t timeout, int kind, long *result);
    /// Called after a source was made, with what it was made for.
    void (*source_created)(void *source, void *type, void *queue);
    int (*source_set_timer)(void *source, uint64_t start, uint64_t interval, uint64_t leeway);
    void (*source_set_event_handler)(void *source, void *block);
    /// dispatch_resume (0), dispatch_activate (1), dispatch_suspend (2), dispatch_source_cancel (3).
    void (*state_changed)(void *object, int change);
    /// dispatch_assert_queue (0), dispatch_assert_queue_not (1), dispatch_assert_queue_barrier (2).
    int (*assert_queue)(void *queue, int kind);
    /// dispatch_get_specific: sets *value and returns nonzero when taken.
    int (*get_specific)(const void *key, void **value);
    /// A queue was made (created 1; target NULL: the default) or given another target queue (created 0).
    void (*targeted)(void *queue, void *target, int created);
    /// FoundationNetworking is about to hand libcurl a transfer (curl_multi_add_handle): nonzero
    /// holds it back, so it never opens a socket (the transfer then waits for its own timeout).
    int (*transfer)(void *easy);
    /// A CoreFoundation timer (a `Timer`) is about to join a run loop in `mode`, the main one,
    /// the calling thread's or another (an SSDC_LOOP_ value): nonzero takes it instead (it then
    /// fires through ssdc_timer_fire).
    int (*run_loop_timer)(void *timer, void *mode, int loop);
    /// A sleep on a thread with virtual clocks (a runner: `Thread.sleep`, or the program's own
    /// `usleep`, `sleep`, `nanosleep`) asks to sleep this long: nonzero
    /// when the scenario slept it on virtual time.
    int (*sleep)(int64_t nanoseconds);
    /// A thread with virtual clocks (a runner) blocks on a condition variable, for at most
    /// `limit` nanoseconds of virtual time (-1: no limit): the scenario takes one step and says
    /// which (an SSDC_STEP_ value).
    int (*blocked)(int64_t limit);
    /// Whether a thread with virtual clocks (a runner) is running main-queue work: Foundation's
    /// `Thread.isMainThread` (CoreFoundation's `_CFIsMainThread`) then answers yes, as on iOS.
    int (*on_main)(void);
    /// The program's own code is about to connect to `destination` (`host:port`, away from this
    /// machine) or to look the host name `destination` up: nonzero refuses it (`connect` fails
    /// with ECONNREFUSED, `getaddrinfo` with EAI_FAIL), so nothing reaches the network.
    int (*connection)(const char *destination);
} ssdc_handlers;

/// Which run loop a timer joins.
enum {
    SSDC_LOOP_MAIN = 0,
    SSDC_LOOP_CURRENT = 1,
    SSDC_LOOP_OTHER = 2,
};

/// What one step of a scenario did while its runner was blocked.
enum {
    /// Something ran or time moved: what the blocked code waits for may have changed.
    SSDC_STEP_PROGRESSED = 0,
    /// The limit was reached.
    SSDC_STEP_TIMED_OUT = 1,
    /// Nothing in the scenario can ever change it (reported as an escape).
    SSDC_STEP_STUCK = 2,
};

/// Sets the handlers and redirects the entry points, once per process; returns 0 on success.
int ssdc_install(const ssdc_handlers *handlers);

// libdispatch itself, for calls the handlers pass on or make.
void ssdc_real_sync_f(void *queue, void *context, void (*work)(void *));
void ssdc_real_group_enter(void *group);
void ssdc_real_group_leave(void *group);
long ssdc_real_group_wait(void *group, uint64_t timeout);
long ssdc_real_semaphore_wait(void *semaphore, uint64_t timeout);
/// dispatch_block_wait: a work item's block may be waited for until the first success only.
long ssdc_real_block_wait(void *block, uint64_t timeout);
void ssdc_retain(void *object);
void ssdc_release(void *object);
const char *ssdc_queue_label(void *queue);
void *ssdc_queue_get_specific(void *queue, const void *key);
void *ssdc_main_queue(void);
/// The queue a source made without one sends its events to.
void *ssdc_default_queue(void);
void *ssdc_timer_source_type(void);
/// Whether the queue is one of libdispatch's global (concurrent) queues.
int ssdc_is_global_queue(void *queue);
/// Whether the queue was made concurrent (`DISPATCH_QUEUE_CONCURRENT`, `.concurrent`).
int ssdc_is_concurrent_queue(void *queue);
/// Nanoseconds from now until `when` (negative when past); `when` in either of libdispatch's clocks.
int64_t ssdc_nanoseconds_until(uint64_t when);

// Virtual clocks on a runner thread (after ssdc_install): between begin and end, on the calling
// thread only, Swift Concurrency's monotonic clocks read a fixed real instant plus `elapsed()`
// nanoseconds, Foundation's wall clock reads `wall_start` (nanoseconds since 1970) plus it,
// Foundation's `Thread.sleep` and the program's own sleeps go to the `sleep` handler, and
// Foundation's condition waits to the `blocked` handler.
void ssdc_virtual_clocks_begin(int64_t (*elapsed)(void), int64_t wall_start);
void ssdc_virtual_clocks_end(void);
/// Real clocks on this thread until resumed with what suspend returned (the engine's own waits).
void *ssdc_virtual_clocks_suspend(void);
void ssdc_virtual_clocks_resume(void *elapsed);
/// Whether Swift Concurrency's clock readings were redirected (not with a static stdlib).
int ssdc_virtual_clocks_available(void);
/// Whether Foundation's wall-clock readings were redirected.
int ssdc_virtual_dates_available(void);
/// Whether Foundation's sleeps and condition waits (`Thread.sleep`, `NSCondition`) were redirected.
int ssdc_virtual_waits_available(void);
/// Whether Foundation's `Thread.isMainThread` was redirected (see `on_main`).
int ssdc_main_thread_available(void);
/// Whether the program's own calls to `connect` and `getaddrinfo` were redirected (see `connection`).
int ssdc_connection_guard_available(void);

/// How many threads started by a runner (or by a thread a runner started) are still running:
/// work on them may still come back to the scenario. Whether threads are counted at all.
long ssdc_scenario_threads_alive(void);
int ssdc_thread_count_available(void);
/// Whether the program's own calls to `usleep`, `sleep` and `nanosleep` were redirected.
int ssdc_virtual_program_sleeps_available(void);
/// Whether the program itself defines those sleeps (a sanitizer's runtime does): its calls then
/// reach them directly, with no slot to redirect.
int ssdc_program_defines_sleeps(void);

/// The method and URL a libcurl transfer was given; NULL when unknown. Valid while the transfer is.
const char *ssdc_transfer_method(void *easy);
const char *ssdc_transfer_url(void *easy);

// Run-loop timers (CFRunLoopTimer, CFAbsoluteTime seconds; CoreFoundation's own retain counts).
double ssdc_timer_next_fire(void *timer);
double ssdc_timer_interval(void *timer);
int ssdc_timer_is_valid(void *timer);
double ssdc_absolute_now(void);
void ssdc_cf_retain(void *object);
void ssdc_cf_release(void *object);
/// Fires `timer` now, on the calling thread's run loop, as a run loop would.
void ssdc_timer_fire(void *timer, void *mode);

// Blocks.
void *ssdc_block_copy(void *block);
void ssdc_block_release(void *block);
void ssdc_block_invoke(void *block);

#endif
