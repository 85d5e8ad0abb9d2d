// Dispatch: every `DispatchQueue`, `DispatchGroup`, `DispatchSource`, `DispatchSemaphore` and
// `DispatchWorkItem` call of Swift code. On Linux, Swift's Dispatch module (libswiftDispatch.so)
// calls libdispatch through its global offset table; its slots are rewritten (Rebinding.c) to the
// replacements here, which hand each call to the engine's ssdc_handler and send on what they do not
// take, so a scenario owns the stack's Dispatch work without touching libdispatch or the app.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

void *ssdc_global_queues[32];
int ssdc_global_queue_count;

// MARK: - Replacements

static void my_async(void *q, void *b) {
    if (!ssdc_handler.async(q, b, NULL, 0)) ssdc_real.async(q, b);
}
static void my_barrier_async(void *q, void *b) {
    if (!ssdc_handler.async(q, b, NULL, 1)) ssdc_real.barrier_async(q, b);
}
static void my_group_async(void *g, void *q, void *b) {
    if (!ssdc_handler.async(q, b, g, 0)) ssdc_real.group_async(g, q, b);
}
static void my_after(uint64_t when, void *q, void *b) {
    if (!ssdc_handler.after(when, q, b)) ssdc_real.after(when, q, b);
}
static void my_sync(void *q, void *b) {
    if (!ssdc_handler.sync(q, b, 0)) ssdc_real.sync(q, b);
}
static void my_barrier_sync(void *q, void *b) {
    if (!ssdc_handler.sync(q, b, 1)) ssdc_real.barrier_sync(q, b);
}
static void my_group_notify(void *g, void *q, void *b) {
    if (!ssdc_handler.group_notify(g, q, b)) ssdc_real.group_notify(g, q, b);
}
static long my_group_wait(void *g, uint64_t timeout) {
    long result = 0;
    if (ssdc_handler.wait(g, timeout, 0, &result)) return result;
    return ssdc_real.group_wait(g, timeout);
}
static long my_semaphore_wait(void *s, uint64_t timeout) {
    long result = 0;
    if (ssdc_handler.wait(s, timeout, 1, &result)) return result;
    return ssdc_real.semaphore_wait(s, timeout);
}
static void my_block_notify(void *b, void *q, void *notification) {
    if (!ssdc_handler.block_notify(b, q, notification)) ssdc_real.block_notify(b, q, notification);
}
static long my_block_wait(void *b, uint64_t timeout) {
    long result = 0;
    if (ssdc_handler.wait(b, timeout, 2, &result)) return result;
    return ssdc_real.block_wait(b, timeout);
}
static void *my_source_create(void *type, uintptr_t handle, uintptr_t mask, void *q) {
    void *source = ssdc_real.source_create(type, handle, mask, q);
    if (source) ssdc_handler.source_created(source, type, q);
    return source;
}
static void my_source_set_timer(void *s, uint64_t start, uint64_t interval, uint64_t leeway) {
    if (!ssdc_handler.source_set_timer(s, start, interval, leeway)) ssdc_real.source_set_timer(s, start, interval, leeway);
}
static void my_source_set_event_handler(void *s, void *b) {
    ssdc_handler.source_set_event_handler(s, b);
    ssdc_real.source_set_event_handler(s, b);
}
static void my_resume(void *o) {
    ssdc_handler.state_changed(o, 0);
    ssdc_real.resume(o);
}
static void my_activate(void *o) {
    ssdc_handler.state_changed(o, 1);
    ssdc_real.activate(o);
}
static void my_suspend(void *o) {
    ssdc_handler.state_changed(o, 2);
    ssdc_real.suspend(o);
}
static void my_source_cancel(void *o) {
    ssdc_handler.state_changed(o, 3);
    ssdc_real.source_cancel(o);
}
static void my_assert_queue(void *q) {
    if (!ssdc_handler.assert_queue(q, 0)) ssdc_real.assert_queue(q);
}
static void my_assert_queue_not(void *q) {
    if (!ssdc_handler.assert_queue(q, 1)) ssdc_real.assert_queue_not(q);
}
static void my_assert_queue_barrier(void *q) {
    if (!ssdc_handler.assert_queue(q, 2)) ssdc_real.assert_queue_barrier(q);
}
static void *my_get_specific(const void *key) {
    void *value = NULL;
    if (ssdc_handler.get_specific(key, &value)) return value;
    return ssdc_real.get_specific(key);
}

static void *my_queue_create(const char *label, void *attr) {
    void *queue = ssdc_real.queue_create(label, attr);
    if (queue) ssdc_handler.targeted(queue, NULL, 1);
    return queue;
}
static void *my_queue_create_with_target(const char *label, void *attr, void *target) {
    void *queue = ssdc_real.queue_create_with_target(label, attr, target);
    if (queue) ssdc_handler.targeted(queue, target, 1);
    return queue;
}
static void my_set_target_queue(void *object, void *target) {
    ssdc_handler.targeted(object, target, 0);
    ssdc_real.set_target_queue(object, target);
}

