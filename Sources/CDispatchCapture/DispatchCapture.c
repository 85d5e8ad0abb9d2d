// Redirection of libdispatch's entry points for the scenario engine. See CDispatchCapture.h.
//
// On Linux, Swift's Dispatch module (libswiftDispatch.so) calls libdispatch through its global
// offset table. Rewriting those slots, as fishhook does for Mach-O, sends every DispatchQueue,
// DispatchGroup, DispatchSource and DispatchSemaphore call of Swift code through the handlers
// without touching libdispatch or the app. Other platforms report the capture unavailable.
//
// FoundationNetworking's one call that starts a libcurl transfer (curl_multi_add_handle) goes
// through the handlers too, so a request from a session that does not route to the scenario can
// be held back before libcurl opens a socket for it. So do the program's own `connect` and
// `getaddrinfo` (a client that is not URLSession: SwiftNIO, AsyncHTTPClient, a socket), so a
// connection away from this machine is refused before it opens.
//
// The same rewriting gives a runner thread virtual clocks: `clock_gettime` as Swift Concurrency
// calls it (ContinuousClock, SuspendingClock, Task.sleep's deadlines) reads the scenario's
// virtual clock there, so a deadline a stack computes on the runner is exact, not estimated from
// the real clock. Dispatch's clock stays real: a DispatchTime can reach libdispatch itself (a
// timer source the scenario does not own), where a virtual instant would fire at the wrong time.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dl_iterate_phdr, RTLD_DEFAULT
#endif

#include "CDispatchCapture.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define SSDC_ELF 1
#endif

#ifdef SSDC_ELF
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <arpa/inet.h>
#include <link.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

