/* mgw.h -- the rcss-monitorgw process: monitors and browser viewers.
 * (the encoders of every protocol version are monitorgw/proto/, the page and its event
 * stream monitorgw/web/)
 * mgw_cmd.c     monitor commands -> control records, operator rights (pure)
 * mgw_zlib.c    per-datagram zlib streams (pure)
 * mgw_peer.c    the monitor table (grows), sockets, registration, commands, takeover
 * mgw_fanout.c  frames encoded once per version (and compression level), sent to all
 * mgw_http.c    the browser page of a live match (served by web/sse.c, shared with the
 *               log player): parameters, operator commands
 * mgw_status.c  the runner endpoints of that server: /status, /metrics, /match/events
 * mgw_bcast.c   the publisher of the broadcast tier (server::broadcast_url)
 * mgw_main.c    startup and the event loop */
#ifndef RCSS_MGW_H
#define RCSS_MGW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "conf.h"
#include "disp.h"
#include "dispinit.h"
#include "shm.h"
#include "shm_gwloop.h"
#include "mgw_encode.h"
#include "sse.h"

struct event_base;
struct event;
struct sse;
struct mgw_status;
struct evhttp;
struct mgw_bcast;
struct json_t;

#define MGW_POLL_MS        50     /* hand-over rings (a fallback: netgw wakes monitorgw at
                                     once) and heartbeat */
#define MGW_ATTACH_WAIT_MS 5000
#define MGW_NLEVEL         10     /* zlib levels 0..9 */
#define MGW_MAX_BEHIND     48     /* snapshots monitorgw catches up on before jumping */
#define MGW_WAITERS        64     /* monitors whose command the sim is applying at once */
#define MGW_WAIT_NS        1000000000LL /* longest wait for the sim to apply one */
#define MGW_HELD_LEN       96     /* the reply that waits for it */
#define MGW_TILES          256    /* team-graphic tiles per side: 32 x 8 */
#define MGW_TILES_EARLY    32     /* tiles per cycle and monitor before kick-off */
#define MGW_TILES_LATE     8      /* and after */
#define MGW_YIELD_NS       3000000LL /* longest a new step waits for the netgw processes to
                                     serve their players first (a stalled one) */
#define MGW_YIELD_STALE_NS 500000000LL /* a netgw whose heartbeat is older is not waited for */
#define MGW_FD_RESERVE     64     /* descriptors kept free of monitors and viewers (event
                                     base, eventfd, logs, the http listener...) */


/* ---- mgw_cmd.c (pure) ---- */
enum {
    MGW_CMD_ERROR,        /* reply holds the error */
    MGW_CMD_CTRL,         /* ctrl holds a record for the sim (operators only) */
    MGW_CMD_BYE,          /* (dispbye) */
    MGW_CMD_COMPRESSION,  /* level in .level (negative: off); reply holds the ok */
    MGW_CMD_DISPINIT,     /* a (dispinit ...) to the monitor's own port: re-init */
    MGW_CMD_CHECK_BALL    /* coach mode: (check_ball), answered from the newest snapshot */
};

typedef struct mgw_cmd {
    int          kind;
    int          level;
    shm_cmd_sh_t ctrl;
    char         reply[96];    /* with MGW_CMD_CTRL: the ok sent once it is queued */
    char         team[SHM_TEAM_NAME_LEN]; /* a coach-mode player move: ctrl.i from it */
} mgw_cmd_t;

#define MGW_E_OPERATOR "(error referee_commands_need_operator_rights)"

/* Parse one command a monitor sent (docs/protocol/monitor.md §6). Positions are kept on the
 * field plus a 5 m margin; angles normalised. */
void mgw_parse_cmd(const char *text, size_t len, mgw_cmd_t *out);
/* With server::coach or coach_w_referee: the trainer commands a monitor may send
 * (start, change_mode, move, recover, check_ball; docs/protocol/monitor.md §6). 1 if text
 * is one of them (out filled), 0 if it is not (then mgw_parse_cmd decides). */
