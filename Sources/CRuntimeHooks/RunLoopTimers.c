// Run-loop timers and the main thread: a `Timer` joining a run loop (CoreFoundation's
// `CFRunLoopAddTimer`, in libFoundation on Linux) is handed to the engine, which fires it on the
// scenario's clock through ssdc_timer_fire; `Thread.isMainThread` (`_CFIsMainThread`) answers
// yes on a runner running main-queue work, as on iOS.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

int ssdc_timers_rebound, ssdc_main_thread_rebound;

// `Thread.isMainThread` on a runner running main-queue work (a main-queue block, a main-actor
// job): yes, as on iOS, so `assert(Thread.isMainThread)` holds and `OperationQueue.current` is
// the main queue (a `NotificationCenter` post to a main-queue observer then runs it inline).
static unsigned char my_cf_is_main_thread(void) {
    if (ssdc_virtual_elapsed && ssdc_handler.on_main()) return 1;
    return ssdc_real.cf_is_main_thread();
}

static void my_cf_add_timer(void *loop, void *timer, void *mode) {
    int which = loop == ssdc_real.cf_main_loop() ? SSDC_LOOP_MAIN : loop == ssdc_real.cf_current_loop() ? SSDC_LOOP_CURRENT : SSDC_LOOP_OTHER;
    if (!ssdc_handler.run_loop_timer(timer, mode, which)) ssdc_real.cf_add_timer(loop, timer, mode);
}

struct rebinding ssdc_run_loop_rebindings[] = {
    {"CFRunLoopAddTimer", (void *)my_cf_add_timer, &ssdc_timers_rebound, &ssdc_cf_timers_found},
    {"_CFIsMainThread", (void *)my_cf_is_main_thread, &ssdc_main_thread_rebound, &ssdc_cf_main_found},
    {NULL, NULL, NULL, NULL},
};

int ssdc_main_thread_available(void) { return ssdc_main_thread_rebound; }

double ssdc_timer_next_fire(void *timer) { return ssdc_real.cf_timer_next_fire(timer); }
double ssdc_timer_interval(void *timer) { return ssdc_real.cf_timer_interval(timer); }
int ssdc_timer_is_valid(void *timer) { return ssdc_real.cf_timer_is_valid(timer) != 0; }
double ssdc_absolute_now(void) { return ssdc_real.cf_now(); }
void ssdc_cf_retain(void *object) { ssdc_real.cf_retain(object); }
void ssdc_cf_release(void *object) { ssdc_real.cf_release(object); }

void ssdc_timer_fire(void *timer, void *mode) {
    // Due now on this thread's run loop, for one pass of it, then off it again: the pass is
    // CoreFoundation's own way to call the timer.
    void *loop = ssdc_real.cf_current_loop();
    ssdc_real.cf_timer_set_next_fire(timer, ssdc_real.cf_now() - 1);
    ssdc_real.cf_add_timer(loop, timer, mode);
    void *pass = ssdc_real.cf_equal(mode, *ssdc_real.cf_common_modes) ? *ssdc_real.cf_default_mode : mode;
    ssdc_real.cf_run_in_mode(pass, 0, 1);
    ssdc_real.cf_remove_timer(loop, timer, mode);
}

#endif