typedef void (*async_fn)(void *, void *);
typedef void (*group_async_fn)(void *, void *, void *);
typedef void (*after_fn)(uint64_t, void *, void *);
typedef void (*group_notify_fn)(void *, void *, void *);
typedef long (*wait_fn)(void *, uint64_t);
typedef void *(*source_create_fn)(void *, uintptr_t, uintptr_t, void *);
typedef void (*set_timer_fn)(void *, uint64_t, uint64_t, uint64_t);
typedef void (*set_handler_fn)(void *, void *);
typedef void (*object_fn)(void *);
typedef void *(*get_specific_fn)(const void *);
typedef void *(*queue_get_specific_fn)(void *, const void *);
typedef const char *(*label_fn)(void *);
typedef uint64_t (*time_fn)(uint64_t, int64_t);
typedef uint64_t (*walltime_fn)(const void *, int64_t);
typedef void *(*global_queue_fn)(intptr_t, uintptr_t);
typedef void *(*queue_create_fn)(const char *, void *);
typedef void *(*queue_create_with_target_fn)(const char *, void *, void *);
typedef void (*set_target_fn)(void *, void *);
typedef void (*sync_f_fn)(void *, void *, void (*)(void *));
typedef void *(*block_copy_fn)(const void *);
typedef void (*block_release_fn)(const void *);
typedef int (*curl_add_fn)(void *, void *);
typedef int (*curl_getinfo_fn)(void *, int, ...);
typedef void (*cf_timer_loop_fn)(void *, void *, void *);
typedef double (*cf_timer_time_fn)(void *);
typedef void (*cf_timer_set_fn)(void *, double);
typedef unsigned char (*cf_test_fn)(void *);
typedef unsigned char (*cf_equal_fn)(const void *, const void *);
typedef void *(*cf_loop_fn)(void);
typedef int32_t (*cf_run_fn)(void *, double, unsigned char);
typedef double (*cf_now_fn)(void);
typedef const void *(*cf_retain_fn)(const void *);
typedef void (*cf_release_fn)(const void *);
typedef unsigned char (*cf_is_main_fn)(void);
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*usleep_fn)(useconds_t);
typedef unsigned (*sleep_fn)(unsigned);
typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);
typedef int (*getaddrinfo_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

static struct {
    async_fn async, barrier_async, sync, barrier_sync;
    group_async_fn group_async;
    after_fn after;
    group_notify_fn group_notify, block_notify;
    wait_fn group_wait, semaphore_wait, block_wait;
    source_create_fn source_create;
    set_timer_fn source_set_timer;
    set_handler_fn source_set_event_handler;
    object_fn resume, activate, suspend, source_cancel, group_enter, group_leave, retain, release;
    object_fn assert_queue, assert_queue_not, assert_queue_barrier;
    get_specific_fn get_specific;
    queue_get_specific_fn queue_get_specific;
    label_fn queue_get_label;
    time_fn time;
    walltime_fn walltime;
    global_queue_fn get_global_queue;
    queue_create_fn queue_create;
    queue_create_with_target_fn queue_create_with_target;
    set_target_fn set_target_queue;
    sync_f_fn sync_f;
    block_copy_fn block_copy;
    block_release_fn block_release;
    void *main_queue, *timer_type;
    curl_add_fn curl_multi_add_handle;
    curl_getinfo_fn curl_easy_getinfo;
    // CoreFoundation's run-loop timers (in libFoundation on Linux).
    cf_timer_loop_fn cf_add_timer, cf_remove_timer;
    cf_timer_time_fn cf_timer_next_fire, cf_timer_interval;
    cf_timer_set_fn cf_timer_set_next_fire;
    cf_test_fn cf_timer_is_valid;
    cf_equal_fn cf_equal;
    cf_loop_fn cf_current_loop, cf_main_loop;
    cf_run_fn cf_run_in_mode;
    cf_now_fn cf_now;
    cf_retain_fn cf_retain;
    cf_release_fn cf_release;
    void **cf_common_modes, **cf_default_mode;
    cf_is_main_fn cf_is_main_thread;
    // The C library's sleeps: the program's own calls to them are rebound too.
    nanosleep_fn nanosleep;
    usleep_fn usleep;
    sleep_fn sleep;
    // The C library's way onto the network: the program's own calls are rebound too.
    connect_fn connect;
    getaddrinfo_fn getaddrinfo;
} real;

static ssdc_handlers handlers;
static void *global_queues[32];
static int global_queue_count;

// MARK: - Replacements

static void my_async(void *q, void *b) {
    if (!handlers.async(q, b, NULL, 0)) real.async(q, b);
}
static void my_barrier_async(void *q, void *b) {
    if (!handlers.async(q, b, NULL, 1)) real.barrier_async(q, b);
}
static void my_group_async(void *g, void *q, void *b) {
    if (!handlers.async(q, b, g, 0)) real.group_async(g, q, b);
}
static void my_after(uint64_t when, void *q, void *b) {
    if (!handlers.after(when, q, b)) real.after(when, q, b);
}
static void my_sync(void *q, void *b) {
    if (!handlers.sync(q, b, 0)) real.sync(q, b);
}
static void my_barrier_sync(void *q, void *b) {
    if (!handlers.sync(q, b, 1)) real.barrier_sync(q, b);
}
static void my_group_notify(void *g, void *q, void *b) {
    if (!handlers.group_notify(g, q, b)) real.group_notify(g, q, b);
}
static long my_group_wait(void *g, uint64_t timeout) {
    long result = 0;
    if (handlers.wait(g, timeout, 0, &result)) return result;
    return real.group_wait(g, timeout);
}
static long my_semaphore_wait(void *s, uint64_t timeout) {
    long result = 0;
    if (handlers.wait(s, timeout, 1, &result)) return result;
    return real.semaphore_wait(s, timeout);
}
static void my_block_notify(void *b, void *q, void *notification) {
    if (!handlers.block_notify(b, q, notification)) real.block_notify(b, q, notification);
}
static long my_block_wait(void *b, uint64_t timeout) {
    long result = 0;
    if (handlers.wait(b, timeout, 2, &result)) return result;
    return real.block_wait(b, timeout);
}
static void *my_source_create(void *type, uintptr_t handle, uintptr_t mask, void *q) {
    void *source = real.source_create(type, handle, mask, q);
    if (source) handlers.source_created(source, type, q);
    return source;
}
static void my_source_set_timer(void *s, uint64_t start, uint64_t interval, uint64_t leeway) {
    if (!handlers.source_set_timer(s, start, interval, leeway)) real.source_set_timer(s, start, interval, leeway);
}
static void my_source_set_event_handler(void *s, void *b) {
    handlers.source_set_event_handler(s, b);
    real.source_set_event_handler(s, b);
}
static void my_resume(void *o) {
    handlers.state_changed(o, 0);
    real.resume(o);
}
static void my_activate(void *o) {
    handlers.state_changed(o, 1);
    real.activate(o);
}
static void my_suspend(void *o) {
    handlers.state_changed(o, 2);
    real.suspend(o);
}
static void my_source_cancel(void *o) {
    handlers.state_changed(o, 3);
    real.source_cancel(o);
}
static void my_assert_queue(void *q) {
    if (!handlers.assert_queue(q, 0)) real.assert_queue(q);
}
static void my_assert_queue_not(void *q) {
    if (!handlers.assert_queue(q, 1)) real.assert_queue_not(q);
}
static void my_assert_queue_barrier(void *q) {
    if (!handlers.assert_queue(q, 2)) real.assert_queue_barrier(q);
}
static void *my_get_specific(const void *key) {
    void *value = NULL;
    if (handlers.get_specific(key, &value)) return value;
    return real.get_specific(key);
}

static void *my_queue_create(const char *label, void *attr) {
    void *queue = real.queue_create(label, attr);
    if (queue) handlers.targeted(queue, NULL, 1);
    return queue;
}
static void *my_queue_create_with_target(const char *label, void *attr, void *target) {
    void *queue = real.queue_create_with_target(label, attr, target);
    if (queue) handlers.targeted(queue, target, 1);
    return queue;
}
static void my_set_target_queue(void *object, void *target) {
    handlers.targeted(object, target, 0);
    real.set_target_queue(object, target);
}

// MARK: - Virtual clocks on a runner thread

// Set on a runner thread while its scenario runs: the real readings the virtual clock starts
// from, and the function that gives the virtual time elapsed since (nanoseconds).
static __thread int64_t (*virtual_elapsed)(void);
static __thread int64_t anchor_monotonic, anchor_boottime, anchor_monotonic_raw;
// The scenario's start on the wall clock (nanoseconds since 1970): a runner's `Date()` is the
// scenario's clock, the instant its `given.clock.start` names plus the virtual time elapsed.
static __thread int64_t anchor_wall;
// Virtual time the runner's `Thread.sleep`s took: Foundation's monotonic readings run ahead of
// the real clock by it, so the sleep loop, which counts on them, sees its end and stops.
static __thread int64_t slept_ahead;
static int clocks_rebound, dates_rebound, transfers_rebound, timers_rebound, waits_rebound, program_sleeps_rebound, main_thread_rebound;
static int connections_rebound;

static int64_t real_nanoseconds(clockid_t clock) {
    struct timespec spec;
    clock_gettime(clock, &spec);
    return (int64_t)spec.tv_sec * 1000000000 + spec.tv_nsec;
}

static int my_clock_gettime(clockid_t clock, struct timespec *spec) {
    int64_t (*elapsed)(void) = virtual_elapsed;
    int64_t anchor = 0;
    switch (clock) {
    case CLOCK_MONOTONIC: anchor = anchor_monotonic; break;
    case CLOCK_BOOTTIME: anchor = anchor_boottime; break;
    case CLOCK_MONOTONIC_RAW: anchor = anchor_monotonic_raw; break;
    default: elapsed = NULL;
    }
    if (!elapsed || !spec) return clock_gettime(clock, spec);
    int64_t now;
    if (__builtin_add_overflow(anchor, elapsed(), &now)) now = INT64_MAX;
    spec->tv_sec = now / 1000000000;
    spec->tv_nsec = now % 1000000000;
    return 0;
}

// The wall clock now on a runner with virtual clocks, or -1 elsewhere (seconds and the
// nanoseconds within them, rounded down also before 1970).
static int virtual_wall(struct timespec *spec) {
    int64_t (*elapsed)(void) = virtual_elapsed;
    if (!elapsed) return -1;
    int64_t now;
    if (__builtin_add_overflow(anchor_wall, elapsed(), &now)) now = INT64_MAX; // years past 2262
    int64_t seconds = now / 1000000000, rest = now % 1000000000;
    if (rest < 0) {
        seconds -= 1;
        rest += 1000000000;
    }
    spec->tv_sec = (time_t)seconds;
    spec->tv_nsec = (long)rest;
    return 0;
}

// Foundation's readings of the wall clock (`Date()`, `CFAbsoluteTimeGetCurrent`); its other
// clocks stay real (a run loop's timers count on them), only ahead by what `Thread.sleep` slept.
static int my_wall_clock_gettime(clockid_t clock, struct timespec *spec) {
    if (!spec) return clock_gettime(clock, spec);
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) return virtual_wall(spec) == 0 ? 0 : clock_gettime(clock, spec);
    int result = clock_gettime(clock, spec);
    int64_t ahead = virtual_elapsed ? slept_ahead : 0;
    if (result != 0 || ahead == 0) return result;
    int64_t now = (int64_t)spec->tv_sec * 1000000000 + spec->tv_nsec + ahead;
    spec->tv_sec = now / 1000000000;
    spec->tv_nsec = now % 1000000000;
    return 0;
}

