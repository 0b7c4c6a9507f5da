/* agw3d.h -- rcss3d-agentgw, the 3D server's agent gateway: agents over TCP (port 3100)
 * and agents the gateway starts itself from server::agent_list, talking either
 * length-prefixed S-expressions (frame.h) over a socket pair on their descriptor 3, or
 * the SPADES framing of the 2004 ComServer over two pipes on descriptors 3 and 4
 * (agw3d_spades.c, docs/protocol/3d.md §7). It turns effector messages into command
 * records for the sim (agw3d_cmd.c, pure), and sends each robot its perceptions from
 * the snapshots (agw3d_percept.c, pure). Connections: agw3d_conn.c; the agent list:
 * agw3d_spawn.c; the loop: agw3d_main.c. */
#ifndef RCSS_AGW3D_H
#define RCSS_AGW3D_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include "conf3d.h"
#include "shm.h"
#include "shm3d.h"
#include "shm_gwloop.h"

#define AGW3D_MSG_MAX      65536       /* longest agent message */
#define AGW3D_OUT_MAX      (4u << 20)  /* output queued for one agent before percepts drop */
#define AGW3D_PERCEPT_LEN  16384       /* one perception message */
#define AGW3D_LIST_MAX     SHM3D_MAX_AGENTS
#define AGW3D_ARGS_MAX     32
#define AGW3D_LINE_MAX     1024

/* ---- agw3d_cmd.c: effector messages (pure) ---- */
typedef struct agw3d_sink {
    void (*record)(void *ctx, const shm3d_cmd_sh_t *c);  /* an effector for the sim */
    void (*error)(void *ctx, const char *text);          /* "(error ...)" for the agent */
    void (*syn)(void *ctx);                              /* (syn): the answer is complete */
    void  *ctx;
} agw3d_sink_t;

/* Every expression of one message, in order. Returns how many were understood;
 * each one that was not gives one error (never a record). */
int agw3d_cmd_parse(const char *msg, size_t len, const agw3d_sink_t *sink);

/* ---- agw3d_percept.c: perceptions (pure) ---- */
/* The perception of robot slot in snapshot s: GameState (when first: the robot's unum
 * and side and the game variables, then time and play mode), AgentState, Vision. Returns the length, or
 * -1 if it did not fit. */
int agw3d_percept(const shm3d_snapshot_sh_t *s, int slot, int first, const conf3d_t *c,
                  char *buf, size_t len);

/* ---- agw3d_spades.c: the SPADES framing of the 2004 ComServer (pure) ---- */
/* A message is a 4-byte big-endian length and that many bytes, the first of which is
 * the message's type. From the agent: I (initialisation done), A<effectors> (act), D
 * (done thinking). To the agent: D<data> (initialisation data, empty), S<send>
 * <arrive> <perception> (a sensation: think), K<time> (think time; never sent here),
 * X (exit). */
#define AGW3D_SP_MAX AGW3D_MSG_MAX   /* longest message from an agent */

typedef struct agw3d_sp_msg {
    char        type;      /* 'I', 'A' or 'D' */
    const char *data;      /* the bytes after the type (not NUL-terminated) */
    size_t      len;
} agw3d_sp_msg_t;

/* The first message of buf (have bytes): 1 with *m and *used (the frame's bytes), 0 if
 * more bytes are needed, -1 with a reason in err for a frame no agent may send: longer
 * than max, empty, of an unknown type, with a NUL byte, or an I or D carrying data. */
int agw3d_spades_next(const uint8_t *buf, size_t have, size_t max, agw3d_sp_msg_t *m,
                      size_t *used, char *err, size_t errlen);
/* What a stream that ended with have bytes unread was in the middle of ("a message cut
 * short: 7 of 40 bytes"), or "" if have is 0. */
void agw3d_spades_cut(const uint8_t *buf, size_t have, char *out, size_t len);
/* The text of a sensation: "S<send> <arrive> " then the errors queued for the agent and
 * the perception. Its length, or -1 if it does not fit in out. */
int  agw3d_spades_sense(char *out, size_t len, uint64_t send, uint64_t arrive,
                        const char *errors, size_t elen, const char *percept, size_t plen);

/* ---- agw3d_spawn.c: the agent list ---- */
#define AGW3D_FRAMING_PLAIN  0     /* length-prefixed S-expressions on descriptor 3 */
#define AGW3D_FRAMING_SPADES 1     /* the SPADES framing: reads 3, writes 4 */

typedef struct agw3d_cmdline {
    int  argc;
    int  framing;          /* AGW3D_FRAMING_* */
    char argv[AGW3D_ARGS_MAX][AGW3D_LINE_MAX / 4];
} agw3d_cmdline_t;

/* One agent per line: the program and its arguments, blank-separated, '...' or "..."
 * keep blanks, # starts a comment. Words of the form option=value before the program
 * are options: framing=spades (or plain, the default). Returns the number of agents,
 * -1 with err. */
