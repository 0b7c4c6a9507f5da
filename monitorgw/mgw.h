/* mgw.h -- the rcss-monitorgw process: monitors. Pure encoders and parsers in
 * mgw_encode.c (show frames, messages, dispinit) and mgw_cmd.c (monitor commands);
 * the monitor table and its sockets in mgw_peer.c; startup and the event loop in
 * mgw_main.c. */
#ifndef RCSS_MGW_H
#define RCSS_MGW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "conf.h"
#include "dispinit.h"
#include "shm.h"
#include "shm_gateway.h"

struct event_base;
struct event;

#define MGW_FRAME_MAX     16384   /* one show frame or parameter message */
#define MGW_POLL_MS       10      /* monitor-request rings and heartbeat */
#define MGW_ATTACH_WAIT_MS 5000
#define MGW_MAX_VERSION   DISPINIT_MAX_SERVED

/* ---- mgw_encode.c (pure) ---- */
/* The (show ...) line of snapshot s for monitor protocol version 3, 4 or 5 (spec
 * monitor-log-coach.md 1.4). Returns the length, -1 if buf is too small. */
int mgw_encode_show(const shm_snapshot_sh_t *s, int version, char *buf, size_t len);
/* The same without (pm ...) and (tm ...): the (show ...) line of text game logs 4-6,
 * which use monitor version log_version - 1 (spec 2.2). */
int mgw_encode_show_log(const shm_snapshot_sh_t *s, int version, char *buf, size_t len);
/* (msg TIME BOARD "TEXT"), TEXT as is (not escaped, as the reference). */
int mgw_encode_msg(int time, int board, const char *text, char *buf, size_t len);

/* ---- mgw_cmd.c (pure) ---- */
enum {
    MGW_CMD_ERROR,        /* reply holds the error */
    MGW_CMD_CTRL,         /* ctrl holds a record for the sim */
    MGW_CMD_BYE,          /* (dispbye) */
    MGW_CMD_REPLY,        /* only a reply (compression) */
    MGW_CMD_DISPINIT      /* a (dispinit ...) to the monitor's own port: re-init */
};

typedef struct mgw_cmd {
    int          kind;
    shm_cmd_sh_t ctrl;
    char         reply[96];
} mgw_cmd_t;

/* Parse one datagram a registered monitor sent to its own port (spec 1.6). */
void mgw_parse_cmd(const char *text, size_t len, mgw_cmd_t *out);

/* ---- mgw_peer.c ---- */
typedef struct mgw_peer {
    int            used;
    int            slot;           /* index in r->monitor[] */
    int            version;
    int            fd;             /* connected to the monitor */
    int            dead;           /* refused (monitor gone): no more sends, closed by
                                      mgw_peer_reap once its queued commands are read */
    struct event  *ev;
    struct mgw    *g;
} mgw_peer_t;

typedef struct mgw {
    shm_handle_t        shm;
    shm_region_sh_t    *r;
    shm_proc_sh_t      *self;
    conf_t              conf;
    struct event_base  *base;
    mgw_peer_t          peer[SHM_MAX_MONITORS];
    int                 npeers;
    shm_waker_t         waker;      /* cycle_sem posts -> eventfd */
    struct event       *wake_ev, *poll_ev, *sig_ev[2];
    uint64_t            last_step;
    uint64_t            ev_cursor;
    shm_snapshot_sh_t   snap;
    int                 have_snap;
    char                out[MGW_FRAME_MAX];
    char                frame[MGW_MAX_VERSION + 1][MGW_FRAME_MAX];
} mgw_t;

/* Register the monitor of a hand-over record (or re-init a known one): own socket,
 * table entry, init block. Errors are answered to the monitor from a temporary socket. */
void mgw_peer_request(mgw_t *g, const shm_monreq_sh_t *m);
/* Re-open sockets for the monitors a previous monitorgw left ACTIVE in the table. */
void mgw_peer_takeover(mgw_t *g);
/* Close a monitor; with release its table entry is freed. */
void mgw_peer_close(mgw_t *g, mgw_peer_t *p, int release);
/* Send text (with its NUL) to one monitor; a full socket counts a skipped frame,
 * a refused one (monitor gone) closes it. */
void mgw_peer_send(mgw_t *g, mgw_peer_t *p, const char *text, size_t len);
/* Close the monitors marked dead, after applying the commands they sent before going
 * (a (dispstart) followed at once by (dispbye) and a closed socket still starts). */
void mgw_peer_reap(mgw_t *g);
/* Send the newest snapshot (g->snap) to every monitor, encoded once per version. */
void mgw_peer_broadcast_show(mgw_t *g);
/* Send a (msg ...) to every monitor. */
void mgw_peer_broadcast_msg(mgw_t *g, int time, int board, const char *text);

#endif