// A sleep on a runner (`Thread.sleep`, or `usleep`, `sleep`, `nanosleep` from the program's own
// code): the scenario sleeps on virtual time, running its other work meanwhile. Returns whether
// it did; elsewhere the caller sleeps for real.
static int slept_virtually(int64_t nanoseconds) {
    int64_t (*elapsed)(void) = virtual_elapsed;
    if (!elapsed) return 0;
    int64_t before = elapsed();
    if (!handlers.sleep(nanoseconds)) return 0;
    slept_ahead += elapsed() - before;
    return 1;
}

// Longer than a century is forever: clamped, so the nanoseconds fit.
static const int64_t century_seconds = 3155760000;

static int my_nanosleep(const struct timespec *request, struct timespec *remaining) {
    if (!request || request->tv_sec < 0 || request->tv_nsec < 0 || request->tv_nsec >= 1000000000) return real.nanosleep(request, remaining);
    int64_t nanoseconds = request->tv_sec >= century_seconds ? century_seconds * 1000000000 : (int64_t)request->tv_sec * 1000000000 + request->tv_nsec;
    if (!slept_virtually(nanoseconds)) return real.nanosleep(request, remaining);
    if (remaining) remaining->tv_sec = remaining->tv_nsec = 0;
    return 0;
}

static int my_usleep(useconds_t microseconds) { return slept_virtually((int64_t)microseconds * 1000) ? 0 : real.usleep(microseconds); }

static unsigned my_sleep(unsigned seconds) {
    int64_t clamped = seconds >= century_seconds ? century_seconds : (int64_t)seconds;
    return slept_virtually(clamped * 1000000000) ? 0 : real.sleep(seconds);
}

static int my_gettimeofday(struct timeval *value, void *zone) {
    struct timespec spec;
    if (!value || virtual_wall(&spec) != 0) return gettimeofday(value, zone);
    value->tv_sec = spec.tv_sec;
    value->tv_usec = (suseconds_t)(spec.tv_nsec / 1000);
    return 0;
}

static time_t my_time(time_t *out) {
    struct timespec spec;
    if (virtual_wall(&spec) != 0) return time(out);
    if (out) *out = spec.tv_sec;
    return spec.tv_sec;
}

// A condition wait on a runner (`NSCondition.wait()`, `Operation.waitUntilFinished()`, a
// `NotificationCenter` post to an observer on another queue): the scenario takes one step with
// the mutex unlocked, and the wait returns as a spurious wakeup so the caller checks its predicate
// again. Only when nothing in the scenario can signal it does the thread wait for real.
static int step_unlocked(pthread_mutex_t *mutex, int64_t limit) {
    pthread_mutex_unlock(mutex);
    int step = handlers.blocked(limit);
    pthread_mutex_lock(mutex);
    return step;
}

static int my_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    if (!virtual_elapsed) return pthread_cond_wait(cond, mutex);
    return step_unlocked(mutex, -1) == SSDC_STEP_STUCK ? pthread_cond_wait(cond, mutex) : 0;
}

// The same with a deadline on the wall clock, which on a runner is the scenario's.
static int my_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex, const struct timespec *deadline) {
    struct timespec now;
    if (!deadline || virtual_wall(&now) != 0) return pthread_cond_timedwait(cond, mutex, deadline);
    int64_t left = ((int64_t)deadline->tv_sec - now.tv_sec) * 1000000000 + (deadline->tv_nsec - now.tv_nsec);
    if (left <= 0) return ETIMEDOUT;
    return step_unlocked(mutex, left) == SSDC_STEP_TIMED_OUT ? ETIMEDOUT : 0;
}

