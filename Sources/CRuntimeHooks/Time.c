// Time on a runner thread: `clock_gettime` as Swift Concurrency calls it (ContinuousClock,
// SuspendingClock, Task.sleep's deadlines), Foundation's wall clock (`Date()`,
// `CFAbsoluteTimeGetCurrent`, `gettimeofday`, `time`), `Thread.sleep` and the program's own
// sleeps, and condition waits read and move the scenario's virtual clock there. So a deadline a
// stack computes is exact and an hour of app time takes no real time. Dispatch's clock stays
// real: a DispatchTime can reach libdispatch itself (a timer source the scenario does not own),
// where a virtual instant would fire at the wrong time. Elsewhere every call is the real one.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

int ssdc_clocks_rebound, ssdc_dates_rebound, ssdc_waits_rebound, ssdc_program_sleeps_rebound;

// MARK: - Virtual clocks on a runner thread

// Set on a runner thread while its scenario runs: the real readings the virtual clock starts
// from, and the function that gives the virtual time elapsed since (nanoseconds).
__thread int64_t (*ssdc_virtual_elapsed)(void);
static __thread int64_t anchor_monotonic, anchor_boottime, anchor_monotonic_raw;
// The scenario's start on the wall clock (nanoseconds since 1970): a runner's `Date()` is the
// scenario's clock, the instant its `given.clock.start` names plus the virtual time elapsed.
static __thread int64_t anchor_wall;
// Virtual time the runner's `Thread.sleep`s took: Foundation's monotonic readings run ahead of
// the real clock by it, so the sleep loop, which counts on them, sees its end and stops.
static __thread int64_t slept_ahead;

int64_t ssdc_real_nanoseconds(clockid_t clock) {
    struct timespec spec;
    clock_gettime(clock, &spec);
    return (int64_t)spec.tv_sec * 1000000000 + spec.tv_nsec;
}

static int my_clock_gettime(clockid_t clock, struct timespec *spec) {
    int64_t (*elapsed)(void) = ssdc_virtual_elapsed;
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
    int64_t (*elapsed)(void) = ssdc_virtual_elapsed;
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
    int64_t ahead = ssdc_virtual_elapsed ? slept_ahead : 0;
    if (result != 0 || ahead == 0) return result;
    int64_t now = (int64_t)spec->tv_sec * 1000000000 + spec->tv_nsec + ahead;
    spec->tv_sec = now / 1000000000;
    spec->tv_nsec = now % 1000000000;
    return 0;
}

// A sleep on a runner (`Thread.sleep`, or `usleep`, `sleep`, `nanosleep` from the program's own
// code): the scenario sleeps on virtual time, running its other work meanwhile. Returns whether
// it did; elsewhere the caller sleeps for ssdc_real.
static int slept_virtually(int64_t nanoseconds) {
    int64_t (*elapsed)(void) = ssdc_virtual_elapsed;
    if (!elapsed) return 0;
    int64_t before = elapsed();
    if (!ssdc_handler.sleep(nanoseconds)) return 0;
    slept_ahead += elapsed() - before;
    return 1;
}

// Longer than a century is forever: clamped, so the nanoseconds fit.
static const int64_t century_seconds = 3155760000;

static int my_nanosleep(const struct timespec *request, struct timespec *remaining) {
    if (!request || request->tv_sec < 0 || request->tv_nsec < 0 || request->tv_nsec >= 1000000000) return ssdc_real.nanosleep(request, remaining);
    int64_t nanoseconds = request->tv_sec >= century_seconds ? century_seconds * 1000000000 : (int64_t)request->tv_sec * 1000000000 + request->tv_nsec;
    if (!slept_virtually(nanoseconds)) return ssdc_real.nanosleep(request, remaining);
    if (remaining) remaining->tv_sec = remaining->tv_nsec = 0;
    return 0;
}

static int my_usleep(useconds_t microseconds) { return slept_virtually((int64_t)microseconds * 1000) ? 0 : ssdc_real.usleep(microseconds); }

