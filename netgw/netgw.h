/* netgw.h -- the rcss-netgw process: one player/coach UDP gateway of N. Context (ngw_t)
 * built by netgw_main.c; sockets in netgw_udp.c; the init port (init, reconnect, dispinit
 * hand-over) in netgw_port.c; connected clients in netgw_client.c; what is sent every
 * cycle and on the see timer in netgw_cycle.c. The pure protocol is netgw_proto.h. */
#ifndef RCSS_NETGW_H
#define RCSS_NETGW_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include "conf.h"
#include "netgw_coach.h"
#include "rng.h"
#include "shm.h"
#include "shm_gateway.h"

struct event_base;
struct event;

#define NGW_DGRAM_MAX     8192      /* largest datagram read from a client */
#define NGW_SEND_MAX      16384     /* largest message built for a client */
#define NGW_HEARTBEAT_MS  50        /* heartbeat / liveness timer */
#define NGW_ATTACH_WAIT_MS 5000     /* how long to wait for the sim's region */

/* a client this gateway serves (mirror of its shm client-table entry) */
typedef struct ngw_client {
    struct ngw    *g;              /* back pointer for the read callback */
    int            used;
    int            idx;            /* client table index */
    uint32_t       generation;     /* of the entry when we took it */
    int            fd;             /* per-client socket, connected to the client */
    struct event  *ev;
    int            see_count;      /* async: quarter send_steps since the last see;
                                      synch-see: cycles since the last see */
} ngw_client_t;

/* one of the shared listening ports (player, trainer, online coach) */
typedef struct ngw_port {
    struct ngw    *g;              /* back pointer for the read callback */
    int            fd;
    int            port;
    int            kind;           /* CLIENT_KIND_PLAYER / TRAINER / OLCOACH */
    struct event  *ev;
} ngw_port_t;

/* what a gateway keeps between datagrams of a coach it serves (netgw_coach.c) */
typedef struct ngw_coach {
    int      msg_left[CLANG_DEL + 1]; /* coach-language messages left in the window, by type */
    int      win_time;             /* game cycle the window was last refilled */
    int      ff_said;              /* freeform messages said */
    int      vi_ms;                /* visual time (ms) since the last see_global */
    int32_t  clang_sent[SHM_MAX_PLAYERS][2]; /* (clang (ver ..)) last told, per player */
} ngw_coach_t;

typedef struct ngw_coaches {
    ngw_coach_t  c[3];             /* trainer, left coach, right coach */
    int          playon_start;     /* game cycle play_on last began */
    int          last_mode;        /* play mode of the previous snapshot */
    int          last_time;        /* game cycle of the previous snapshot */
    shm_text_t   ev;               /* parts of a long event being assembled */
    coach_cmd_t  cmd;              /* the command being handled */
    clang_work_t clang;            /* coach-language parser workspace */
    char         out[COACH_TEXT_MAX + 256]; /* a hear built from a long text */
} ngw_coaches_t;

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
    shm_waker_t         waker;      /* cycle_sem posts -> eventfd */
    struct event       *wake_ev;
    struct event       *see_ev;     /* async see timer, every send_step / 4 */
    struct event       *beat_ev;    /* heartbeat and liveness */
    struct event       *sig_ev[2];
    int64_t             quarter_ns; /* send_step / 4 in ns (slow_down_factor included) */
    uint64_t            see_tick;   /* next see tick number (epoch + k * quarter_ns) */
    uint64_t            last_step;  /* newest snapshot handled */
    uint64_t            ev_cursor;  /* next event to read */
    shm_snapshot_sh_t   snap;       /* newest snapshot read */
    int                 have_snap;
    char                out[NGW_SEND_MAX];
    ngw_coaches_t       coach;      /* trainer and online coaches (netgw_coach*.c) */
} ngw_t;

/* ---- netgw_udp.c (sockets: common/net.h) ---- */
/* Send text with its terminating NUL on a connected socket / to an address.
 * A full socket buffer drops the datagram (never blocks). */
void ngw_udp_send(int fd, const char *text);
void ngw_udp_sendto(int fd, const struct sockaddr_storage *to, const char *text);
/* Address <-> client-table fields. */
void ngw_addr_to_entry(const struct sockaddr_storage *a, shm_client_sh_t *e);
void ngw_entry_to_addr(const shm_client_sh_t *e, struct sockaddr_storage *a);
int  ngw_addr_equal_entry(const struct sockaddr_storage *a, const shm_client_sh_t *e);

/* ---- netgw_port.c ---- */
/* A datagram on a shared port: player init/reconnect, dispinit hand-over, errors. */
void ngw_port_datagram(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                       const struct sockaddr_storage *from);

/* ---- netgw_client.c ---- */
/* Serve client table entry idx from this process: open (or re-open on local_port) its
 * socket and register its read event. 0 or -1. */
int  ngw_client_attach(ngw_t *g, int idx, int local_port);
/* Stop serving idx (socket closed); with release the table entry is freed too. */
void ngw_client_detach(ngw_t *g, int idx, int release);
/* Take back every ACTIVE entry whose owner_gw is this gateway (after a restart). */
void ngw_client_takeover(ngw_t *g);
/* The messages after a successful (init ...)/(reconnect ...): parameters, types. */
void ngw_client_send_params(ngw_t *g, int idx);
/* Drop clients whose entry was freed or handed to another gateway. */
void ngw_client_check_owner(ngw_t *g);
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
/* A datagram on a coach's own socket (from netgw_client.c). */
void ngw_coach_datagram(ngw_t *g, int idx, char *buf, size_t n);
/* Take the coach entry idx under the table lock for a client at from, open its socket.
 * 0, or -1 with *err the reply. */
int  ngw_coach_take(ngw_t *g, int idx, int kind, double version, int side,
                    const struct sockaddr_storage *from, const char **err);
/* A record (with a text, possibly long) into coach idx's ring; -1 if it is full. */
int  ngw_coach_push(ngw_t *g, int idx, shm_cmd_sh_t *c, const char *text, size_t len);
/* The raw datagram for the text log. */
void ngw_coach_log(ngw_t *g, int idx, const char *text);
/* look, team_names, check_ball, eye, done, compression: 1 if handled. */
int  ngw_coach_common(ngw_t *g, int idx, const coach_cmd_t *cmd);
/* Send on coach idx's socket. */
void ngw_coach_send(ngw_t *g, int idx, const char *msg);

/* ---- netgw_coachcycle.c: coach traffic per event and per cycle ---- */
/* Every event read with a snapshot (from netgw_cycle.c): replies, notices and hears
 * for the coaches and players this gateway serves. */
void ngw_coach_event(ngw_t *g, const shm_event_sh_t *ev);
/* Once per snapshot: see_global, (think) and clang-version notices for coaches. */
void ngw_coach_step(ngw_t *g);

/* ---- netgw_cycle.c ---- */
/* Wake-up from the cycle semaphore: handle every snapshot published since the last. */
void ngw_cycle_wake(ngw_t *g);
/* Async see timer tick. */
void ngw_cycle_see_tick(ngw_t *g);
/* Build and send a sense_body for idx from the newest snapshot. */
void ngw_cycle_sense_body(ngw_t *g, int idx);
/* Refresh g->snap from the region; 0 if a snapshot is available. */
int  ngw_cycle_refresh(ngw_t *g);

#endif
