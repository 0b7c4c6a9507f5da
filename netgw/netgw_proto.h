/* netgw_proto.h -- the player protocol as pure functions: messages built from a snapshot
 * (sense_body, see, parameter messages) and player datagrams parsed into command records.
 * No I/O and no process state: netgw_main/netgw_udp/netgw_client call these, tests link
 * them directly. Every builder writes a NUL-terminated message into buf and returns its
 * length without the NUL, or -1 if buf was too small. */
#ifndef RCSS_NETGW_PROTO_H
#define RCSS_NETGW_PROTO_H

#include <stddef.h>
#include "conf.h"
#include "rng.h"
#include "shm_layout.h"

/* Parameter messages after init: common/param_msg.h. */

/* ---- per-cycle sensors (netgw_sense.c, netgw_see.c) ---- */
/* sense_body for player index idx (shm_player_index) of the given client, by version. */
int proto_sense_body(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
                     const conf_t *c, char *buf, size_t len);

/* see for player idx: landmarks, ball, players, lines with the noise and quantisation of
 * the client's protocol version and view mode (cl->view_width/view_high/synch_see/
 * gaussian_see). rng supplies the gateway-side randomness (hidden-team/unum and change
 * probabilities, gaussian noise); the sim's rng is never used here. */
int proto_see(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
              const conf_t *c, const shm_ptypes_sh_t *pt, rng_t *rng, char *buf, size_t len);

/* View cone half-angle (rad) and see period for a client:
 * async: period in quarter send_steps (2/4/8, halved for low quality);
 * synch-see: period in cycles (1/2/3). */
double proto_view_angle(const shm_client_sh_t *cl);
int    proto_see_period(const shm_client_sh_t *cl);

/* ---- player datagrams (netgw_cmd.c) ---- */
#define PROTO_MAX_CMDS     16
#define PROTO_MAX_REPLIES  8
#define PROTO_REPLY_LEN    160

/* What one datagram from a connected player asks for. Records in cmd[] go to the
 * player's command ring (sim applies them); the rest is handled by the gateway. */
typedef struct proto_parsed {
    shm_cmd_sh_t cmd[PROTO_MAX_CMDS];
    int          ncmd;
    char         reply[PROTO_MAX_REPLIES][PROTO_REPLY_LEN]; /* "(error illegal_command_form)" ... */
    int          nreply;
    int          view_width;       /* SHM_VIEW_* to set, -1 unchanged */
    int          view_high;        /* 1/0 to set, -1 unchanged */
    int          synch_see;        /* 1 switch on */
    int          gaussian_see;     /* 1 switch on */
    int          sense_body;       /* 1 send a sense_body now */
    int          score;            /* 1 reply (score T OUR THEIR) */
    int          done;             /* 1 (done) seen */
    int          bye;              /* 1 (bye) seen */
    int          compression;      /* 0..9 to set, -1 unchanged */
    int          clang_min, clang_max; /* (clang (ver a b)): both > 0 to set */
    int          ear_set;          /* bit mask of ear[] entries to set */
    int          ear[4];           /* [0] our complete, [1] opp complete, [2] our partial, [3] opp partial */
} proto_parsed_t;

/* Parse every command of a datagram, in order. The body-slot rule (first body command of
 * a cycle wins) is the sim's; here each command becomes a record. Unknown or ill-formed
 * commands add "(error illegal_command_form)" and stop the parse, as the reference (commands
 * before the error stay valid). team_name and side resolve ear/attentionto arguments. */
void proto_parse_player(const char *text, size_t len, double version, int side,
                        const char *own_team, const char *opp_team, proto_parsed_t *out);

/* The first datagram on the player port: (init TEAM [(version V)] [(goalie)]) or
 * (reconnect TEAM UNUM). Returns 0 and fills the fields, or -1 with the error reply
 * the reference gives ("(error illegal_teamname)", "(error illegal_command_form)" ...). */
typedef struct proto_init {
    int    reconnect;              /* 1 for (reconnect TEAM UNUM) */
    char   team[SHM_TEAM_NAME_LEN];
    double version;                /* 3.0 if absent */
    int    goalie;
    int    unum;                   /* reconnect only */
} proto_init_t;
int proto_parse_init(const char *text, size_t len, proto_init_t *out, char *err, size_t errlen);

#endif