int  mgw_parse_coach_cmd(const char *text, mgw_cmd_t *out);
/* (ok check_ball TIME in_field|goal_l|goal_r|out_of_field) of snapshot s; its length or
 * -1 */
int  mgw_check_ball(const shm_snapshot_sh_t *s, const conf_t *c, char *buf, size_t len);

/* Operator addresses (server::monitor_operators): comma or blank separated IPv4/IPv6
 * addresses with an optional /prefix, or "*" for anyone; "" nobody. */
#define MGW_MAX_OPS 16
typedef struct mgw_ops {
    int     any;
    int     n;
    int32_t family[MGW_MAX_OPS];
    uint8_t addr[MGW_MAX_OPS][16];
    int     bits[MGW_MAX_OPS];
} mgw_ops_t;
/* 0, or -1 with the bad item in err */
int mgw_ops_parse(const char *list, mgw_ops_t *ops, char *err, size_t errlen);
int mgw_ops_allowed(const mgw_ops_t *ops, const uint8_t addr[16], int32_t family);

/* ---- mgw_zlib.c (pure) ---- */
/* One datagram as an independent zlib stream ending in a sync flush (no trailer), as
 * the reference sends: returns the length or -1. */
int mgw_zlib_pack(int level, const void *in, size_t len, uint8_t *out, size_t cap);
/* Inflate one received datagram (with or without trailer); NUL-terminates out.
 * Returns the length or -1 if it is not zlib data. */
int mgw_zlib_unpack(const void *in, size_t len, char *out, size_t cap);

/* ---- mgw_peer.c ---- */
typedef struct mgw_peer {
    int            idx;            /* position in g->peers */
    int            slot;           /* entry in r->monitor[], -1 if the table is full */
    int            version;        /* 1..5, -1 */
    int            fd;             /* connected to the monitor */
    int            dead;           /* refused (gone): closed by mgw_peer_reap */
    int            op;             /* may send referee commands */
    int            zlevel;         /* compression level, -1 off */
    uint8_t        addr[16];
    int32_t        family;
    uint16_t       port;
    uint64_t       sent, skipped;  /* datagrams sent / dropped (socket buffer full) */
    int64_t        last_recv_ns;   /* its dispinit or last datagram (idle monitors) */
    uint32_t       tiles[2][MGW_TILES / 32]; /* team-graphic tiles already sent */
    int            waiting;        /* a command of its is in the sim's hands: its reply
                                      waits and its socket is not read */
    uint32_t       wait_pos;       /* ...until the sim acknowledges this control position */
    int64_t        wait_ns;        /* since when */
    char           held[MGW_HELD_LEN]; /* the reply that waits, "" none */
    struct event  *ev;
    struct mgw    *g;
} mgw_peer_t;

/* one datagram in every version form, encoded (and compressed) on first use */
typedef int (*mgw_enc_fn)(struct mgw *g, int version, const void *arg, char *buf, size_t len);
typedef struct mgw_fset {
    mgw_enc_fn   enc;
    const void  *arg;
    int          len[MGW_NVER];     /* 0 not yet, -1 failed */
    int          zlen[MGW_NVER][MGW_NLEVEL];
} mgw_fset_t;

typedef struct mgw_tile {
    int   used;
    char *lines;                    /* quoted XPM lines */
} mgw_tile_t;

