/* e2e_trainer.h -- a trainer for end-to-end tests: connects to server::coach_port of a
 * server started with "server::coach=true" (referee off) or "server::coach_w_referee=true",
 * sets scenes in a few lines and reads the world back. The sim applies trainer commands
 * at its next step (like every command), so a scene set now is in the next snapshot:
 * look at it with e2e_trainer_wait_cycles() (see_global) or e2e_trainer_look().
 *
 *     e2e_trainer_t t;
 *     e2e_world_t w;
 *     cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
 *     e2e_trainer_move_ball(&t, 10.0, 5.0, 1.0, 0.0);         // position and velocity
 *     e2e_trainer_move_player(&t, "TeamA", 1, -10.0, 0.0, 90.0, 0.0, 0.0);
 *     e2e_trainer_change_mode(&t, "play_on");
 *     e2e_trainer_wait_cycles(&t, 1, &w);                      // the scene, one step on
 *     cr_expect_float_eq(w.ball.x, 11.0, 1e-9);
 *     e2e_obj_t *p = e2e_world_player(&w, "TeamA", 1);         // NULL if not on the field
 *
 * Every call waits (up to 2 s) for what it implies and returns 0, or -1 on a timeout or
 * an (error ...)/(warning ...) reply (kept in t->last). Messages that arrive meanwhile
 * (hear, see_global) are skipped; a (think) is answered with (done), so a trainer with
 * its eye on never holds a synch-mode server. */
#ifndef RCSS_E2E_TRAINER_H
#define RCSS_E2E_TRAINER_H

#include <stddef.h>
#include "e2e.h"

typedef struct e2e_obj {
    int    present;            /* in the message (players: connected) */
    int    goalie;
    double x, y, vx, vy;       /* m, m/cycle, left-team coordinates */
    int    body, neck;         /* deg (neck relative to body) */
} e2e_obj_t;

typedef struct e2e_world {
    int       time;
    e2e_obj_t ball;
    char      team[2][32];     /* team names in the order they appear (left first) */
    e2e_obj_t player[2][11];   /* by team[] index, then unum - 1 */
} e2e_world_t;

typedef struct e2e_trainer {
    int    fd;
    int    port;               /* the server's socket for this trainer */
    int    init_port;          /* server::coach_port */
    double version;
    char   last[8192];         /* the last reply or message read */
} e2e_trainer_t;

/* (init (version V)) and wait for (init ok) and the parameter messages. */
int  e2e_trainer_connect(e2e_trainer_t *t, const e2e_server_t *s, double version);
void e2e_trainer_close(e2e_trainer_t *t);

/* Send any command and wait for its reply, the first datagram starting with "(ok ",
 * "(error " or "(warning " (into t->last). 0 for ok, -1 otherwise. */
int  e2e_trainer_cmd(e2e_trainer_t *t, const char *cmd);
/* Send cmd again and again (every 20 ms) until its ok reply contains want, e.g. a (look)
 * until the world shows a scene: 0, or -1 if that did not happen within timeout_ms (the
 * last reply in t->last). */
int  e2e_trainer_cmd_until(e2e_trainer_t *t, const char *cmd, const char *want,
                           int timeout_ms);

int  e2e_trainer_move_ball(e2e_trainer_t *t, double x, double y, double vx, double vy);
/* dir in degrees; velocity too */
int  e2e_trainer_move_player(e2e_trainer_t *t, const char *team, int unum, double x, double y,
                             double dir, double vx, double vy);
int  e2e_trainer_change_mode(e2e_trainer_t *t, const char *mode);
int  e2e_trainer_start(e2e_trainer_t *t);
int  e2e_trainer_recover(e2e_trainer_t *t);
int  e2e_trainer_say(e2e_trainer_t *t, const char *msg);
int  e2e_trainer_change_type(e2e_trainer_t *t, const char *team, int unum, int type);

