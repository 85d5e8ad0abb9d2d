// What the hook files share: the functions the rebound slots held before (`ssdc_real`), the
// engine's handlers (`ssdc_handler`), the tables of slots to rewrite and the runner thread's
// virtual clock. Private to the target: Swift sees CRuntimeHooks.h only.

#ifndef RUNTIME_HOOKS_INTERNAL_H
#define RUNTIME_HOOKS_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dl_iterate_phdr, RTLD_DEFAULT
#endif

#include "CRuntimeHooks.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define SSDC_ELF 1
#endif

#ifdef SSDC_ELF
#include <arpa/inet.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define SSDC_HIDDEN __attribute__((visibility("hidden")))

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
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);


struct ssdc_real_functions {
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
    // How threads start: the program's own and Foundation's `Thread` are counted.
    pthread_create_fn pthread_create;
};


SSDC_HIDDEN extern struct ssdc_real_functions ssdc_real;
SSDC_HIDDEN extern ssdc_handlers ssdc_handler;

// One slot to rewrite: the symbol a library calls and what it should call instead. A table of
// them ends with an entry whose name is NULL.
struct rebinding {
    const char *name;
    void *replacement;
    // Counts the slots rewritten.
    int *rebound;
    // Set when what the replacement calls was found; NULL: always there.
    const int *requires;
};

// The tables each hook file keeps, by the library whose calls they rewrite.
SSDC_HIDDEN extern struct rebinding ssdc_dispatch_rebindings[];           // libswiftDispatch
SSDC_HIDDEN extern struct rebinding ssdc_concurrency_clock_rebindings[];  // libswift_Concurrency
SSDC_HIDDEN extern struct rebinding ssdc_wall_clock_rebindings[];         // libFoundationEssentials, libFoundation
SSDC_HIDDEN extern struct rebinding ssdc_foundation_wait_rebindings[];    // libFoundation
SSDC_HIDDEN extern struct rebinding ssdc_run_loop_rebindings[];           // libFoundation
SSDC_HIDDEN extern struct rebinding ssdc_transfer_rebindings[];           // libFoundationNetworking
SSDC_HIDDEN extern struct rebinding ssdc_program_sleep_rebindings[];      // the program
SSDC_HIDDEN extern struct rebinding ssdc_program_connection_rebindings[]; // the program
SSDC_HIDDEN extern struct rebinding ssdc_thread_rebindings[];             // libFoundation, the program

// Slots rewritten per part: Dispatch's decide whether the capture is installed, the others only
// whether their part of it works.
SSDC_HIDDEN extern int ssdc_dispatch_slots, ssdc_clocks_rebound, ssdc_dates_rebound, ssdc_transfers_rebound;
SSDC_HIDDEN extern int ssdc_timers_rebound, ssdc_waits_rebound, ssdc_program_sleeps_rebound, ssdc_main_thread_rebound;
SSDC_HIDDEN extern int ssdc_connections_rebound, ssdc_threads_rebound;
// What the libcurl and CoreFoundation replacements call, found at installation.
SSDC_HIDDEN extern int ssdc_curl_found, ssdc_cf_timers_found, ssdc_cf_main_found;

// Dispatch's global queues, found at installation.
SSDC_HIDDEN extern void *ssdc_global_queues[32];
SSDC_HIDDEN extern int ssdc_global_queue_count;

// Set on a runner thread while its scenario runs: the virtual time elapsed since it began
// (nanoseconds); NULL elsewhere.
SSDC_HIDDEN extern __thread int64_t (*ssdc_virtual_elapsed)(void);
// A real clock's reading in nanoseconds.
SSDC_HIDDEN int64_t ssdc_real_nanoseconds(clockid_t clock);

#endif // SSDC_ELF
#endif // RUNTIME_HOOKS_INTERNAL_H
