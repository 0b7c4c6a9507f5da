/* e2e_ref.h -- lockstep matches for the referee's end-to-end tests (test_030..039): a
 * synch-mode server with the referee on (server::coach_w_referee=true), v19 players and
 * a trainer with its eye and ear on, all answering every (think) with (done) only when
 * the test says so. One e2e_ref_cycle() is exactly one simulation step: the commands
 * queued for each client go out, every client sends (done), and the call returns when
 * every client got the next (think); by then the trainer has heard the referee messages
 * of that step and seen the world (see_global). So a test reads the play mode, the ball
 * and the players cycle by cycle:
 *
 *     e2e_ref_t m;
 *     cr_assert_eq(e2e_ref_start(&m, args), 0);
 *     int a = e2e_ref_connect(&m, "A", 0), b = e2e_ref_connect(&m, "B", 1);
 *     cr_assert_eq(e2e_ref_sync(&m), 0);
 *     e2e_ref_trainer(&m, "(change_mode play_on)");
 *     e2e_ref_trainer(&m, "(move (ball) 0 0 0 0)");
 *     e2e_ref_cycle(&m);                      // the scene is set
 *     e2e_ref_say(&m, a, "(kick 100 0)");
 *     e2e_ref_cycle(&m);
 *     cr_expect_eq(m.pm, PM_PLAY_ON);
 *     e2e_ref_stop(&m);
 */
#ifndef RCSS_E2E_REF_H
#define RCSS_E2E_REF_H

#include "e2e.h"
#include "e2e_trainer.h"

#define E2E_REF_CMDS 8

typedef struct e2e_ref_client {
    int  fd, port;               /* our socket, the server's socket for us */
    char team[32];
    int  unum;
    char cmd[E2E_REF_CMDS][256]; /* queued for the next cycle */
    int  ncmd;
    char heard[512];             /* referee messages of the last cycle, "msg;" each */
    char body[2048];             /* the last sense_body */
    int  gone;                   /* sent off: not waited for any more */
    char side;                   /* 'l' or 'r' from the init reply */
} e2e_ref_client_t;

typedef struct e2e_ref {
    e2e_server_t     s;
    e2e_ref_client_t t;          /* the trainer */
    e2e_ref_client_t pl[22];
    int              np;
    int              pm;         /* play mode after the last cycle (PM_*), from the referee */
    int              time;       /* cycle of the last see_global */
    int              errors;     /* (error ...) replies to the trainer */
    e2e_world_t      w;          /* the last see_global */
    char             see[8192];  /* ... as received */
    char             heard[512]; /* referee messages of the last cycle, "msg;" each */
    char             log[16384]; /* every referee message so far, "T msg;" each */
} e2e_ref_t;

/* Server in synch mode with the referee, a long synch_timeout, noise-free physics unless
 * the extra args say otherwise, and a v19 trainer with eye and ear on. */
int  e2e_ref_start(e2e_ref_t *m, const char *const *extra_args);
/* The same with the server's stdout alone in out_path (e2e_server_start_out). */
int  e2e_ref_start_out(e2e_ref_t *m, const char *const *extra_args, const char *out_path);
/* Stop the server (0 = exit status 0), close every socket. */
int  e2e_ref_stop(e2e_ref_t *m);
/* A v19 player of team (a goalie if asked); returns its index in m->pl, or -1. */
int  e2e_ref_connect(e2e_ref_t *m, const char *team, int goalie);
/* After the last connect: bring every client into lockstep (ends like a cycle). */
int  e2e_ref_sync(e2e_ref_t *m);
/* Queue a command for player i / the trainer, sent at the next cycle. */
void e2e_ref_say(e2e_ref_t *m, int i, const char *cmd);
void e2e_ref_trainer(e2e_ref_t *m, const char *cmd);
/* One step (see above); 0, or -1 when some client got no (think) within 5 s. */
int  e2e_ref_cycle(e2e_ref_t *m);
int  e2e_ref_cycles(e2e_ref_t *m, int n);
/* Cycles until the play mode is pm, at most max; the number done, -1 if never. */
int  e2e_ref_until(e2e_ref_t *m, int pm, int max);
/* Keep answering every (think) until the server exits by itself (auto mode), at most
 * timeout_ms; its output goes to out. Returns its exit status (see e2e_server_wait). */
int  e2e_ref_finish(e2e_ref_t *m, int timeout_ms, char *out, size_t outlen);
/* Player i in the last see_global (NULL if not on the field). */
e2e_obj_t *e2e_ref_obj(e2e_ref_t *m, int i);
/* Trainer moves: a player with its body direction, at rest; the ball with a velocity. */
void e2e_ref_place(e2e_ref_t *m, int i, double x, double y, double dir);
void e2e_ref_ball(e2e_ref_t *m, double x, double y, double vx, double vy);

#endif