// `Thread.isMainThread` on a runner running main-queue work (a main-queue block, a main-actor
// job): yes, as on iOS, so `assert(Thread.isMainThread)` holds and `OperationQueue.current` is
// the main queue (a `NotificationCenter` post to a main-queue observer then runs it inline).
static unsigned char my_cf_is_main_thread(void) {
    if (virtual_elapsed && handlers.on_main()) return 1;
    return real.cf_is_main_thread();
}

void ssdc_virtual_clocks_begin(int64_t (*elapsed)(void), int64_t wall_start) {
    anchor_monotonic = real_nanoseconds(CLOCK_MONOTONIC);
    anchor_boottime = real_nanoseconds(CLOCK_BOOTTIME);
    anchor_monotonic_raw = real_nanoseconds(CLOCK_MONOTONIC_RAW);
    anchor_wall = wall_start;
    slept_ahead = 0;
    virtual_elapsed = elapsed;
}

void ssdc_virtual_clocks_end(void) { virtual_elapsed = NULL; }

void *ssdc_virtual_clocks_suspend(void) {
    void *elapsed = (void *)virtual_elapsed;
    virtual_elapsed = NULL;
    return elapsed;
}

void ssdc_virtual_clocks_resume(void *elapsed) { virtual_elapsed = (int64_t(*)(void))elapsed; }

int ssdc_virtual_clocks_available(void) { return clocks_rebound; }

int ssdc_virtual_dates_available(void) { return dates_rebound; }

int ssdc_virtual_waits_available(void) { return waits_rebound; }

int ssdc_virtual_program_sleeps_available(void) { return program_sleeps_rebound; }

int ssdc_main_thread_available(void) { return main_thread_rebound; }

int ssdc_connection_guard_available(void) { return connections_rebound; }

int ssdc_program_defines_sleeps(void) {
    Dl_info sleeps, capture;
    if (!real.usleep || !dladdr((void *)real.usleep, &sleeps) || !dladdr((void *)ssdc_install, &capture)) return 0;
    return sleeps.dli_fbase == capture.dli_fbase;
}

// MARK: - Rewriting the global offset table

struct rebinding {
    const char *name;
    void *replacement;
    // Counts the slots rewritten.
    int *rebound;
    // Set when what the replacement calls was found; NULL: always there.
    const int *requires;
};

// Slots rewritten: Dispatch's decide whether the capture is installed, the others only whether
// their part of it works.
static int dispatch_slots;
// What the libcurl and CoreFoundation replacements call, found by find_real.
static int curl_found, cf_timers_found, cf_main_found;

// What each library's table sends where: the Dispatch module's calls into libdispatch, the clock
// readings of Swift Concurrency and Foundation, FoundationNetworking's start of a libcurl transfer,
// Foundation's run-loop timers and waits, and the program's own sleeps.
struct library {
    // How the object's path ends; empty: the program itself.
    const char *suffix;
    const struct rebinding *rebindings;
    size_t count;
};

static struct rebinding rebindings[] = {
    {"dispatch_async", (void *)my_async, &dispatch_slots, NULL},
    {"dispatch_barrier_async", (void *)my_barrier_async, &dispatch_slots, NULL},
    {"dispatch_group_async", (void *)my_group_async, &dispatch_slots, NULL},
    {"dispatch_after", (void *)my_after, &dispatch_slots, NULL},
    {"dispatch_sync", (void *)my_sync, &dispatch_slots, NULL},
    {"dispatch_barrier_sync", (void *)my_barrier_sync, &dispatch_slots, NULL},
    {"dispatch_group_notify", (void *)my_group_notify, &dispatch_slots, NULL},
    {"dispatch_group_wait", (void *)my_group_wait, &dispatch_slots, NULL},
    {"dispatch_semaphore_wait", (void *)my_semaphore_wait, &dispatch_slots, NULL},
    {"dispatch_block_notify", (void *)my_block_notify, &dispatch_slots, NULL},
    {"dispatch_block_wait", (void *)my_block_wait, &dispatch_slots, NULL},
    {"dispatch_source_create", (void *)my_source_create, &dispatch_slots, NULL},
    {"dispatch_source_set_timer", (void *)my_source_set_timer, &dispatch_slots, NULL},
    {"dispatch_source_set_event_handler", (void *)my_source_set_event_handler, &dispatch_slots, NULL},
    {"dispatch_resume", (void *)my_resume, &dispatch_slots, NULL},
    {"dispatch_activate", (void *)my_activate, &dispatch_slots, NULL},
    {"dispatch_suspend", (void *)my_suspend, &dispatch_slots, NULL},
    {"dispatch_source_cancel", (void *)my_source_cancel, &dispatch_slots, NULL},
    {"dispatch_assert_queue", (void *)my_assert_queue, &dispatch_slots, NULL},
    {"dispatch_assert_queue_not", (void *)my_assert_queue_not, &dispatch_slots, NULL},
    {"dispatch_assert_queue_barrier", (void *)my_assert_queue_barrier, &dispatch_slots, NULL},
    {"dispatch_get_specific", (void *)my_get_specific, &dispatch_slots, NULL},
    {"dispatch_queue_create", (void *)my_queue_create, &dispatch_slots, NULL},
    {"dispatch_queue_create_with_target", (void *)my_queue_create_with_target, &dispatch_slots, NULL},
    {"dispatch_set_target_queue", (void *)my_set_target_queue, &dispatch_slots, NULL},
};

static int my_curl_multi_add_handle(void *multi, void *easy) {
    if (handlers.transfer(easy)) return 0;  // CURLM_OK: FoundationNetworking treats anything else as fatal.
    return real.curl_multi_add_handle(multi, easy);
}

static void my_cf_add_timer(void *loop, void *timer, void *mode) {
    int which = loop == real.cf_main_loop() ? SSDC_LOOP_MAIN : loop == real.cf_current_loop() ? SSDC_LOOP_CURRENT : SSDC_LOOP_OTHER;
    if (!handlers.run_loop_timer(timer, mode, which)) real.cf_add_timer(loop, timer, mode);
}

