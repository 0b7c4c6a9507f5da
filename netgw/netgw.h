/* netgw.h -- the rcss-netgw process: one player/coach UDP gateway of N. Context (ngw_t)
 * built by netgw_main.c; sockets in netgw_udp.c; each served client's own socket in
 * netgw_conn.c; the init port (init, reconnect, dispinit hand-over) in netgw_port.c;
 * the player sessions in netgw_client.c; what is sent every cycle and on the see timer
 * in netgw_cycle.c. The pure protocol is netgw_proto.h. */
#ifndef RCSS_NETGW_H
#define RCSS_NETGW_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include "conf.h"
#include "netgw_coach.h"
#include "rng.h"
#include "shm.h"
#include "shm_gwloop.h"
#include "tgrid.h"

struct event_base;
struct event;

#define NGW_DGRAM_MAX     8192      /* largest datagram read from a client */
#define NGW_SEND_MAX      16384     /* largest message built for a client */
#define NGW_HEARTBEAT_MS  50        /* heartbeat / liveness timer */
#define NGW_ATTACH_WAIT_MS 5000     /* how long to wait for the sim's region */
#define NGW_COACH_WAIT_NS 1000000000LL /* longest wait for the sim to apply a coach's record */
#define NGW_THINK_DELAY_MS 50       /* synch mode, game time 0: (think) this long after
                                       the step's other messages, as the reference */

/* what a player hears (netgw_audio.c): its hear capacity and the v8+ messages kept
 * for the start of the next cycle */
#define NGW_HEAR_QUEUE    32        /* messages cached per listener per cycle */

typedef struct ngw_heard {
    int   speaker;                  /* player index (== the listener's own: self) */
    char  text[SHM_EVENT_TEXT_LEN];
} ngw_heard_t;

typedef struct ngw_ear {
    int          cap[2];            /* hear capacity from teammates [0], opponents [1] */
    int          n;                 /* cached messages */
    uint32_t     dropped;           /* messages beyond NGW_HEAR_QUEUE in one cycle */
    ngw_heard_t  q[NGW_HEAR_QUEUE];
} ngw_ear_t;

/* a client this gateway serves (mirror of its shm client-table entry) */
typedef struct ngw_client {
    struct ngw    *g;              /* back pointer for the read callback */
    int            used;
    int            idx;            /* client table index */
    uint32_t       generation;     /* of the entry when we took it */
    int            fd;             /* per-client socket, connected to the client */
    struct event  *ev;
    int            see_count;      /* see ticks (async, or synch see) since the last see */
    uint64_t       since_step;     /* the newest step when it was attached (or, a coach,
                                      turned its eye on): asked to (think) after it only */
    ngw_ear_t      ear;            /* players: capacity and cached messages */
} ngw_client_t;

/* one of the shared listening ports (player, trainer, online coach) */
typedef struct ngw_port {
    struct ngw    *g;              /* back pointer for the read callback */
    int            fd;
    int            port;
    int            kind;           /* CLIENT_KIND_PLAYER / TRAINER / OLCOACH */
    struct event  *ev;
} ngw_port_t;

/* what a gateway keeps between datagrams of a coach it serves (netgw_coach.c; the
 * online coaches' message allowances are in the region: shm_coach_sh_t) */
/* a coach's reply that waits for the sim to apply the record before it */
#define NGW_COACH_HELD    8

typedef struct ngw_held {
    uint32_t pos;                  /* the ring position the sim must have acknowledged */
    char     text[COACH_REPLY_LEN];
} ngw_held_t;

typedef struct ngw_coach {
    int      waiting;              /* a record of this coach is in the sim's hands: its
                                      replies wait and its socket is not read */
    uint32_t wait_pos;             /* ...until the sim acknowledges this ring position */
    int64_t  wait_ns;              /* since when (a sim that never answers is given up) */
    int      nheld;
    ngw_held_t held[NGW_COACH_HELD];
    int32_t  clang_sent[SHM_MAX_PLAYERS][2]; /* (clang (ver ..)) last told, per player */
    void    *zip;                  /* deflate stream once compression was asked for */
    int      zip_level;            /* its level */
} ngw_coach_t;

typedef struct ngw_coaches {
    ngw_coach_t  c[3];             /* trainer, left coach, right coach */
    int          playon_start;     /* game cycle play_on last began */
    int          last_mode;        /* play mode of the previous snapshot */
    int          last_time;        /* game cycle of the previous snapshot */
    shm_text_t   ev;               /* parts of a long event being assembled */
    coach_cmd_t  cmd;              /* the command being handled */
    int          replying;         /* client index whose datagram is being handled, -1 */
    clang_work_t clang;            /* coach-language parser workspace */
    char         out[COACH_TEXT_MAX + 256]; /* a hear built from a long text */
} ngw_coaches_t;

