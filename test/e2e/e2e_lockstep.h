/* e2e_lockstep.h -- players and a trainer stepping a synch-mode server one cycle at a
 * time, for the physics tests: every client waits for its (think), reads what came with
 * it (the trainer's see_global, each player's sense_body), may send commands, and sends
 * (done); the server steps once all are done. Start the server with
 * server::synch_mode=true and server::coach=true.
 *
 *     e2e_ls_t ls;
 *     e2e_ls_open(&ls, &s, names, 4);        // "TA", "TB", ... in connection order
 *     for (int k = 0; k < 100; k++) {
 *         cr_assert_eq(e2e_ls_think(&ls), 0); // ls.world: see_global of this cycle
 *         e2e_ls_send(&ls, 0, "(dash 100)");  // player 0's command for this step
 *         e2e_ls_done(&ls);
 *     }
 * A command sent at think k acts in the step to the world seen at think k + 1. */
#ifndef RCSS_E2E_LOCKSTEP_H
#define RCSS_E2E_LOCKSTEP_H

#include "e2e.h"
#include "e2e_trainer.h"

#define E2E_LS_MAX 22                  /* players: two full teams */

typedef struct e2e_ls {
    e2e_trainer_t t;                  /* the trainer, eye on */
    int           n;                  /* players */
    int           fd[E2E_LS_MAX];
    int           port[E2E_LS_MAX];   /* each player's server port */
    char          sense[E2E_LS_MAX][4096]; /* the sense_body that came with the think */
    char          see[16384];         /* the trainer's see_global of this think */
    e2e_world_t   world;              /* see parsed */
    double        sense_ms[E2E_LS_MAX]; /* e2e_now_ms() when that sense_body was read */
    double        done_ms;            /* e2e_now_ms() when the last (done)s went out */
    int           wait_ms;            /* how long a think is waited for; 0: 3000 */
} e2e_ls_t;

/* Connect n v19 players (team[i] their team names, in connection order) and a v19
 * trainer with its eye on, then bring every client in step. 0 or -1. */
int  e2e_ls_open(e2e_ls_t *ls, const e2e_server_t *s, const char *const *team, int n);
void e2e_ls_close(e2e_ls_t *ls);
/* Wait for the next think of every client (up to wait_ms each); 0 or -1 (timeout, bad
 * see_global). */
int  e2e_ls_think(e2e_ls_t *ls);
/* A command from player i (-1: the trainer) for this step. */
void e2e_ls_send(e2e_ls_t *ls, int i, const char *cmd);
/* (done) from every client. */
void e2e_ls_done(e2e_ls_t *ls);
/* The number after "(NAME " in player i's sense_body, e.g. "stamina" -> 7945. */
double e2e_ls_sense(const e2e_ls_t *ls, int i, const char *name);

#endif