typedef struct mgw {
    shm_handle_t        shm;
    shm_region_sh_t    *r;
    shm_proc_sh_t      *self;
    conf_t              conf;
    mgw_ops_t           ops;
    struct event_base  *base;
    mgw_peer_t        **peers;      /* grows; each peer allocated once */
    int                 npeers, cap;
    mgw_peer_t         *waiters[MGW_WAITERS]; /* monitors waiting for the sim (above) */
    int                 nwaiters;
    uint64_t            live_pub;   /* hdr.live_pub of the live world last taken */
    int                 ver_count[MGW_NVER];
    shm_gwloop_t        loop;       /* cycle_sem posts, the MGW_POLL_MS beat, signals */
    uint64_t            last_step;
    uint64_t            yield_step; /* the published step it waits on the players for */
    int64_t             yield_ns;   /* since when */
    struct event       *yield_ev;   /* its deadline */
    uint64_t            yields, yield_timeouts; /* steps it waited for / gave up on */
    uint64_t            ev_cursor;
    shm_text_t          ev_text;    /* events in parts (SHM_EV_CONT) */
    shm_snapshot_sh_t   snap;
    disp_show_t         show;       /* snap as monitors see it */
    int                 have_snap;
    int                 ntiles;     /* tiles received (both sides) */
    mgw_tile_t          tile[2][MGW_TILES];
    struct sse         *http;
    struct uring       *ring;       /* frames to every monitor in one submission (common/
                                       uring.h); NULL: a send per monitor */
    char                out[MGW_FRAME_MAX];
    char               *fbuf[MGW_NVER];              /* fset buffers per version */
    char               *init_data[MGW_NVER];         /* init block per version, built once */
    int                 init_off[MGW_NVER][SHM_MAX_PTYPES + 3];
    int                 init_n[MGW_NVER];
    uint8_t            *zbuf[MGW_NVER][MGW_NLEVEL];  /* and compressed, allocated on use */
    uint64_t            frames;     /* show frames fanned out */
    int                 reply_fd;   /* unconnected socket for refusals (opened at start, so
                                       a refusal never needs a descriptor we lack) */
    int                 full_said;  /* "no room for more monitors" logged (until room) */
    struct mgw_status  *status;     /* runner endpoints (mgw_status.c), NULL without http */
    struct mgw_bcast   *bcast;      /* the broadcast tier's publisher, NULL without one */
    char               *vframe;     /* the viewers' frame: the JSON show and its stamp */
} mgw_t;

int  mgw_init_buffers(mgw_t *g);
void mgw_free_buffers(mgw_t *g);
/* Register the monitor of a hand-over record (or re-init a known one, or apply a
 * protocol-1 monitor's command sent to the player port). */
void mgw_peer_request(mgw_t *g, const shm_monreq_sh_t *m);
/* Re-open sockets for the monitors a previous monitorgw left ACTIVE in the table. */
void mgw_peer_takeover(mgw_t *g);
/* An SHM_EV_ACK of monitorgw's control ring up to pos: the monitors waiting for it get
 * their replies and are read again. mgw_peer_wait_check (the beat): a monitor waiting
 * longer than MGW_WAIT_NS gets its reply anyway. */
void mgw_peer_ack(mgw_t *g, uint32_t pos);
void mgw_peer_wait_check(mgw_t *g);
/* Close a monitor; with release its table entry is freed. Frees p. */
void mgw_peer_close(mgw_t *g, mgw_peer_t *p, int release);
void mgw_peer_close_all(mgw_t *g, int release);
/* Send one datagram to one monitor (compressed if it asked): 0 sent, 1 skipped, -1 gone */
int  mgw_peer_send(mgw_t *g, mgw_peer_t *p, const void *data, size_t len);
/* The same for bytes already in the monitor's form (compressed by the caller). */
int  mgw_peer_send_raw(mgw_t *g, mgw_peer_t *p, const void *data, size_t len);
/* The result of a send to p (bytes, or -errno) counted: 0 sent, 1 skipped (its socket
 * buffer is full), -1 failed (refused: p is dead). */
int  mgw_peer_sent(mgw_t *g, mgw_peer_t *p, int res);
/* Apply one command from monitor p (own port or, for v1, the player port); buf has room
 * for n + 1 bytes. */
void mgw_peer_command(mgw_t *g, mgw_peer_t *p, char *buf, size_t n);
/* Close the monitors marked dead, after applying what they sent before going. */
void mgw_peer_reap(mgw_t *g);
/* While the table is full, publish the longest-silent monitor's last datagram time
 * (montab.oldest_recv_ns) for netgw's refusals; 0 otherwise. */
