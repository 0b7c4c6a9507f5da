/* netgw_conn.h -- the connection layer of rcss-netgw (conn/README.md): sends on the
 * clients' sockets and their batches (netgw_udp.c), per-client compression
 * (netgw_zlib.c), each served client's own socket and the world served (netgw_conn.c).
 * It calls nothing above it: what arrives on a client's socket goes up through the
 * ngw_ops_t the process sets. The gateway context (ngw_t) is netgw.h's. */
#ifndef RCSS_NETGW_CONN_H
#define RCSS_NETGW_CONN_H

#include <stddef.h>
#include <sys/socket.h>
#include "shm_layout.h"

#define NGW_DGRAM_MAX     8192      /* largest datagram read from a client */
#define NGW_SEND_MAX      16384     /* largest message built for a client */

typedef struct ngw ngw_t;

/* What the client sockets (netgw_conn.c) hand up to the sessions; netgw_main.c sets it,
 * so the connection layer calls nothing above it. */
typedef struct ngw_ops {
    /* one datagram (n > 0 bytes; buf has room for a NUL at n) of player / coach idx */
    void (*player_datagram)(ngw_t *g, int idx, char *buf, size_t n);
    void (*coach_datagram)(ngw_t *g, int idx, char *buf, size_t n);
    /* 1 while coach idx waits for the sim: its socket is not read until the coach side
     * resumes it (ngw_conn_resume) */
    int  (*coach_waiting)(const ngw_t *g, int idx);
    /* coach idx's port refused what was sent: it is gone */
    void (*coach_gone)(ngw_t *g, int idx);
} ngw_ops_t;

/* ---- netgw_udp.c (sockets: common/net.h) ---- */
/* Send text with its terminating NUL on a connected socket / to an address.
 * A full socket buffer drops the datagram (never blocks). */
void ngw_udp_send(int fd, const char *text);
/* The same with the length of text (without its NUL) known. */
void ngw_udp_send_len(int fd, const char *text, size_t len);
void ngw_udp_sendto(int fd, const struct sockaddr_storage *to, const char *text);
/* n bytes as they are (already compressed), like ngw_udp_send. */
void ngw_udp_send_raw(int fd, const void *data, size_t n);
/* Between begin and end, sends on client sockets are queued; end (and flush, which
 * keeps the batch open) gives each socket its queue in one sendmmsg, in order. */
void ngw_udp_batch_begin(void);
void ngw_udp_batch_flush(void);
/* fd's queue now, the rest stays queued (the batch stays open) */
void ngw_udp_batch_flush_fd(int fd);
void ngw_udp_batch_end(void);
/* Address <-> client-table fields. */
void ngw_addr_to_entry(const struct sockaddr_storage *a, shm_client_sh_t *e);
void ngw_entry_to_addr(const shm_client_sh_t *e, struct sockaddr_storage *a);
int  ngw_addr_equal_entry(const struct sockaddr_storage *a, const shm_client_sh_t *e);

/* ---- netgw_zlib.c: (compression N) per client socket ---- */
/* level 0..9 on, -1 off; 0 or -1 (no room for the socket, zlib failure). */
int  ngw_zlib_set(int fd, int level);
int  ngw_zlib_level(int fd);          /* -1 off */
void ngw_zlib_forget(int fd);         /* before the socket is closed */
/* One datagram to / from the client: length, or -1 (off, failure, garbage). */
int  ngw_zlib_deflate(int fd, const void *in, size_t n, void *out, size_t cap);
int  ngw_zlib_inflate(int fd, const void *in, size_t n, void *out, size_t cap);

/* ---- netgw_conn.c: each served client's own socket; the world served ---- */
/* Table entry idx made fresh for a new client at from (table lock held, entry FREE):
 * cleared, its generation bumped, owned by this gateway, kind, version and side set, and
 * counted in synch mode from the next step on. Not yet ACTIVE. */
void ngw_conn_entry_fresh(ngw_t *g, int idx, int kind, double version, int side,
                          const struct sockaddr_storage *from);
/* Serve client table entry idx from this process: open (or re-open on local_port) its
 * socket and register its read event. 0 or -1. */
int  ngw_conn_attach(ngw_t *g, int idx, int local_port);
/* Stop serving idx (socket closed); with release the table entry is freed too. */
void ngw_conn_detach(ngw_t *g, int idx, int release);
/* Read coach idx's socket again after g->ops.coach_waiting stopped it. */
void ngw_conn_resume(ngw_t *g, int idx);
/* Drop clients whose entry was freed or handed to another gateway. */
void ngw_conn_check_owner(ngw_t *g);
/* A player joined, left or said what someone hears at once: the sim applies the players'
 * part now (hdr.players_now, its semaphore), not at the next step. */
void ngw_players_changed(ngw_t *g);
/* Refresh g->snap from the region; 0 if a snapshot is available. */
int  ngw_snap_refresh(ngw_t *g);

#endif