/* gateway-wide hearing state (netgw_audio.c) */
#define NGW_COACH_SAYS    4         /* coach/trainer says cached for v8+ players per cycle */

typedef struct ngw_audio {
    shm_text_t  ev;                 /* parts of a long event being assembled */
    int         ncoach;             /* coach/trainer says for the next cycle (v8+ players) */
    int         coach_side[NGW_COACH_SAYS];
    char        coach_text[NGW_COACH_SAYS][COACH_TEXT_MAX + 1];
    int         have_prev;          /* prev_* hold the previous snapshot's players */
    double      prev_x[SHM_MAX_PLAYERS], prev_y[SHM_MAX_PLAYERS], prev_body[SHM_MAX_PLAYERS];
} ngw_audio_t;

/* What the client sockets (netgw_conn.c) hand up to the sessions; netgw_main.c sets it,
 * so the connection layer calls nothing above it. */
typedef struct ngw_ops {
    /* one datagram (n > 0 bytes; buf has room for a NUL at n) of player / coach idx */
    void (*player_datagram)(struct ngw *g, int idx, char *buf, size_t n);
    void (*coach_datagram)(struct ngw *g, int idx, char *buf, size_t n);
    /* 1 while coach idx waits for the sim: its socket is not read until the coach side
     * resumes it (ngw_conn_resume) */
    int  (*coach_waiting)(const struct ngw *g, int idx);
    /* coach idx's port refused what was sent: it is gone */
    void (*coach_gone)(struct ngw *g, int idx);
} ngw_ops_t;

typedef struct ngw {
    int                 index;     /* netgw index (slot in r->netgw[]) */
    shm_handle_t        shm;
    shm_region_sh_t    *r;
    shm_proc_sh_t      *self;
    conf_t              conf;      /* copied from the region's parameters */
    rng_t               rng;       /* gateway-side sensor randomness */
    struct event_base  *base;
    ngw_port_t          port[3];
    int                 nports;
    ngw_client_t        cl[SHM_MAX_CLIENTS];
    ngw_ops_t           ops;        /* the sessions the client sockets hand datagrams to */
    shm_gwloop_t        loop;       /* wake-ups from the sim, heartbeat, signals */
    shm_wake_t          wake;       /* to wake monitorgw (monitor hand-over) */
    int                 done_hint;  /* synch mode: a client still to send (done) */
    tgrid_t             grid;       /* the timer schedule (common/tgrid.h) */
    struct event       *tick_ev;    /* real time: the cycle's next poll with marks */
    uint64_t            next_poll;  /* that poll, 0 if the cycle has none left */
    int                 think_pending; /* synch mode at time 0: (think) after a delay */
    uint64_t            served_step; /* the step whose cycle is served (g->snap's) */
    uint64_t            live_pub;   /* hdr.live_pub of the live world last taken */
    uint64_t            last_step;  /* newest snapshot handled */
    uint64_t            ev_cursor;  /* next event to read */
    shm_snapshot_sh_t   snap;       /* the world served: the step's, or the live one */
    shm_snapshot_sh_t   incoming;   /* a snapshot being read */
    int                 have_snap;
    char                out[NGW_SEND_MAX];
    ngw_coaches_t       coach;      /* trainer and online coaches (netgw_coach*.c) */
    ngw_audio_t         audio;      /* what players hear (netgw_audio.c) */
} ngw_t;

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

/* ---- netgw_port.c ---- */
/* A datagram on a shared port: player init/reconnect, dispinit hand-over, errors.
 * text is NUL-terminated at len. */
void ngw_port_datagram(ngw_t *g, ngw_port_t *p, char *text, size_t len,
                       const struct sockaddr_storage *from);

/* ---- netgw_conn.c: each served client's own socket; the world served ---- */
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

/* ---- netgw_params.c ---- */
/* The messages after a successful (init ...)/(reconnect ...) of a player or a coach:
 * parameters, types. */
void ngw_params_send(ngw_t *g, int idx);

/* ---- netgw_client.c: the player sessions ---- */
/* Take back every ACTIVE entry whose owner_gw is this gateway (after a restart). */
void ngw_client_takeover(ngw_t *g);
/* One (decompressed) datagram of connected player idx: its commands, in order. text
 * is NUL-terminated at len. */
void ngw_client_command(ngw_t *g, int idx, char *text, size_t len);
/* One datagram on player idx's socket (g->ops.player_datagram): inflated if it asked for
 * compression, then its commands. */
void ngw_client_datagram(ngw_t *g, int idx, char *buf, size_t n);
/* The raw text of a datagram from player idx, for the text log (a SHM_CMD_RAW record in
 * its ring), when server::text_logging is on. */
void ngw_client_log(ngw_t *g, int idx, const char *text, size_t len);