void mgw_peer_note_idle(mgw_t *g);
/* Open the socket refusals are sent from (-1 on failure: refusals then use a
 * temporary one). */
void mgw_peer_open_reply(mgw_t *g);
/* the peer at an address, NULL if none */
mgw_peer_t *mgw_peer_find(mgw_t *g, const uint8_t addr[16], int32_t family, uint16_t port);

/* ---- mgw_fanout.c ---- */
/* The frame set's datagram for version and compression level (-1 off). */
int  mgw_fset_get(mgw_t *g, mgw_fset_t *f, int version, int zlevel, const void **data);
/* Send the set to every monitor in its version. */
void mgw_fset_broadcast(mgw_t *g, mgw_fset_t *f);
/* The newest snapshot (g->snap) to every monitor (and viewer), encoded once per
 * version; then this cycle's share of team-graphic tiles. */
void mgw_fanout_show(mgw_t *g);
/* A board message to every monitor. */
void mgw_fanout_msg(mgw_t *g, int time, int stime, int board, const char *text);
/* A tile an online coach uploaded: kept, and sent to every monitor over the cycles. */
void mgw_fanout_tile(mgw_t *g, int side, const char *text);
/* Send the init block of p's version (one sendmmsg). */
void mgw_fanout_init(mgw_t *g, mgw_peer_t *p);
/* A message to one monitor in its version (error replies). */
void mgw_fanout_reply(mgw_t *g, mgw_peer_t *p, const char *text);

/* ---- mgw_http.c ---- */
/* Start the HTTP server on server::http_port (0: none). 0, -1, or SHM_CONFLICT when
 * the port is taken. */
int  mgw_http_start(mgw_t *g);
void mgw_http_stop(mgw_t *g);
/* The current frame (JSON show, g->show) to every viewer, after server::http_delay. */
void mgw_http_frame(mgw_t *g, uint64_t id, const char *json, size_t len);
/* Browser viewers now (-1 without an HTTP server). */
static inline int mgw_http_viewers(const mgw_t *g)
{
    return g->http ? sse_viewers(g->http) : -1;
}
/* Frames viewers skipped (slow connections). */
static inline uint64_t mgw_http_skipped(const mgw_t *g)
{
    return g->http ? sse_skipped(g->http) : 0;
}

/* ---- mgw_bcast.c ---- */
/* Start publishing to server::broadcast_url (nothing if ""). 0, or -1 out of memory. */
int  mgw_bcast_start(mgw_t *g);
void mgw_bcast_stop(mgw_t *g);
/* A stamped frame (the viewers' JSON) to every URL of the tier. */
void mgw_bcast_frame(mgw_t *g, const char *json, size_t len);
/* /status "broadcast": one object per URL (url, state, published, dropped, failures,
 * queued, in_flight, last_ms, last_error); an empty array without a tier */
struct json_t *mgw_bcast_json(const mgw_t *g);
/* frames published and dropped over every URL */
void mgw_bcast_totals(const mgw_t *g, uint64_t *published, uint64_t *dropped);

/* ---- mgw_status.c ---- */
/* The http port to bind for server::http_port = port: -1 is any free port, or the one
 * reported before (a restarted monitorgw takes the same port back). */
int  mgw_status_port(mgw_t *g, int port);
/* Report the port bound (the region's runner part: the ready line, /status). */
void mgw_status_bound(mgw_t *g, int port);
/* Register /status, /metrics and /match/events and start following the runner events. */
int  mgw_status_start(mgw_t *g, struct evhttp *http);
/* After evhttp_free. */
void mgw_status_stop(mgw_t *g);
/* 1 if one more monitor or viewer fits in the descriptor limit (RLIMIT_NOFILE less
 * MGW_FD_RESERVE); counts every monitor and browser viewer. */
int  mgw_status_fd_room(const mgw_t *g);
/* Hand the runner events the sim wrote since the last call to /match/events (nothing
 * without an HTTP port). Called with each snapshot and on the loop's beat, as the end
 * event comes after the last snapshot. */
void mgw_status_poll(mgw_t *g);

#endif
