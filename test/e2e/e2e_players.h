/* e2e_players.h -- player clients for end-to-end tests (test_040..049): connect with
 * any init line, talk on the player's own port (zlib both ways after (compression N)),
 * and run several players through a synch-mode server: every (think) is answered with
 * (done), and every message is handed to a callback.
 *
 *     e2e_pl_t p[2];
 *     cr_assert_eq(e2e_pl_connect(&p[0], &s, "(init A (version 19))"), 0);
 *     cr_assert_eq(e2e_pl_connect(&p[1], &s, "(init A (version 9))"), 0);
 *     e2e_pl_send(&p[0], "(turn 30)");
 *     e2e_pl_run(p, 2, 20, 5000, on_msg, ctx);   // 20 cycles: each (think) -> (done)
 *
 * Messages read meanwhile are kept per player (the last E2E_PL_KEEP, in order). */
#ifndef RCSS_E2E_PLAYERS_H
#define RCSS_E2E_PLAYERS_H

#include <stddef.h>
#include "e2e.h"

#define E2E_PL_KEEP     512        /* messages remembered per player */
#define E2E_PL_MSG      16384      /* longest message read */

typedef struct e2e_pl {
    int    fd;
    int    port;                   /* the server's socket for this player */
    int    init_port;              /* server::port */
    int    zlevel;                 /* compression level both ways, -1 off */
    char   first[256];             /* the reply to the init / reconnect */
    int    n;                      /* messages kept */
    char  *msg[E2E_PL_KEEP];       /* copies, oldest first */
    int    thinks;                 /* (think) received (each answered with (done)) */
} e2e_pl_t;

/* Send the init / reconnect line to server::port and wait up to 2 s for the first
 * reply into p->first. 0 if it is "(init ..." or "(reconnect ...", -1 otherwise. */
int  e2e_pl_connect(e2e_pl_t *p, const e2e_server_t *s, const char *line);
void e2e_pl_close(e2e_pl_t *p);
/* Send a command to the player's own port (deflated if compression is on). */
void e2e_pl_send(e2e_pl_t *p, const char *cmd);
/* Send raw bytes (no NUL added) to the player's own port. */
void e2e_pl_send_raw(e2e_pl_t *p, const void *data, size_t len);
/* One message within timeout_ms (inflated if compression is on), kept and copied into
 * buf. Length, 0 on timeout. */
int  e2e_pl_recv(e2e_pl_t *p, char *buf, size_t len, int timeout_ms);
/* Read until a message starts with prefix (others are kept too). Length or 0. */
int  e2e_pl_wait(e2e_pl_t *p, const char *prefix, char *buf, size_t len, int timeout_ms);
/* The kept message i (0 oldest) starting with prefix: the first at or after *from, whose
 * index goes to *from; NULL if none. */
const char *e2e_pl_find(const e2e_pl_t *p, const char *prefix, int *from);
/* Forget the kept messages. */
void e2e_pl_clear(e2e_pl_t *p);

/* Run n players until each got `cycles` more (think)s (synch mode), answering every
 * (think) with (done); cb (may be NULL) sees every message first and may send commands.
 * Returns 0, or -1 if timeout_ms passed first. */
typedef void (*e2e_pl_cb)(e2e_pl_t *p, int i, const char *msg, void *ctx);
int  e2e_pl_run(e2e_pl_t *p, int n, int cycles, int timeout_ms, e2e_pl_cb cb, void *ctx);
/* Read every player for ms milliseconds (real time), answering (think)s. */
void e2e_pl_drain(e2e_pl_t *p, int n, int ms, e2e_pl_cb cb, void *ctx);

#endif
