// Rewrites the global offset tables of the libraries a Swift program calls through (as fishhook
// does for Mach-O) so their calls reach the hooks of Dispatch.c, Time.c, NetworkGuard.c and
// RunLoopTimers.c, and finds the functions those slots held, which the hooks call on. Installed
// once per process; the ssdc_handler never change after.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

struct ssdc_real_functions ssdc_real;
ssdc_handlers ssdc_handler;
int ssdc_dispatch_slots, ssdc_curl_found, ssdc_cf_timers_found, ssdc_cf_main_found;

// A library whose calls are rewritten: how its path ends (empty: the program itself) and the
// tables of slots to rewrite in it.
struct library {
    const char *suffix;
    struct rebinding *tables[4];
};

static const struct library libraries[] = {
    {"/libswiftDispatch.so", {ssdc_dispatch_rebindings}},
    {"/libswift_Concurrency.so", {ssdc_concurrency_clock_rebindings}},
    {"/libFoundationNetworking.so", {ssdc_transfer_rebindings}},
    {"/libFoundationEssentials.so", {ssdc_wall_clock_rebindings}},
    {"/libFoundation.so", {ssdc_wall_clock_rebindings, ssdc_foundation_wait_rebindings, ssdc_run_loop_rebindings, ssdc_thread_rebindings}},
    // The program itself, which the loader lists without a name.
    {"", {ssdc_program_sleep_rebindings, ssdc_program_connection_rebindings, ssdc_thread_rebindings}},
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
        const struct rebinding *found = NULL;
        for (size_t t = 0; t < 4 && library->tables[t] && !found; t++) {
            for (const struct rebinding *entry = library->tables[t]; entry->name && !found; entry++) {
                if (strcmp(name, entry->name) == 0) found = entry;
            }
        }
        if (!found || (found->requires && !*found->requires)) continue;
        if (write_slot((void **)(base + relocations[i].r_offset), found->replacement, relro_start, relro_end)) (*found->rebound)++;
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
    if (!(*(void **)&ssdc_real.field = dlsym(dispatch, name))) return -1;
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
    FIND(pthread_create, "pthread_create")
#undef FIND
    *(void **)&ssdc_real.block_copy = dlsym(blocks, "_Block_copy");
    *(void **)&ssdc_real.block_release = dlsym(blocks, "_Block_release");
    if (!ssdc_real.block_copy || !ssdc_real.block_release) return -1;
    // Present only where FoundationNetworking (and so libcurl) is loaded.
    *(void **)&ssdc_real.curl_multi_add_handle = dlsym(RTLD_DEFAULT, "curl_multi_add_handle");
    *(void **)&ssdc_real.curl_easy_getinfo = dlsym(RTLD_DEFAULT, "curl_easy_getinfo");
    ssdc_curl_found = ssdc_real.curl_multi_add_handle != NULL;
#define FIND_CF(field, name) *(void **)&ssdc_real.field = dlsym(RTLD_DEFAULT, name);
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
    ssdc_cf_main_found = ssdc_real.cf_is_main_thread != NULL;
    ssdc_cf_timers_found = ssdc_real.cf_add_timer && ssdc_real.cf_remove_timer && ssdc_real.cf_timer_next_fire && ssdc_real.cf_timer_interval &&
                      ssdc_real.cf_timer_set_next_fire && ssdc_real.cf_timer_is_valid && ssdc_real.cf_equal && ssdc_real.cf_current_loop && ssdc_real.cf_main_loop &&
                      ssdc_real.cf_run_in_mode && ssdc_real.cf_now && ssdc_real.cf_retain && ssdc_real.cf_release && ssdc_real.cf_common_modes &&
                      ssdc_real.cf_default_mode;
    // Every QoS class, with and without overcommit.
    const intptr_t classes[] = {0x21, 0x19, 0x15, 0x11, 0x09, 0x05, 0x00, 2, 0, -2, -32768};
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        for (uintptr_t flags = 0; flags <= 2; flags += 2) {
            void *queue = ssdc_real.get_global_queue(classes[i], flags);
            int known = 0;
            for (int k = 0; k < ssdc_global_queue_count; k++) known |= ssdc_global_queues[k] == queue;
            if (queue && !known && ssdc_global_queue_count < 32) ssdc_global_queues[ssdc_global_queue_count++] = queue;
        }
    }
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int install_result = -1;

static void install_once(void) {
    if (find_real() != 0) return;
    dl_iterate_phdr(rebind_object, NULL);
    install_result = ssdc_dispatch_slots > 0 ? 0 : -2;
}

int ssdc_install(const ssdc_handlers *new_handlers) {
    // Handlers are set before any slot points at them, and never change after.
    if (!ssdc_handler.async) ssdc_handler = *new_handlers;
    pthread_once(&once, install_once);
    return install_result;
}

#endif
