/* netgw_proto.h -- the player protocol as pure functions: messages built from a snapshot
 * (sense_body, see, parameter messages) and player datagrams parsed into command records.
 * No I/O and no process state: the gateway's files that send (netgw/netgw_cycle.c,
 * netgw_client.c, netgw_port.c, player/netgw_audio.c) call these, tests link them
 * directly. Every builder writes a NUL-terminated message into buf and returns its
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

/* View cone half-angle (rad; from server::visible_angle, c may be NULL for 90) and see
 * period for a client:
 * async: period in quarter send_steps (2/4/8, halved for low quality);
 * synch-see: period in cycles (1/2/3). */
double proto_view_angle(const shm_client_sh_t *cl, const conf_t *c);
int    proto_see_period(const shm_client_sh_t *cl);

/* ---- fullstate (netgw_full.c; docs/protocol/player.md §8) ---- */
/* (fullstate ...) for player idx by its client's version; 0 (buf "") for v1-v4, which
 * have none. proto_fullstate_on: 1 if server::fullstate_l/_r is on for side. */
int proto_fullstate(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
                    char *buf, size_t len);
int proto_fullstate_on(const conf_t *c, int side);

/* ---- hear (netgw_hear.c; docs/protocol/player.md §7) ---- */
/* A player's say as a v1-v7 listener hears it when it is said: (hear T DIR MSG) with
 * DIR truncated (v1-v6), (hear T DIR "MSG") with DIR rounded (v7). dir_rad: direction
 * of the speaker relative to the listener's body. */
int proto_hear_say_now(double version, int time, double dir_rad, const char *msg,
                       char *buf, size_t len);
/* v8+: (hear T DIR our UNUM "MSG") / (hear T DIR opp "MSG"), DIR truncated; partial
 * forms (hear T our UNUM) / (hear T opp). */
int proto_hear_say_full(int time, double dir_rad, int own, int unum, const char *msg,
                        char *buf, size_t len);
int proto_hear_say_partial(int time, int own, int unum, char *buf, size_t len);
/* (hear T self MSG), quoted from v7 */
int proto_hear_self(double version, int time, const char *msg, char *buf, size_t len);
/* the trainer (sender_side 0: "referee" before v7, "coach" from v7) or a v<7 online
 * coach's freeform (online_coach_left/right); quoted from v7 */
int proto_hear_coach(double version, int sender_side, int time, const char *msg, char *buf,
                     size_t len);
int proto_hear_referee(int time, const char *msg, char *buf, size_t len);
/* v8+ release of one cached message of another player: full form if the capacity for
 * the speaker's team is >= hear_decay and complete hearing of that team is on (nothing
 * if it is off); partial form if the capacity is short and partial hearing is on. */
enum { PROTO_HEAR_NONE, PROTO_HEAR_FULL, PROTO_HEAR_PARTIAL };
int proto_hear_decide(int cap, int hear_decay, int complete, int partial);
/* Which of n cached messages (speaker[i] = player index) comes next: one of the
 * attention target's (focus, -1 none) if it has any, else any; at random among them. */
int proto_hear_pick(const int *speaker, int n, int focus, rng_t *rng);
/* the capacity after one step: + hear_inc, at most hear_max */
int proto_hear_refill(int cap, int hear_inc, int hear_max);

/* ---- player datagrams (netgw_playercmd.c) ---- */
#define PROTO_MAX_ITEMS    128     /* commands kept from one datagram (the rest is dropped) */
#define PROTO_REPLY_LEN    256

/* what one command of a datagram asks for, in textual order */
enum {
    PROTO_IT_CMD,          /* cmd: a record for the player's ring (the sim applies it) */
    PROTO_IT_REPLY,        /* reply: sent at once ("(error illegal_command_form)" ...) */
    PROTO_IT_CHANGE_VIEW,  /* a = SHM_VIEW_*, b = 1 high / 0 low, c = 1 one-argument form */
    PROTO_IT_SYNCH_SEE,
    PROTO_IT_GAUSSIAN_SEE,
    PROTO_IT_SENSE_BODY,
    PROTO_IT_SCORE,
    PROTO_IT_DONE,
    PROTO_IT_BYE,
    PROTO_IT_COMPRESSION,  /* a = zlib level 0..9, -1 off */
    PROTO_IT_CLANG,        /* a = min, b = max */
    PROTO_IT_EAR           /* a = on; b = teams (bit0 own, bit1 opponents);
                              c = modes (bit0 complete, bit1 partial) */
};

typedef struct proto_item {
    int kind;                      /* PROTO_IT_* */
    int a, b, c;
    union {
        shm_cmd_sh_t cmd;
        char         reply[PROTO_REPLY_LEN];
    };
} proto_item_t;

typedef struct proto_parsed {
    proto_item_t item[PROTO_MAX_ITEMS];
    int          n;
    int          error;            /* the parse stopped at an ill-formed command */
    int          dropped;          /* commands beyond PROTO_MAX_ITEMS */
} proto_parsed_t;

/* Parse every command of a datagram, in order, with the reference's grammar and token
 * rules. The body-slot rule (first body command of a cycle wins) is the sim's; here each
 * command becomes an item. The first ill-formed command ends the parse with an
 * "(error illegal_command_form)" item; the commands before it stay, as in the
 * reference. side, own_team and opp_team resolve ear/attentionto team words. */
void proto_parse_player(const char *text, size_t len, double version, int side,
                        const char *own_team, const char *opp_team, proto_parsed_t *out);

/* Bytes of a reconnect token (sent as 2 * PROTO_TOKEN_LEN hex digits). */
#define PROTO_TOKEN_LEN 16
/* The token as the init reply carries it: " (token HEX)" (buf >= 2 * LEN + 10). */
void proto_token_format(const uint8_t token[PROTO_TOKEN_LEN], char *buf, size_t len);

/* The first datagram on the player port: (init TEAM [(version V)] [(goalie)]) or
 * (reconnect TEAM UNUM [(token HEX)]), scanned as the reference does. Returns 0 and fills the fields,
 * or -1 with the reply the reference gives ("(error illegal_teamname)",
 * "(error illegal_command_form)", "(error unknown_command)" ...). The version is not
 * checked here (proto_version_ok): the reference chooses the team first. */
typedef struct proto_init {
    int    reconnect;              /* 1 for (reconnect TEAM UNUM) */
    char   team[SHM_TEAM_NAME_LEN];
    double version;                /* as sent; 3.0 if absent */
    int    goalie;
    int    unum;                   /* reconnect only (may be out of range) */
    int    form_error;             /* reconnect: TEAM or UNUM missing; the reference
                                      answers (error illegal_command_form) and still
                                      looks the player up (and fails) */
    int    team_too_long;          /* reconnect: a name no team can have */
    int    has_token;              /* reconnect: (token HEX) followed the number */
    uint8_t token[PROTO_TOKEN_LEN]; /* its value (server::reconnect_token) */
} proto_init_t;
int proto_parse_init(const char *text, size_t len, proto_init_t *out, char *err, size_t errlen);
/* 1 if the integer part of version is a protocol that exists (1..19) */
int proto_version_ok(double version);

#endif
