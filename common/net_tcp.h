/* net_tcp.h -- TCP sockets of the 3D server: the listening ports of its gateways (agents
 * 3100, monitors 12001) and the connecting side of its clients (sample agent, tests).
 * Errors go to err; never logs. */
#ifndef RCSS_NET_TCP_H
#define RCSS_NET_TCP_H

#include <stddef.h>

/* Listening socket on bind_address:port ("" = all interfaces), SO_REUSEADDR,
 * non-blocking, close-on-exec. fd or -1 with err. */
int net_tcp_listen(const char *bind_address, int port, int backlog, char *err, size_t errlen);
/* Blocking connect to host (numeric IPv4/IPv6) : port, TCP_NODELAY set. fd or -1 with err. */
int net_tcp_connect(const char *host, int port, char *err, size_t errlen);

#endif
