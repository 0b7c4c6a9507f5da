/* netgw_coach.h -- the trainer and online-coach protocol as pure functions (see
 * docs/protocol/coach.md): the first datagram on the trainer / online-coach port, every
 * later command parsed into a coach_cmd_t (netgw_coachcmd.c), the visual messages built
 * from a snapshot (see_global, ok look, check_ball, team_names: netgw_coachsee.c) and
 * the hear / notice formats coaches and players get for coach traffic
 * (netgw_coachhear.c). No I/O and no process state: the sessions in netgw_trainer.c and
 * netgw_olcoach.c call these, tests link them directly. Builders write a NUL-terminated
 * message into buf and return its length, or -1 if buf was too small. */
#ifndef RCSS_NETGW_COACH_H
#define RCSS_NETGW_COACH_H

#include <stddef.h>
#include "clang.h"
#include "conf.h"
#include "shm_layout.h"

#define COACH_REPLY_LEN   192       /* longest immediate reply */
#define COACH_TEXT_MAX    8192      /* a say message / tile / clang text */
#define COACH_NAME_MAX    128       /* team or coach name as read */

/* listener kinds for the hear builders */
#define COACH_TRAINER     0
#define COACH_ONLINE      1

enum {
    COACH_NONE,          /* nothing to do but the reply (if any) */
    COACH_START,         /* (start) */
    COACH_CHANGE_MODE,   /* mode */
    COACH_MOVE,          /* ball or team/unum; nnum numbers in d[] (2, 3 or 5) */
    COACH_LOOK,
    COACH_TEAM_NAMES,
    COACH_RECOVER,
    COACH_CHECK_BALL,
    COACH_SAY,           /* trainer / v<7 coach: raw text; v7+ coach: parsed clang */
    COACH_EAR,           /* on */
    COACH_EYE,           /* on */
    COACH_CHANGE_TYPE,   /* team (trainer), unum, type */
    COACH_GOALIE,        /* (change_player_type UNUM goalie) */
    COACH_DONE,
    COACH_COMPRESSION,   /* level */
    COACH_TEAM_GRAPHIC,  /* tx, ty; text = the quoted XPM lines, tabs as spaces */
    COACH_BYE,
    COACH_RESET          /* trainer (reset): the match back to its start (this server) */
};

typedef struct coach_cmd {
    int    kind;                   /* COACH_* */
    char   reply[COACH_REPLY_LEN]; /* immediate error / ok reply, "" if none */
    int    on;                     /* ear / eye */
    int    mode;                   /* change_mode: PM_* */
    int    ball;                   /* move: 1 the ball, 0 a player */
    char   team[COACH_NAME_MAX];   /* move / trainer change_player_type */
    int    unum;
    int    nnum;                   /* move: numbers given after the object (2, 3 or 5) */
    double d[5];                   /* move: x y [dir [vx vy]] */
    int    type;                   /* change_player_type */
    int    level;                  /* compression */
    unsigned tx, ty;               /* team_graphic tile */
    int    xpm_ok;                 /* team_graphic: the XPM data parsed */
    int    xw, xh;                 /* team_graphic: its width and height */
    int    bad;                    /* v<7 say: the text does not parse (reply ready) */
    clang_msg_t clang;             /* v7+ coach say: type, version span */
    size_t len;                    /* bytes of text */
    char   text[COACH_TEXT_MAX];   /* say text / clang canonical form / XPM strings */
} coach_cmd_t;

/* ---- first datagrams (netgw_coachcmd.c) ---- */
/* Trainer port: 1 and *version for (init [(version V)]), 0 for any other command (the
 * reference then kicks off and runs it without registering the sender), -1 with the
 * error reply in err. */
int coach_parse_trainer_init(const char *text, double *version, char *err, size_t errlen);

/* Online-coach port: (init TEAM [COACH] [(version V)]). 0 with team, coach ("" if none,
 * cut to coachlen-1) and version (5 if absent), or -1 with the error reply in err. */
int coach_parse_olcoach_init(const char *text, char *team, size_t teamlen, char *coach,
                             size_t coachlen, double *version, char *err, size_t errlen);

/* ---- commands (netgw_coachcmd.c) ---- */
/* One datagram of the connected trainer. say_max = server::say_coach_msg_size. */
void coach_parse_trainer(const char *text, int say_max, coach_cmd_t *out);
/* One datagram of a connected online coach of the given protocol version; w is the
 * workspace for a v7+ say (the clang message's canonical text goes to out->text). */
void coach_parse_olcoach(const char *text, double version, int say_max, clang_work_t *w,
                         coach_cmd_t *out);

/* ---- visual (netgw_coachsee.c) ---- */
/* see_global (look = 0) or the (ok look ...) reply (look = 1) for a coach of the given
 * version; side is the coach's side (SHM_SIDE_NONE for the trainer), which decides
 * whether opponents carry server::fixed_teamname_l/r. */
int coach_visual(const shm_snapshot_sh_t *s, const conf_t *c, double version, int side,
                 int look, char *buf, size_t len);
/* (ok check_ball TIME in_field|goal_l|goal_r|out_of_field) */
int coach_check_ball(const shm_snapshot_sh_t *s, const conf_t *c, char *buf, size_t len);
/* (ok team_names [(team l A)] [(team r B)]) followed by a newline, as the reference */
int coach_team_names(const char team[2][SHM_TEAM_NAME_LEN], const conf_t *c, int side,
                     char *buf, size_t len);
/* The name of player p as coach `side` sees it: (p "TEAM" N[ goalie]) from v7, else
 * (player TEAM N). */
int coach_player_name(const shm_player_sh_t *p, const char team[2][SHM_TEAM_NAME_LEN],
                      const conf_t *c, double version, int side, char *buf, size_t len);

/* ---- hear and notices (netgw_coachhear.c) ---- */
/* The referee, as the trainer (all versions: name first) or an online coach hears it. */
int coach_hear_referee(int listener, double version, int time, const char *msg,
                       char *buf, size_t len);
/* A trainer say (sender_side 0) or a v<7 coach's freeform (sender_side = its side), as
 * a trainer / online coach / player of the given version hears it; 0 (nothing) for an
 * online coach hearing another online coach. */
int coach_hear_coach_say(int listener, double version, int sender_side, int time,
                         const char *msg, char *buf, size_t len);
int coach_hear_coach_say_player(double version, int sender_side, int time, const char *msg,
                                char *buf, size_t len);
/* A released clang message: to a player of the coach's side (msg or (unsupported_clang)
 * by its clang range), or to the trainer (quoted from v7). */
int coach_hear_clang_player(int sender_side, int time, const char *msg, int supported,
                            char *buf, size_t len);
int coach_hear_clang_trainer(double version, int sender_side, int time, const char *msg,
                             char *buf, size_t len);
/* A player's say as a coach hears it; name from coach_player_name. */
int coach_hear_player(int listener, double version, int time, const char *name,
                      const char *msg, char *buf, size_t len);
/* Substitution notices: own team (change_player_type U T), others (change_player_type U);
 * goalie change (change_player_type l|r U goalie). */
int coach_notice_type(int own, int unum, int type, char *buf, size_t len);
int coach_notice_goalie(int side, int unum, char *buf, size_t len);

#endif