static unsigned my_sleep(unsigned seconds) {
    int64_t clamped = seconds >= century_seconds ? century_seconds : (int64_t)seconds;
    return slept_virtually(clamped * 1000000000) ? 0 : ssdc_real.sleep(seconds);
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
// again. Only when nothing in the scenario can signal it does the thread wait for ssdc_real.
static int step_unlocked(pthread_mutex_t *mutex, int64_t limit) {
    pthread_mutex_unlock(mutex);
    int step = ssdc_handler.blocked(limit);
    pthread_mutex_lock(mutex);
    return step;
}

static int my_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    if (!ssdc_virtual_elapsed) return pthread_cond_wait(cond, mutex);
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

void ssdc_virtual_clocks_begin(int64_t (*elapsed)(void), int64_t wall_start) {
    anchor_monotonic = ssdc_real_nanoseconds(CLOCK_MONOTONIC);
    anchor_boottime = ssdc_real_nanoseconds(CLOCK_BOOTTIME);
    anchor_monotonic_raw = ssdc_real_nanoseconds(CLOCK_MONOTONIC_RAW);
    anchor_wall = wall_start;
    slept_ahead = 0;
    ssdc_virtual_elapsed = elapsed;
}

void ssdc_virtual_clocks_end(void) { ssdc_virtual_elapsed = NULL; }

void *ssdc_virtual_clocks_suspend(void) {
    void *elapsed = (void *)ssdc_virtual_elapsed;
    ssdc_virtual_elapsed = NULL;
    return elapsed;
}

void ssdc_virtual_clocks_resume(void *elapsed) { ssdc_virtual_elapsed = (int64_t(*)(void))elapsed; }

int ssdc_virtual_clocks_available(void) { return ssdc_clocks_rebound; }

int ssdc_virtual_dates_available(void) { return ssdc_dates_rebound; }

int ssdc_virtual_waits_available(void) { return ssdc_waits_rebound; }

int ssdc_virtual_program_sleeps_available(void) { return ssdc_program_sleeps_rebound; }

// Whether the program's sleeps are defined in the same object as these hooks (a static link).
int ssdc_program_defines_sleeps(void) {
    Dl_info sleeps, capture;
    if (!ssdc_real.usleep || !dladdr((void *)ssdc_real.usleep, &sleeps) || !dladdr((void *)ssdc_install, &capture)) return 0;
    return sleeps.dli_fbase == capture.dli_fbase;
}

struct rebinding ssdc_concurrency_clock_rebindings[] = {
    {"clock_gettime", (void *)my_clock_gettime, &ssdc_clocks_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

// Foundation's wall clock, in both libraries that read it.
struct rebinding ssdc_wall_clock_rebindings[] = {
    {"clock_gettime", (void *)my_wall_clock_gettime, &ssdc_dates_rebound, NULL},
    {"gettimeofday", (void *)my_gettimeofday, &ssdc_dates_rebound, NULL},
    {"time", (void *)my_time, &ssdc_dates_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

// `Thread.sleep` and Foundation's condition waits (libFoundation).
struct rebinding ssdc_foundation_wait_rebindings[] = {
    {"nanosleep", (void *)my_nanosleep, &ssdc_waits_rebound, NULL},
    {"pthread_cond_wait", (void *)my_cond_wait, &ssdc_waits_rebound, NULL},
    {"pthread_cond_timedwait", (void *)my_cond_timedwait, &ssdc_waits_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

// The program's own sleeps (the stack's code is linked into it, in the CLI and in `swift test`).
struct rebinding ssdc_program_sleep_rebindings[] = {
    {"nanosleep", (void *)my_nanosleep, &ssdc_program_sleeps_rebound, NULL},
    {"usleep", (void *)my_usleep, &ssdc_program_sleeps_rebound, NULL},
    {"sleep", (void *)my_sleep, &ssdc_program_sleeps_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

#endif