int agw3d_list_parse(const char *text, agw3d_cmdline_t *out, int max, char *err, size_t errlen);

/* ---- the process ---- */
struct event_base;
struct event;
struct bufferevent;

typedef struct agw3d_conn {
    struct agw3d       *g;
    struct bufferevent *bev;
    int       used;
    int       slot;            /* -1 while it waits for its (init) */
    int       created;         /* pending: (create) came and waits for the slot */
    uint64_t  last_ns;         /* pending: when it last sent something, or connected */
    struct sockaddr_storage peer;  /* TCP peer (family 0: none) */
    uint32_t  generation;
    int       kind;            /* SHM3D_KIND_* */
    pid_t     pid;             /* pipe agent */
    int       greeted;         /* its first GameState went out */
    uint64_t  sensed_step;     /* snapshot of the last perception sent */
    uint64_t  dropped;         /* perceptions not sent: the agent does not read */
    int       framing;         /* AGW3D_FRAMING_* */
    struct bufferevent *bin;   /* SPADES: the pipe read (bev only writes), else NULL */
    int       sp_state;        /* SPADES: AGW3D_SP_* below */
    size_t    sp_elen;         /* SPADES: errors queued for the next sensation */
    char      sp_err[512];
} agw3d_conn_t;

#define AGW3D_SP_STARTING 0    /* the init data went out; waits for I */
#define AGW3D_SP_READY    1    /* gets the next sensation */
#define AGW3D_SP_THINKING 2    /* a sensation went out; waits for D */

typedef struct agw3d {
    shm3d_handle_t          shm;
    shm3d_region_sh_t      *r;
    shm3d_proc_sh_t        *self;
    conf3d_t                conf;
    struct event_base      *base;
    shm_gwloop_t            loop;            /* cycle_sem posts, heartbeat, signals */
    uint64_t                last_step;
    uint64_t                ev_cursor;
    shm3d_snapshot_sh_t     snap;
    agw3d_conn_t            conn[SHM3D_MAX_AGENTS];
    agw3d_conn_t           *pend;            /* connections without a slot yet */
    int                     npend;           /* entries of pend: pending_max + pipe agents */
    pid_t                   child[AGW3D_LIST_MAX];   /* pipe agents started, 0 when gone */
    int                     nchild;
    char                    out[AGW3D_PERCEPT_LEN];
    char                    sense[AGW3D_PERCEPT_LEN + 1024];
    char                    msg[AGW3D_MSG_MAX + 1];
} agw3d_t;

/* agw3d_conn.c */
/* The table of connections waiting for their (init): 0, or -1. */
int  agw3d_conn_setup(agw3d_t *g);
/* A connection on fd (TCP peer or our end of a pipe agent's socket pair). It takes a
 * robot slot with its first (init); until then it waits among the pending ones (at
 * most server::pending_max TCP ones: a new one closes the one silent the longest) and
 * a TCP one silent for server::init_timeout_ms is closed. 0, or -1 (fd closed). An
 * (init) that finds no free slot is answered "(error server_full)" and closed. */
int  agw3d_conn_open(agw3d_t *g, int fd, int kind, pid_t pid, const struct sockaddr *peer);
/* A SPADES agent on two pipes (our ends: fd_in reads its descriptor 4, fd_out writes
 * its descriptor 3); it is sent the initialisation data at once. 0, or -1 (closed). */
int  agw3d_conn_open_spades(agw3d_t *g, int fd_in, int fd_out, pid_t pid);
/* At the end: X to every SPADES agent, written out before the connection closes. */
void agw3d_conn_bye(agw3d_t *g);
void agw3d_conn_close(agw3d_t *g, agw3d_conn_t *c);
/* Close the TCP connections silent too long before their (init); how many. */
int  agw3d_conn_sweep(agw3d_t *g);
/* Free the slots a previous gateway left (their connections died with it). */
void agw3d_conn_takeover(agw3d_t *g);
/* Per snapshot: perceptions to every robot on a sense step. */
void agw3d_conn_snapshot(agw3d_t *g);
/* Send one message (framed) to a connection; 0, or -1 if its queue is full. To a SPADES
 * agent (whose framing has no such message) the text waits for its next sensation. */
int  agw3d_conn_send(agw3d_conn_t *c, const char *text, size_t len);
agw3d_conn_t *agw3d_conn_by_slot(agw3d_t *g, int slot, uint32_t generation);

/* agw3d_spawn.c */
/* Start every agent of server::agent_list. 0, or -1 (logged). */
int  agw3d_spawn_list(agw3d_t *g);
/* Reap exited agents (SIGCHLD). */
void agw3d_spawn_reap(agw3d_t *g);
/* SIGTERM every agent still running, wait, SIGKILL the rest: by pid. */
void agw3d_spawn_stop(agw3d_t *g);

#endif
