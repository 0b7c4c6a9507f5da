/* mgw3d.h -- rcss3d-monitorgw, the 3D server's monitor gateway (docs/protocol/3d.md §4):
 * monitors and trainers on TCP server::monitor_port (12001), S-expressions as lines of
 * text ending in a newline both ways (the manual's form), or length-prefixed as the
 * agents' for a monitor whose first bytes are a length. Each gets the Init expression on connecting, then an
 * Info expression every MonitorInterval steps: the first with everything (flags,
 * goals, team names, score, half, play mode), later ones with what changed; "(Info
 * (ack COOKIE))" answers a (getAck COOKIE) once the commands before it are carried out;
 * (Die) when the server stops. The same expressions, one per line, are the monitor log
 * (server::monitor_log). Pure encoders: mgw3d_encode.c; commands: mgw3d_cmd.c;
 * monitors: mgw3d_peer.c; log: mgw3d_log.c; loop: mgw3d_main.c. */
#ifndef RCSS_MGW3D_H
#define RCSS_MGW3D_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "conf3d.h"
#include "shm.h"
#include "shm3d.h"
#include "shm_gwloop.h"

#define MGW3D_MAX_PEERS   256
#define MGW3D_MSG_MAX     65536        /* longest monitor command message */
#define MGW3D_OUT_MAX     (1u << 20)   /* queued for one monitor before Infos are skipped */
#define MGW3D_INFO_LEN    16384
#define MGW3D_DETECT_MS   300          /* a monitor silent this long after connecting talks lines */

/* How a monitor talks, told from the first bytes it sends: a 4-byte length starts with
 * a zero byte (no message is 16 MiB long); anything else, or nothing for
 * MGW3D_DETECT_MS (a monitor that only reads), is newline-terminated lines both ways. */
enum { MGW3D_MODE_UNKNOWN, MGW3D_MODE_FRAMED, MGW3D_MODE_LINES };

/* ---- mgw3d_encode.c (pure) ---- */
/* what the Info stream told its readers so far: later Infos repeat only changes */
typedef struct mgw3d_state {
    int  valid;
    int  half, play_mode, score[2];
    char team[2][SHM3D_TEAM_NAME_LEN];
} mgw3d_state_t;

/* (Init (FieldLength 104)...(play_modes BeforeKickOff ...)). Length or -1. */
int mgw3d_encode_init(const conf3d_t *c, char *buf, size_t len);
/* (Info ...) for snapshot s: with prev NULL or invalid everything (the static parts
 * too), else only what differs from prev; *next gets what the reader knows after it.
 * Length or -1. */
int mgw3d_encode_info(const shm3d_snapshot_sh_t *s, const conf3d_t *c,
                      const mgw3d_state_t *prev, mgw3d_state_t *next, char *buf, size_t len);
/* The browser view's frame: one JSON object (time, half, mode, score, teams, field,
 * ball, robots with positions and heights). Length or -1. */
int mgw3d_encode_json(const shm3d_snapshot_sh_t *s, const conf3d_t *c, char *buf, size_t len);
/* (Info (ack COOKIE)) */
int mgw3d_encode_ack(const char *cookie, size_t n, char *buf, size_t len);
#define MGW3D_DIE "(Die)"

/* ---- mgw3d_cmd.c (pure) ---- */
typedef struct mgw3d_sink {
    void (*record)(void *ctx, const shm3d_cmd_sh_t *c);
    void (*error)(void *ctx, const char *text);
    void  *ctx;
} mgw3d_sink_t;
/* Every command of one monitor message ((kickOff), ((ball (pos 1 2 3))(getAck x)), ...)
 * in order; records carry monitor_id in generation (for the ack). Returns the number of
 * commands understood; each other one gives one error. */
int mgw3d_cmd_parse(const char *msg, size_t len, uint32_t monitor_id, const mgw3d_sink_t *sink);