/* ---- netgw_trainer.c, netgw_olcoach.c: the coach ports and sessions ---- */
/* A datagram on the trainer / online-coach port: init, or the reference's errors. */
void ngw_trainer_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from);
void ngw_olcoach_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from);
/* One command of the connected trainer / online coach (text NUL-terminated). */
void ngw_trainer_command(ngw_t *g, int idx, const char *text);
void ngw_olcoach_command(ngw_t *g, int idx, const char *text);

/* ---- netgw_coach.c: what both coach kinds share ---- */
/* A datagram on a coach's own socket (g->ops.coach_datagram). */
void ngw_coach_datagram(ngw_t *g, int idx, char *buf, size_t n);
/* 1 while coach idx waits for the sim to apply a record (g->ops.coach_waiting). */
int  ngw_coach_waiting(const ngw_t *g, int idx);
/* Take the coach entry idx under the table lock for a client at from, open its socket.
 * 0, or -1 with *err the reply. */
int  ngw_coach_take(ngw_t *g, int idx, int kind, double version, int side,
                    const struct sockaddr_storage *from, const char **err);
/* A record (with a text, possibly long) into coach idx's ring; -1 if it is full. */
int  ngw_coach_push(ngw_t *g, int idx, shm_cmd_sh_t *c, const char *text, size_t len);
/* The raw datagram for the text log. */
void ngw_coach_log(ngw_t *g, int idx, const char *text);
/* Coach idx left: its (bye), or its socket refused (the client is gone). Says so on
 * stdout as the reference ("An online coach disconnected : (TEAM NAME)", "An offline coach
 * disconnected") and frees its place. */
void ngw_coach_gone(ngw_t *g, int idx);
/* look, team_names, check_ball, eye, done, compression: 1 if handled. */
int  ngw_coach_common(ngw_t *g, int idx, const coach_cmd_t *cmd);
/* Send on coach idx's socket. While one of its datagrams is handled after a record
 * went to the sim, the reply waits for the sim's acknowledgement (ngw_coach_ack). */
void ngw_coach_send(ngw_t *g, int idx, const char *msg);
/* An SHM_EV_ACK for coach ring idx up to pos: the replies waiting for it go out, and
 * once nothing waits its socket is read again. */
void ngw_coach_ack(ngw_t *g, int idx, uint32_t pos);
/* Heartbeat: a coach waiting longer than NGW_COACH_WAIT_NS gets its replies anyway. */
void ngw_coach_wait_check(ngw_t *g);

/* ---- netgw_coachzip.c: (compression N) for coaches ---- */
/* Send msg (with its NUL) to coach idx as one zlib stream at its level. */
void ngw_coach_zip_send(ngw_t *g, int idx, const char *msg);
/* Inflate one datagram of a compressing coach into out (NUL-terminated); its length,
 * or -1 if it is not a zlib stream (the reference then ignores it). */
long ngw_coach_unzip(ngw_t *g, const char *in, size_t n, char *out, size_t cap);
/* Free coach idx's deflate stream (a new session, or the gateway ending). */
void ngw_coach_zip_free(ngw_t *g, int idx);

/* ---- netgw_coachcycle.c: coach traffic per event and per cycle ---- */
/* Every event read with a snapshot (from netgw_cycle.c): replies, notices and hears
 * for the coaches and players this gateway serves. */
void ngw_coach_event(ngw_t *g, const shm_event_sh_t *ev);
/* Once per step: play-on bookkeeping and clang-version notices for coaches. */
void ngw_coach_step(ngw_t *g);
/* A coach-visual poll: see_global to every coach with its eye on. */
void ngw_coach_visual(ngw_t *g);
/* Synch mode, the (think) poll: (think) to every coach with its eye on. */
void ngw_coach_think(ngw_t *g);

/* ---- netgw_audio.c: what players hear, player replies from the sim ---- */
/* Every event read with a snapshot, in order: referee messages and v1-v7 hears at once,
 * v8+ says and coach/trainer says cached for the next cycle, the sim's player replies. */
void ngw_audio_event(ngw_t *g, const shm_event_sh_t *ev);
/* Once per snapshot after its events: hear capacities refilled. */
void ngw_audio_step(ngw_t *g);
/* Right after player idx's sense_body (and fullstate): its cached messages, v8+. */
void ngw_audio_release(ngw_t *g, int idx);
/* After every player was served: cached coach says dropped, positions remembered. */
void ngw_audio_end_step(ngw_t *g);
/* A new client at idx: full capacity, nothing cached. */
void ngw_audio_reset(ngw_t *g, int idx);

/* ---- netgw_cycle.c ---- */
/* Wake-up from the sim: every step published since the last (the rest of the served
 * cycle first), then the live world if there is a newer one. */
void ngw_cycle_wake(ngw_t *g);
/* Real time: the timer of the cycle's next poll went off: its marks, the next timer. */
void ngw_cycle_tick(ngw_t *g);
/* Build and send a sense_body for idx from the newest snapshot. */
void ngw_cycle_sense_body(ngw_t *g, int idx);

#endif