static struct rebinding networking_rebindings[] = {
    {"curl_multi_add_handle", (void *)my_curl_multi_add_handle, &transfers_rebound, &curl_found},
};

static struct rebinding concurrency_rebindings[] = {
    {"clock_gettime", (void *)my_clock_gettime, &clocks_rebound, NULL},
};

// Foundation's wall clock (both libraries); how a `Timer` joins a run loop, sleeps, condition
// waits and which thread is the main one (libFoundation).
static struct rebinding foundation_rebindings[] = {
    {"clock_gettime", (void *)my_wall_clock_gettime, &dates_rebound, NULL},
    {"gettimeofday", (void *)my_gettimeofday, &dates_rebound, NULL},
    {"time", (void *)my_time, &dates_rebound, NULL},
    {"CFRunLoopAddTimer", (void *)my_cf_add_timer, &timers_rebound, &cf_timers_found},
    {"nanosleep", (void *)my_nanosleep, &waits_rebound, NULL},
    {"pthread_cond_wait", (void *)my_cond_wait, &waits_rebound, NULL},
    {"pthread_cond_timedwait", (void *)my_cond_timedwait, &waits_rebound, NULL},
    {"_CFIsMainThread", (void *)my_cf_is_main_thread, &main_thread_rebound, &cf_main_found},
};
static const size_t wall_clock_rebindings = 3;

// Writes `host:port` for an address away from this machine (IPv4 or IPv6, not loopback) and
// returns 1; 0 for any other (loopback, a local socket).
static int describe_remote(const struct sockaddr *address, socklen_t length, char *text, size_t size) {
    char host[INET6_ADDRSTRLEN];
    if (address && address->sa_family == AF_INET && length >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        if ((ntohl(v4->sin_addr.s_addr) >> 24) == 127 || !inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host)) return 0;
        snprintf(text, size, "%s:%u", host, (unsigned)ntohs(v4->sin_port));
        return 1;
    }
    if (address && address->sa_family == AF_INET6 && length >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        const struct in6_addr *ip = &v6->sin6_addr;
        int mapped_loopback = IN6_IS_ADDR_V4MAPPED(ip) && ip->s6_addr[12] == 127;
        if (IN6_IS_ADDR_LOOPBACK(ip) || mapped_loopback || !inet_ntop(AF_INET6, ip, host, sizeof host)) return 0;
        snprintf(text, size, "[%s]:%u", host, (unsigned)ntohs(v6->sin6_port));
        return 1;
    }
    return 0;
}

static int my_connect(int socket, const struct sockaddr *address, socklen_t length) {
    char destination[INET6_ADDRSTRLEN + 16];
    if (handlers.connection && describe_remote(address, length, destination, sizeof destination) && handlers.connection(destination)) {
        errno = ECONNREFUSED;
        return -1;
    }
    return real.connect(socket, address, length);
}

// Whether looking `name` up asks no one away from this machine: `localhost` and its subdomains,
// or a numeric address (which `connect` then judges).
static int is_local_name(const char *name) {
    size_t length = strlen(name);
    const char *suffix = ".localhost";
    size_t suffix_length = strlen(suffix);
    if (strcasecmp(name, "localhost") == 0) return 1;
    if (length > suffix_length && strcasecmp(name + length - suffix_length, suffix) == 0) return 1;
    unsigned char numeric[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, name, numeric) == 1 || inet_pton(AF_INET6, name, numeric) == 1;
}

static int my_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result) {
    if (node && handlers.connection && !is_local_name(node) && handlers.connection(node)) return EAI_FAIL;
    return real.getaddrinfo(node, service, hints, result);
}

// The program's own sleeps and its own way onto the network (the stack's code is linked into
// it, in the CLI and in `swift test`).
static struct rebinding program_rebindings[] = {
    {"nanosleep", (void *)my_nanosleep, &program_sleeps_rebound, NULL},
    {"usleep", (void *)my_usleep, &program_sleeps_rebound, NULL},
    {"sleep", (void *)my_sleep, &program_sleeps_rebound, NULL},
    {"connect", (void *)my_connect, &connections_rebound, NULL},
    {"getaddrinfo", (void *)my_getaddrinfo, &connections_rebound, NULL},
};

static const struct library libraries[] = {
    {"/libswiftDispatch.so", rebindings, sizeof(rebindings) / sizeof(rebindings[0])},
    {"/libswift_Concurrency.so", concurrency_rebindings, sizeof(concurrency_rebindings) / sizeof(concurrency_rebindings[0])},
    {"/libFoundationNetworking.so", networking_rebindings, sizeof(networking_rebindings) / sizeof(networking_rebindings[0])},
    {"/libFoundationEssentials.so", foundation_rebindings, wall_clock_rebindings},
    {"/libFoundation.so", foundation_rebindings, sizeof(foundation_rebindings) / sizeof(foundation_rebindings[0])},
    // The program itself, which the loader lists without a name.
    {"", program_rebindings, sizeof(program_rebindings) / sizeof(program_rebindings[0])},
};

#if defined(__x86_64__)
#define SSDC_JUMP_SLOT R_X86_64_JUMP_SLOT
#define SSDC_GLOB_DAT R_X86_64_GLOB_DAT
#else
#define SSDC_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define SSDC_GLOB_DAT R_AARCH64_GLOB_DAT
#endif

static uintptr_t adjusted(uintptr_t pointer, uintptr_t base) { return pointer < base ? pointer + base : pointer; }