/* ---- mgw3d_replay.c: the monitor log as a list of expressions (pure) ---- */
typedef struct mgw3d_replay {
    char   *text;          /* the file, lines NUL-terminated in place */
    char  **line;          /* each expression */
    size_t *len;
    int     n;
    int     dropped;       /* lines that were not one complete expression */
} mgw3d_replay_t;
/* Split text (taken over; freed by mgw3d_replay_free) into its expressions: the first
 * must be (Init ...); every other line one complete expression ((Info ...), (Die));
 * blank lines are skipped; a line that is not one complete expression (a cut last
 * line) is dropped and counted. 0, or -1 with err. */
int  mgw3d_replay_load(mgw3d_replay_t *r, char *text, size_t len, char *err, size_t errlen);
void mgw3d_replay_free(mgw3d_replay_t *r);

/* ---- the process ---- */
struct event_base;
struct event;
struct bufferevent;

typedef struct mgw3d_peer {
    struct mgw3d       *g;
    struct bufferevent *bev;
    int       used;
    int       index;
    uint16_t  gen;         /* bumped per connection in this entry */
    int       mode;        /* MGW3D_MODE_*: how it talks, from its first bytes */
    struct event *detect;  /* MGW3D_DETECT_MS after connecting: lines if still silent */
    int       fed;         /* got a full Info: deltas from now on */
    uint64_t  skipped;     /* Infos dropped because it did not read */
} mgw3d_peer_t;

typedef struct mgw3d_log {
    FILE          *f;
    int            fed;
    char           path[CONF_STR_LEN];
} mgw3d_log_t;

typedef struct mgw3d {
    shm3d_handle_t          shm;
    shm3d_region_sh_t      *r;
    shm3d_proc_sh_t        *self;
    conf3d_t                conf;
    struct event_base      *base;
    shm_gwloop_t            loop;            /* cycle_sem posts, heartbeat, signals */
    uint64_t                last_step, ev_cursor;
    uint64_t                info_step;       /* snapshot of the last Info sent */
    shm3d_snapshot_sh_t     snap;
    mgw3d_state_t           stream;          /* after the last Info step */
    mgw3d_peer_t            peer[MGW3D_MAX_PEERS];
    int                     npeers, max_peers;
    mgw3d_log_t             log;
    struct mgw3d_http      *http;            /* browser view, NULL when off */
    char                    init[MGW3D_INFO_LEN];
    int                     init_len;
    char                    full[MGW3D_INFO_LEN], delta[MGW3D_INFO_LEN];
    char                    msg[MGW3D_MSG_MAX + 1];
} mgw3d_t;

/* mgw3d_peer.c */
int  mgw3d_peer_open(mgw3d_t *g, int fd);
void mgw3d_peer_close(mgw3d_t *g, mgw3d_peer_t *p);
/* An Info step: full to new monitors, delta (may be -1: none) to the others. */
void mgw3d_peer_info(mgw3d_t *g, const char *full, int full_len, const char *delta, int delta_len);
void mgw3d_peer_ack(mgw3d_t *g, uint32_t monitor_id, const char *cookie, size_t n);
/* A message (an "(error ...)" of the sim) to one monitor, if it is still connected. */
void mgw3d_peer_text(mgw3d_t *g, uint32_t monitor_id, const char *text, size_t n);
/* (Die) to every monitor, written out before returning (bounded wait). */
void mgw3d_peer_die(mgw3d_t *g);

/* mgw3d_http.c: the browser view on server::http_port (GET / the page, GET /events a
 * server-sent-events stream of JSON frames, one per Info step) */
struct mgw3d_http;
int  mgw3d_http_start(mgw3d_t *g);
void mgw3d_http_frame(mgw3d_t *g);
void mgw3d_http_stop(mgw3d_t *g);
extern const char mgw3d_page_html[];

/* mgw3d_log.c */
/* Open the log for appending (directory created); the Init goes first into an empty
 * file. 0, or -1 (logged; the server runs without a log). */
int  mgw3d_log_open(mgw3d_log_t *l, const char *path, const char *init, int init_len);
void mgw3d_log_info(mgw3d_log_t *l, const char *full, int full_len, const char *delta,
                    int delta_len);
void mgw3d_log_close(mgw3d_log_t *l, int die);

#endif
