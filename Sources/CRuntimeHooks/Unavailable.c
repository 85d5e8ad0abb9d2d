// Where the offset tables cannot be rewritten (not Linux on x86-64 or arm64): every hook reports
// itself unavailable and every call to the real functions does nothing, so the engine falls back
// to capturing Swift concurrency and URLSession only (README, "Platforms").

#include "RuntimeHooksInternal.h"

#ifndef SSDC_ELF

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
long ssdc_scenario_threads_alive(void) { return 0; }
int ssdc_thread_count_available(void) { return 0; }
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
