/* netgw.h -- the rcss-netgw process: one player/coach UDP gateway of N (netgw/README.md).
 * The gateway context (ngw_t) built by netgw_main.c: what every layer keeps, the one
 * type they all share; calls go downwards only. Declared here: the process's own files,
 * the init port (init, reconnect, dispinit hand-over) in netgw_port.c, the player
 * sessions in netgw_client.c, what is sent every cycle and on the see timer in
 * netgw_cycle.c. Each layer declares its functions in its folder: conn/netgw_conn.h,
 * player/netgw_playergw.h and netgw_proto.h, coach/netgw_coachgw.h and netgw_coach.h,
 * clang/clang.h. */
#ifndef RCSS_NETGW_H
#define RCSS_NETGW_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include "conf.h"
#include "netgw_coach.h"
#include "netgw_conn.h"
#include "rng.h"
#include "shm.h"
#include "shm_gwloop.h"
#include "tgrid.h"

struct event_base;
struct event;

#define NGW_HEARTBEAT_MS  120       /* heartbeat / liveness: longer than a real-time cycle,
                                       so the steps carry it (shm_gwloop.h) */
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
    uint32_t       see_serial;     /* sees sent in the cycle served (cycle_see's seed) */
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

/* ---- netgw_port.c ---- */
/* A datagram on a shared port: player init/reconnect, dispinit hand-over, errors.
 * text is NUL-terminated at len. */
void ngw_port_datagram(ngw_t *g, ngw_port_t *p, char *text, size_t len,
                       const struct sockaddr_storage *from);

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

/* ---- netgw_cycle.c ---- */
/* Wake-up from the sim: every step published since the last (the rest of the served
 * cycle first), then the live world if there is a newer one. */
void ngw_cycle_wake(ngw_t *g);
/* Real time: the timer of the cycle's next poll went off: its marks, the next timer. */
void ngw_cycle_tick(ngw_t *g);
/* Build and send a sense_body for idx from the newest snapshot. */
void ngw_cycle_sense_body(ngw_t *g, int idx);

#endif
