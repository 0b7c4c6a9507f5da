/* net.h -- UDP sockets and addresses shared by the gateways: bind a listening port
 * (optionally shared with SO_REUSEPORT), open a socket connected to one peer (the "own
 * port" the reference answers clients and monitors from), send without blocking, and
 * pack/unpack addresses to the fixed fields of the shm tables. Errors go to err. */
#ifndef RCSS_NET_H
#define RCSS_NET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* UDP socket bound to addr:port (bind_address "" = all interfaces); reuseport shares it
 * with other processes and marks a listening port, which gets a receive buffer of
 * NET_LISTEN_RCVBUF bytes (SO_RCVBUFFORCE when allowed, else up to net.core.rmem_max).
 * Non-blocking, close-on-exec. fd or -1 with err. */
#define NET_LISTEN_RCVBUF (4 << 20)
int  net_udp_bind(const char *bind_address, int port, int reuseport, char *err, size_t errlen);
/* Socket bound to bind_address on local_port (0 = ephemeral, else a port a previous
 * process used) and connected to peer. fd or -1 with err. */
int  net_udp_connected(const char *bind_address, int local_port,
                       const struct sockaddr_storage *peer, char *err, size_t errlen);
/* Port a socket is bound to, 0 on error. */
int  net_udp_local_port(int fd);
/* Send len bytes on a connected socket / to an address; never blocks.
 * Returns 0 sent, 1 dropped (buffer full), -1 error (errno kept: ECONNREFUSED = gone). */
int  net_udp_send(int fd, const void *data, size_t len);
int  net_udp_sendto(int fd, const struct sockaddr_storage *to, const void *data, size_t len);

/* An IPv4/IPv6 address as the shm tables keep it: 16 address bytes (IPv4 in the first 4,
 * network order), family, port in host order. */
void net_addr_pack(const struct sockaddr_storage *a, uint8_t addr[16], int32_t *family,
                   uint16_t *port);
void net_addr_unpack(const uint8_t addr[16], int32_t family, uint16_t port,
                     struct sockaddr_storage *a);

/* bind_address:port as a socket address ("" = all interfaces). 0 or -1 with err. */
int  net_addr_resolve(const char *bind_address, int port, struct sockaddr_storage *ss,
                      socklen_t *sl, char *err, size_t errlen);

#endif