/// Returns whether the slot now holds `value` (a read-only page that cannot be made writable
/// keeps its slot).
static int write_slot(void **slot, void *value, uintptr_t relro_start, uintptr_t relro_end) {
    long page_size = sysconf(_SC_PAGESIZE);
    uintptr_t page = (uintptr_t)slot & ~((uintptr_t)page_size - 1);
    int in_relro = (uintptr_t)slot >= relro_start && (uintptr_t)slot < relro_end;
    if (in_relro && mprotect((void *)page, (size_t)page_size, PROT_READ | PROT_WRITE) != 0) return 0;
    __atomic_store_n(slot, value, __ATOMIC_SEQ_CST);
    if (in_relro) mprotect((void *)page, (size_t)page_size, PROT_READ);
    return 1;
}

static void rebind_relocations(const struct library *library, const ElfW(Rela) * relocations, size_t size, const ElfW(Sym) * symbols,
                               const char *strings, uintptr_t base, uintptr_t relro_start, uintptr_t relro_end) {
    size_t count = size / sizeof(ElfW(Rela));
    for (size_t i = 0; i < count; i++) {
        unsigned long type = ELF64_R_TYPE(relocations[i].r_info);
        if (type != SSDC_JUMP_SLOT && type != SSDC_GLOB_DAT) continue;
        const char *name = strings + symbols[ELF64_R_SYM(relocations[i].r_info)].st_name;
        for (size_t r = 0; r < library->count; r++) {
            if (strcmp(name, library->rebindings[r].name) == 0) {
                const struct rebinding *rebinding = &library->rebindings[r];
                if (rebinding->requires && !*rebinding->requires) break;
                if (write_slot((void **)(base + relocations[i].r_offset), rebinding->replacement, relro_start, relro_end)) {
                    (*rebinding->rebound)++;
                }
                break;
            }
        }
    }
}

static int rebind_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    const struct library *library = NULL;
    size_t length = name ? strlen(name) : 0;
    for (size_t l = 0; l < sizeof(libraries) / sizeof(libraries[0]); l++) {
        const char *suffix = libraries[l].suffix;
        size_t suffix_length = strlen(suffix);
        int matches = suffix_length == 0 ? length == 0 : length >= suffix_length && strcmp(name + length - suffix_length, suffix) == 0;
        if (matches) library = &libraries[l];
    }
    if (!library) return 0;
    uintptr_t base = info->dlpi_addr, relro_start = 0, relro_end = 0;
    const ElfW(Dyn) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(base + header->p_vaddr);
        if (header->p_type == PT_GNU_RELRO) {
            relro_start = base + header->p_vaddr;
            relro_end = relro_start + header->p_memsz;
        }
    }
    if (!dynamic) return 0;
    const ElfW(Sym) *symbols = NULL;
    const char *strings = NULL;
    const ElfW(Rela) *plt = NULL, *rela = NULL;
    size_t plt_size = 0, rela_size = 0;
    for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)adjusted(entry->d_un.d_ptr, base); break;
        case DT_STRTAB: strings = (const char *)adjusted(entry->d_un.d_ptr, base); break;
        case DT_JMPREL: plt = (const ElfW(Rela) *)adjusted(entry->d_un.d_ptr, base); break;
        case DT_PLTRELSZ: plt_size = entry->d_un.d_val; break;
        case DT_RELA: rela = (const ElfW(Rela) *)adjusted(entry->d_un.d_ptr, base); break;
        case DT_RELASZ: rela_size = entry->d_un.d_val; break;
        }
    }
    if (!symbols || !strings) return 0;
    if (plt) rebind_relocations(library, plt, plt_size, symbols, strings, base, relro_start, relro_end);
    if (rela) rebind_relocations(library, rela, rela_size, symbols, strings, base, relro_start, relro_end);
    return 0;
}

// MARK: - Installation

