// The network guard: nothing a scenario runs reaches the network. FoundationNetworking's one
// call that starts a libcurl transfer (`curl_multi_add_handle`) goes to the engine, so a request
// from a session that does not route to the scenario is held back before libcurl opens a socket;
// the program's own `connect` and `getaddrinfo` (a client that is not URLSession: SwiftNIO,
// AsyncHTTPClient, a socket) are refused for any address away from this machine.

#include "RuntimeHooksInternal.h"

#ifdef SSDC_ELF

int ssdc_transfers_rebound, ssdc_connections_rebound;

static int my_curl_multi_add_handle(void *multi, void *easy) {
    if (ssdc_handler.transfer(easy)) return 0;  // CURLM_OK: FoundationNetworking treats anything else as fatal.
    return ssdc_real.curl_multi_add_handle(multi, easy);
}

struct rebinding ssdc_transfer_rebindings[] = {
    {"curl_multi_add_handle", (void *)my_curl_multi_add_handle, &ssdc_transfers_rebound, &ssdc_curl_found},
    {NULL, NULL, NULL, NULL},
};

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
    if (ssdc_handler.connection && describe_remote(address, length, destination, sizeof destination) && ssdc_handler.connection(destination)) {
        errno = ECONNREFUSED;
        return -1;
    }
    return ssdc_real.connect(socket, address, length);
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
    if (node && ssdc_handler.connection && !is_local_name(node) && ssdc_handler.connection(node)) return EAI_FAIL;
    return ssdc_real.getaddrinfo(node, service, hints, result);
}

struct rebinding ssdc_program_connection_rebindings[] = {
    {"connect", (void *)my_connect, &ssdc_connections_rebound, NULL},
    {"getaddrinfo", (void *)my_getaddrinfo, &ssdc_connections_rebound, NULL},
    {NULL, NULL, NULL, NULL},
};

int ssdc_connection_guard_available(void) { return ssdc_connections_rebound; }

static const char *transfer_string(void *easy, int info) {
    const char *value = NULL;
    if (!ssdc_real.curl_easy_getinfo || ssdc_real.curl_easy_getinfo(easy, info, &value) != 0) return NULL;
    return value;
}

// CURLINFO_STRING + 58 and + 1.
const char *ssdc_transfer_method(void *easy) { return transfer_string(easy, 0x100000 + 58); }
const char *ssdc_transfer_url(void *easy) { return transfer_string(easy, 0x100000 + 1); }

#endif
