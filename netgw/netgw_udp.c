/* netgw_udp.c -- a gateway's view of the client table's addresses and its sends: text
 * messages go out with their terminating NUL (every datagram the reference sends is
 * NUL-terminated), compressed for a client that asked for it (netgw_zlib.c); a full
 * socket buffer drops the message rather than block the loop.
 * Sockets themselves come from common/net.c. */
#include <string.h>
#include "net.h"
#include "netgw.h"

void ngw_udp_send(int fd, const char *text)
{
    static unsigned char z[NGW_SEND_MAX + 1024];
    size_t n = strlen(text) + 1;
    /* ECONNREFUSED after the client went away, EAGAIN on a full buffer: dropped */
    if (ngw_zlib_level(fd) >= 0) { /* (compression N): zlib data, NUL included */
        int zn = ngw_zlib_deflate(fd, text, n, z, sizeof z);
        if (zn > 0)
            (void)net_udp_send(fd, z, (size_t)zn);
        return;
    }
    (void)net_udp_send(fd, text, n);
}

void ngw_udp_sendto(int fd, const struct sockaddr_storage *to, const char *text)
{
    (void)net_udp_sendto(fd, to, text, strlen(text) + 1);
}

void ngw_addr_to_entry(const struct sockaddr_storage *a, shm_client_sh_t *e)
{
    net_addr_pack(a, e->addr, &e->family, &e->port);
}

void ngw_entry_to_addr(const shm_client_sh_t *e, struct sockaddr_storage *a)
{
    net_addr_unpack(e->addr, e->family, e->port, a);
}

int ngw_addr_equal_entry(const struct sockaddr_storage *a, const shm_client_sh_t *e)
{
    uint8_t addr[16];
    int32_t family;
    uint16_t port;
    net_addr_pack(a, addr, &family, &port);
    return family == e->family && port == e->port && memcmp(addr, e->addr, sizeof addr) == 0;
}