static int find_real(void) {
    // What the offset table would have bound: libdispatch's functions, or a sanitizer's
    // interceptors of them where the program has any.
    void *dispatch = RTLD_DEFAULT;
    void *blocks = dlopen("libBlocksRuntime.so", RTLD_NOW | RTLD_NOLOAD);
    if (!blocks) blocks = RTLD_DEFAULT;
#define FIND(field, name)                                                                                                   \
    if (!(*(void **)&real.field = dlsym(dispatch, name))) return -1;
    FIND(async, "dispatch_async")
    FIND(barrier_async, "dispatch_barrier_async")
    FIND(group_async, "dispatch_group_async")
    FIND(after, "dispatch_after")
    FIND(sync, "dispatch_sync")
    FIND(barrier_sync, "dispatch_barrier_sync")
    FIND(sync_f, "dispatch_sync_f")
    FIND(group_notify, "dispatch_group_notify")
    FIND(group_wait, "dispatch_group_wait")
    FIND(semaphore_wait, "dispatch_semaphore_wait")
    FIND(block_notify, "dispatch_block_notify")
    FIND(block_wait, "dispatch_block_wait")
    FIND(source_create, "dispatch_source_create")
    FIND(source_set_timer, "dispatch_source_set_timer")
    FIND(source_set_event_handler, "dispatch_source_set_event_handler")
    FIND(resume, "dispatch_resume")
    FIND(activate, "dispatch_activate")
    FIND(suspend, "dispatch_suspend")
    FIND(source_cancel, "dispatch_source_cancel")
    FIND(group_enter, "dispatch_group_enter")
    FIND(group_leave, "dispatch_group_leave")
    FIND(retain, "dispatch_retain")
    FIND(release, "dispatch_release")
    FIND(assert_queue, "dispatch_assert_queue")
    FIND(assert_queue_not, "dispatch_assert_queue_not")
    FIND(assert_queue_barrier, "dispatch_assert_queue_barrier")
    FIND(get_specific, "dispatch_get_specific")
    FIND(queue_get_specific, "dispatch_queue_get_specific")
    FIND(queue_get_label, "dispatch_queue_get_label")
    FIND(time, "dispatch_time")
    FIND(walltime, "dispatch_walltime")
    FIND(get_global_queue, "dispatch_get_global_queue")
    FIND(queue_create, "dispatch_queue_create")
    FIND(queue_create_with_target, "dispatch_queue_create_with_target")
    FIND(set_target_queue, "dispatch_set_target_queue")
    FIND(main_queue, "_dispatch_main_q")
    FIND(timer_type, "_dispatch_source_type_timer")
    FIND(nanosleep, "nanosleep")
    FIND(usleep, "usleep")
    FIND(sleep, "sleep")
    FIND(connect, "connect")
    FIND(getaddrinfo, "getaddrinfo")
#undef FIND
    *(void **)&real.block_copy = dlsym(blocks, "_Block_copy");
    *(void **)&real.block_release = dlsym(blocks, "_Block_release");
    if (!real.block_copy || !real.block_release) return -1;
    // Present only where FoundationNetworking (and so libcurl) is loaded.
    *(void **)&real.curl_multi_add_handle = dlsym(RTLD_DEFAULT, "curl_multi_add_handle");
    *(void **)&real.curl_easy_getinfo = dlsym(RTLD_DEFAULT, "curl_easy_getinfo");
    curl_found = real.curl_multi_add_handle != NULL;
#define FIND_CF(field, name) *(void **)&real.field = dlsym(RTLD_DEFAULT, name);
    FIND_CF(cf_add_timer, "CFRunLoopAddTimer")
    FIND_CF(cf_remove_timer, "CFRunLoopRemoveTimer")
    FIND_CF(cf_timer_next_fire, "CFRunLoopTimerGetNextFireDate")
    FIND_CF(cf_timer_interval, "CFRunLoopTimerGetInterval")
    FIND_CF(cf_timer_set_next_fire, "CFRunLoopTimerSetNextFireDate")
    FIND_CF(cf_timer_is_valid, "CFRunLoopTimerIsValid")
    FIND_CF(cf_equal, "CFEqual")
    FIND_CF(cf_current_loop, "CFRunLoopGetCurrent")
    FIND_CF(cf_main_loop, "CFRunLoopGetMain")
    FIND_CF(cf_run_in_mode, "CFRunLoopRunInMode")
    FIND_CF(cf_now, "CFAbsoluteTimeGetCurrent")
    FIND_CF(cf_retain, "CFRetain")
    FIND_CF(cf_release, "CFRelease")
    FIND_CF(cf_common_modes, "kCFRunLoopCommonModes")
    FIND_CF(cf_default_mode, "kCFRunLoopDefaultMode")
    FIND_CF(cf_is_main_thread, "_CFIsMainThread")
#undef FIND_CF
    cf_main_found = real.cf_is_main_thread != NULL;
    cf_timers_found = real.cf_add_timer && real.cf_remove_timer && real.cf_timer_next_fire && real.cf_timer_interval &&
                      real.cf_timer_set_next_fire && real.cf_timer_is_valid && real.cf_equal && real.cf_current_loop && real.cf_main_loop &&
                      real.cf_run_in_mode && real.cf_now && real.cf_retain && real.cf_release && real.cf_common_modes &&
                      real.cf_default_mode;
    // Every QoS class, with and without overcommit.
    const intptr_t classes[] = {0x21, 0x19, 0x15, 0x11, 0x09, 0x05, 0x00, 2, 0, -2, -32768};
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        for (uintptr_t flags = 0; flags <= 2; flags += 2) {
            void *queue = real.get_global_queue(classes[i], flags);
            int known = 0;
            for (int k = 0; k < global_queue_count; k++) known |= global_queues[k] == queue;
            if (queue && !known && global_queue_count < 32) global_queues[global_queue_count++] = queue;
        }
    }
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int install_result = -1;

static void install_once(void) {
    if (find_real() != 0) return;
    dl_iterate_phdr(rebind_object, NULL);
    install_result = dispatch_slots > 0 ? 0 : -2;
}

int ssdc_install(const ssdc_handlers *new_handlers) {
    // Handlers are set before any slot points at them, and never change after.
    if (!handlers.async) handlers = *new_handlers;
    pthread_once(&once, install_once);
    return install_result;
}

void ssdc_real_sync_f(void *queue, void *context, void (*work)(void *)) { real.sync_f(queue, context, work); }
void ssdc_real_group_enter(void *group) { real.group_enter(group); }
void ssdc_real_group_leave(void *group) { real.group_leave(group); }
long ssdc_real_group_wait(void *group, uint64_t timeout) { return real.group_wait(group, timeout); }
long ssdc_real_semaphore_wait(void *semaphore, uint64_t timeout) { return real.semaphore_wait(semaphore, timeout); }
long ssdc_real_block_wait(void *block, uint64_t timeout) { return real.block_wait(block, timeout); }
void ssdc_retain(void *object) { real.retain(object); }
void ssdc_release(void *object) { real.release(object); }
const char *ssdc_queue_label(void *queue) { return real.queue_get_label(queue); }
void *ssdc_queue_get_specific(void *queue, const void *key) { return real.queue_get_specific(queue, key); }
void *ssdc_main_queue(void) { return real.main_queue; }
void *ssdc_default_queue(void) { return real.get_global_queue(0, 0); }
void *ssdc_timer_source_type(void) { return real.timer_type; }

static const char *transfer_string(void *easy, int info) {
    const char *value = NULL;
    if (!real.curl_easy_getinfo || real.curl_easy_getinfo(easy, info, &value) != 0) return NULL;
    return value;
}
double ssdc_timer_next_fire(void *timer) { return real.cf_timer_next_fire(timer); }
double ssdc_timer_interval(void *timer) { return real.cf_timer_interval(timer); }
int ssdc_timer_is_valid(void *timer) { return real.cf_timer_is_valid(timer) != 0; }
double ssdc_absolute_now(void) { return real.cf_now(); }
void ssdc_cf_retain(void *object) { real.cf_retain(object); }
void ssdc_cf_release(void *object) { real.cf_release(object); }