struct rebinding ssdc_dispatch_rebindings[] = {
    {"dispatch_async", (void *)my_async, &ssdc_dispatch_slots, NULL},
    {"dispatch_barrier_async", (void *)my_barrier_async, &ssdc_dispatch_slots, NULL},
    {"dispatch_group_async", (void *)my_group_async, &ssdc_dispatch_slots, NULL},
    {"dispatch_after", (void *)my_after, &ssdc_dispatch_slots, NULL},
    {"dispatch_sync", (void *)my_sync, &ssdc_dispatch_slots, NULL},
    {"dispatch_barrier_sync", (void *)my_barrier_sync, &ssdc_dispatch_slots, NULL},
    {"dispatch_group_notify", (void *)my_group_notify, &ssdc_dispatch_slots, NULL},
    {"dispatch_group_wait", (void *)my_group_wait, &ssdc_dispatch_slots, NULL},
    {"dispatch_semaphore_wait", (void *)my_semaphore_wait, &ssdc_dispatch_slots, NULL},
    {"dispatch_block_notify", (void *)my_block_notify, &ssdc_dispatch_slots, NULL},
    {"dispatch_block_wait", (void *)my_block_wait, &ssdc_dispatch_slots, NULL},
    {"dispatch_source_create", (void *)my_source_create, &ssdc_dispatch_slots, NULL},
    {"dispatch_source_set_timer", (void *)my_source_set_timer, &ssdc_dispatch_slots, NULL},
    {"dispatch_source_set_event_handler", (void *)my_source_set_event_handler, &ssdc_dispatch_slots, NULL},
    {"dispatch_resume", (void *)my_resume, &ssdc_dispatch_slots, NULL},
    {"dispatch_activate", (void *)my_activate, &ssdc_dispatch_slots, NULL},
    {"dispatch_suspend", (void *)my_suspend, &ssdc_dispatch_slots, NULL},
    {"dispatch_source_cancel", (void *)my_source_cancel, &ssdc_dispatch_slots, NULL},
    {"dispatch_assert_queue", (void *)my_assert_queue, &ssdc_dispatch_slots, NULL},
    {"dispatch_assert_queue_not", (void *)my_assert_queue_not, &ssdc_dispatch_slots, NULL},
    {"dispatch_assert_queue_barrier", (void *)my_assert_queue_barrier, &ssdc_dispatch_slots, NULL},
    {"dispatch_get_specific", (void *)my_get_specific, &ssdc_dispatch_slots, NULL},
    {"dispatch_queue_create", (void *)my_queue_create, &ssdc_dispatch_slots, NULL},
    {"dispatch_queue_create_with_target", (void *)my_queue_create_with_target, &ssdc_dispatch_slots, NULL},
    {"dispatch_set_target_queue", (void *)my_set_target_queue, &ssdc_dispatch_slots, NULL},
    {NULL, NULL, NULL, NULL},
};

// MARK: - What the engine asks of libdispatch itself

void ssdc_real_sync_f(void *queue, void *context, void (*work)(void *)) { ssdc_real.sync_f(queue, context, work); }
void ssdc_real_group_enter(void *group) { ssdc_real.group_enter(group); }
void ssdc_real_group_leave(void *group) { ssdc_real.group_leave(group); }
long ssdc_real_group_wait(void *group, uint64_t timeout) { return ssdc_real.group_wait(group, timeout); }
long ssdc_real_semaphore_wait(void *semaphore, uint64_t timeout) { return ssdc_real.semaphore_wait(semaphore, timeout); }
long ssdc_real_block_wait(void *block, uint64_t timeout) { return ssdc_real.block_wait(block, timeout); }
void ssdc_retain(void *object) { ssdc_real.retain(object); }
void ssdc_release(void *object) { ssdc_real.release(object); }
const char *ssdc_queue_label(void *queue) { return ssdc_real.queue_get_label(queue); }
void *ssdc_queue_get_specific(void *queue, const void *key) { return ssdc_real.queue_get_specific(queue, key); }
void *ssdc_main_queue(void) { return ssdc_real.main_queue; }
void *ssdc_default_queue(void) { return ssdc_real.get_global_queue(0, 0); }
void *ssdc_timer_source_type(void) { return ssdc_real.timer_type; }

int ssdc_is_global_queue(void *queue) {
    for (int i = 0; i < ssdc_global_queue_count; i++) {
        if (ssdc_global_queues[i] == queue) return 1;
    }
    return 0;
}

// A queue's class is the first word of the object (libdispatch's `do_vtable`); a queue made
// concurrent has the class of one made so for the purpose, kept for the process.
static void *concurrent_class;
static pthread_once_t concurrent_class_once = PTHREAD_ONCE_INIT;

static void find_concurrent_class(void) {
    void *attribute = dlsym(RTLD_DEFAULT, "_dispatch_queue_attr_concurrent");
    void *probe = attribute && ssdc_real.queue_create ? ssdc_real.queue_create("ssdc.concurrent-class", attribute) : NULL;
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
        int64_t target = -(int64_t)when, now = -(int64_t)ssdc_real.walltime(NULL, 0);
        return target - now;
    }
    if (when & monotonic_mask) return (int64_t)(when & ~monotonic_mask) - ssdc_real_nanoseconds(CLOCK_BOOTTIME);
    return (int64_t)(when - ssdc_real.time(0, 0));
}

// MARK: - Blocks

struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *);
};

void *ssdc_block_copy(void *block) { return ssdc_real.block_copy(block); }
void ssdc_block_release(void *block) { ssdc_real.block_release(block); }
void ssdc_block_invoke(void *block) { ((struct block_layout *)block)->invoke(block); }

#endif