/* (look): the newest published world. */
int  e2e_trainer_look(e2e_trainer_t *t, e2e_world_t *w);
/* Turn the eye on (once) and wait for n see_global messages; w gets the last one. */
int  e2e_trainer_wait_cycles(e2e_trainer_t *t, int n, e2e_world_t *w);

/* ---- groups: several clients of a synch-mode server stepped one cycle at a time ----
 * Every datagram a member receives is kept in order; a (think) is answered with (done)
 * at once, except a holding member's: the server then waits for it, so between two
 * e2e_group_step() calls the world stands still at a known cycle and what members send
 * meanwhile is received in that cycle. Start the server with server::synch_mode=true
 * and a long server::synch_timeout.
 *
 *     e2e_group_t g;
 *     e2e_group_init(&g);
 *     e2e_client_t *h = e2e_group_join(&g, "A1", s.port, "(init TeamA (version 19))", 1);
 *     e2e_client_t *c = e2e_group_join(&g, "coach", s.olcoach_port, "(init TeamA (version 19))", 0);
 *     e2e_group_step(&g, h, 1);
 *     e2e_group_cmd(&g, c, "(say (freeform \"hi\"))", buf, sizeof buf);   // "(ok say)"
 *     e2e_group_step(&g, h, 1);
 *     e2e_group_wait(&g, h, "(hear 0 online_coach_left", buf, sizeof buf, 2000);
 */
#define E2E_GROUP_MAX 32

typedef struct e2e_client {
    int    fd;
    int    port;               /* the server's socket for it (from its first reply) */
    int    hold;               /* its (think)s wait for e2e_group_step() */
    int    thinks;             /* (think)s not yet answered */
    char   name[16];
    char **msg;                /* datagrams received and not yet consumed, in order */
    int    nmsg, cap;
} e2e_client_t;

typedef struct e2e_group {
    e2e_client_t c[E2E_GROUP_MAX];
    int          n;
} e2e_group_t;

void e2e_group_init(e2e_group_t *g);
/* A new member: sends init to port, waits for a reply starting with "(init", "(reconnect"
 * or "(error" (kept in its messages: read it with e2e_group_wait). NULL on timeout. */
e2e_client_t *e2e_group_join(e2e_group_t *g, const char *name, int port, const char *init,
                             int hold);
/* Read what arrives for ms milliseconds (answering (think)s). */
void e2e_group_pump(e2e_group_t *g, int ms);
/* The first kept message of c starting with prefix within timeout_ms: copied into buf,
 * it and every message before it are consumed. Its length, 0 on timeout. */
int  e2e_group_wait(e2e_group_t *g, e2e_client_t *c, const char *prefix, char *buf,
                    size_t len, int timeout_ms);
/* Send cmd on c's socket and wait for the first "(ok ", "(error " or "(warning ".
 * 0 for an ok, -1 otherwise (the reply in buf, "" on timeout). */
int  e2e_group_cmd(e2e_group_t *g, e2e_client_t *c, const char *cmd, char *buf, size_t len);
/* The same without sending: the next reply of c (one the sim decides comes a step
 * after the command). */
int  e2e_group_reply(e2e_group_t *g, e2e_client_t *c, char *buf, size_t len);
/* n cycles: answer the holder's waiting (think), then wait for its next one. 0 or -1. */
int  e2e_group_step(e2e_group_t *g, e2e_client_t *holder, int n);
/* Kept messages of c starting with prefix (not consumed). */
int  e2e_group_count(const e2e_client_t *c, const char *prefix);
/* Forget c's kept messages. */
void e2e_group_clear(e2e_client_t *c);
/* Close every member. */
void e2e_group_close(e2e_group_t *g);

/* Parse a v7+ (see_global T ...) or (ok look T ...) message. 0 or -1. */
int  e2e_parse_visual(const char *msg, e2e_world_t *w);
/* A player of a parsed world by team name and number; NULL if absent. */
e2e_obj_t *e2e_world_player(e2e_world_t *w, const char *team, int unum);

#endif