void ssdc_timer_fire(void *timer, void *mode) {
    // Due now on this thread's run loop, for one pass of it, then off it again: the pass is
    // CoreFoundation's own way to call the timer.
    void *loop = real.cf_current_loop();
    real.cf_timer_set_next_fire(timer, real.cf_now() - 1);
    real.cf_add_timer(loop, timer, mode);
    void *pass = real.cf_equal(mode, *real.cf_common_modes) ? *real.cf_default_mode : mode;
    real.cf_run_in_mode(pass, 0, 1);
    real.cf_remove_timer(loop, timer, mode);
}

// CURLINFO_STRING + 58 and + 1.
const char *ssdc_transfer_method(void *easy) { return transfer_string(easy, 0x100000 + 58); }
const char *ssdc_transfer_url(void *easy) { return transfer_string(easy, 0x100000 + 1); }

int ssdc_is_global_queue(void *queue) {
    for (int i = 0; i < global_queue_count; i++) {
        if (global_queues[i] == queue) return 1;
    }
    return 0;
}

// A queue's class is the first word of the object (libdispatch's `do_vtable`); a queue made
// concurrent has the class of one made so for the purpose, kept for the process.
static void *concurrent_class;
static pthread_once_t concurrent_class_once = PTHREAD_ONCE_INIT;

static void find_concurrent_class(void) {
    void *attribute = dlsym(RTLD_DEFAULT, "_dispatch_queue_attr_concurrent");
    void *probe = attribute && real.queue_create ? real.queue_create("ssdc.concurrent-class", attribute) : NULL;
    if (probe) concurrent_class = *(void **)probe;
}

int ssdc_is_concurrent_queue(void *queue) {
    if (!queue) return 0;
    pthread_once(&concurrent_class_once, find_concurrent_class);
    return concurrent_class && *(void **)queue == concurrent_class;
}

int64_t ssdc_nanoseconds_until(uint64_t when) {
    const uint64_t forever = ~0ull, wall_now = ~1ull, wall_mask = 1ull << 63, monotonic_mask = 1ull << 62;
    if (when == 0 || when == wall_now) return 0;
    if (when == forever) return INT64_MAX;
    if (when & wall_mask) {
        int64_t target = -(int64_t)when, now = -(int64_t)real.walltime(NULL, 0);
        return target - now;
    }
    if (when & monotonic_mask) return (int64_t)(when & ~monotonic_mask) - real_nanoseconds(CLOCK_BOOTTIME);
    return (int64_t)(when - real.time(0, 0));
}

// MARK: - Blocks

struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *);
};

void *ssdc_block_copy(void *block) { return real.block_copy(block); }
void ssdc_block_release(void *block) { real.block_release(block); }
void ssdc_block_invoke(void *block) { ((struct block_layout *)block)->invoke(block); }

#else

int ssdc_install(const ssdc_handlers *handlers) {
    (void)handlers;
    return -1;
}
void ssdc_real_sync_f(void *queue, void *context, void (*work)(void *)) { work(context); }
void ssdc_real_group_enter(void *group) {}
void ssdc_real_group_leave(void *group) {}
long ssdc_real_group_wait(void *group, uint64_t timeout) { return 0; }
long ssdc_real_semaphore_wait(void *semaphore, uint64_t timeout) { return 0; }
long ssdc_real_block_wait(void *block, uint64_t timeout) { return 0; }
void ssdc_retain(void *object) {}
void ssdc_release(void *object) {}
const char *ssdc_queue_label(void *queue) { return ""; }
void *ssdc_queue_get_specific(void *queue, const void *key) { return 0; }
void *ssdc_main_queue(void) { return 0; }
void *ssdc_default_queue(void) { return 0; }
void *ssdc_timer_source_type(void) { return 0; }
int ssdc_is_global_queue(void *queue) { return 0; }
int ssdc_is_concurrent_queue(void *queue) { return 0; }
const char *ssdc_transfer_method(void *easy) { return 0; }
const char *ssdc_transfer_url(void *easy) { return 0; }
void ssdc_virtual_clocks_begin(int64_t (*elapsed)(void), int64_t wall_start) {
    (void)elapsed;
    (void)wall_start;
}
void ssdc_virtual_clocks_end(void) {}
void *ssdc_virtual_clocks_suspend(void) { return 0; }
void ssdc_virtual_clocks_resume(void *elapsed) { (void)elapsed; }
int ssdc_virtual_clocks_available(void) { return 0; }
int ssdc_virtual_dates_available(void) { return 0; }
int ssdc_virtual_waits_available(void) { return 0; }
int ssdc_virtual_program_sleeps_available(void) { return 0; }
int ssdc_program_defines_sleeps(void) { return 0; }
int ssdc_main_thread_available(void) { return 0; }
int ssdc_connection_guard_available(void) { return 0; }
double ssdc_timer_next_fire(void *timer) { return 0; }
double ssdc_timer_interval(void *timer) { return 0; }
int ssdc_timer_is_valid(void *timer) { return 0; }
double ssdc_absolute_now(void) { return 0; }
void ssdc_cf_retain(void *object) {}
void ssdc_cf_release(void *object) {}
void ssdc_timer_fire(void *timer, void *mode) {}
int64_t ssdc_nanoseconds_until(uint64_t when) { return 0; }
void *ssdc_block_copy(void *block) { return block; }
void ssdc_block_release(void *block) {}
void ssdc_block_invoke(void *block) {}

#endif
