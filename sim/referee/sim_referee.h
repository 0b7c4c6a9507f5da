/* sim_referee.h -- the referee as the rest of the rcssserver process uses it
 * (docs/protocol/referee.md): set up with the referees it runs (sim_ref_table_t), play-mode
 * changes, kick-off, drop ball, a monitor's foul call, the analysis after each step, auto
 * mode. Its state lives in the world (sim_world_t.ref, sim_ref_state.h); the physics
 * reaches it only through the hooks it sets (w->rules). The referee's own helpers are in
 * sim_ref.h. */
#ifndef RCSS_SIM_REFEREE_H
#define RCSS_SIM_REFEREE_H

#include "sim_world.h"

/* auto mode: what sim_referee_auto() asks the process to do or print */
#define SIM_AUTO_SAY_CONNECT   0x1   /* "Waiting for players to connect" */
#define SIM_AUTO_SAY_KICK_OFF  0x2   /* "Waiting to kick off" */
#define SIM_AUTO_SAY_END       0x4   /* "Waiting after end of match" */
#define SIM_AUTO_GAME_OVER     0x8   /* game_over_wait elapsed: finalize and exit */

/* one of rcssserver 19's referees (sim_ref.h) */
typedef struct sim_ref_part sim_ref_part_t;

/* What the dispatcher (sim_referee.c) calls, given to sim_referee_init by the process,
 * so the dispatcher names none of it: the referees in order, the keepaway referee (at
 * its own points: kick-off first, a mode change after it is announced, the analysis
 * last, even without a referee), and the process's part of the first kick-off. */
typedef struct sim_ref_table {
    const sim_ref_part_t *const *parts;             /* NULL ended (sim_ref_parts) */
    int  (*keepaway_kick_off)(struct sim_world *w); /* 1: it took the kick-off over */
    void (*keepaway_mode)(struct sim_world *w, int pm);
    void (*keepaway_analyse)(struct sim_world *w);
    void (*first_kick_off)(struct sim_world *w);    /* the automatic type assignment */
} sim_ref_table_t;

/* rcssserver 19's referees in its order, NULL ended (sim_ref_parts.c) */
extern const sim_ref_part_t *const sim_ref_parts[];

/* ---- sim_keepaway.c (server::keepaway): the keepaway referee, for the table ---- */
int  sim_keepaway_kick_off(sim_world_t *w);           /* 1 if it took the kick-off over */
void sim_keepaway_mode_change(sim_world_t *w, int pm);
void sim_keepaway_analyse(sim_world_t *w);             /* every step, every play mode */

/* ---- sim_referee.c, sim_ref_calls.c, sim_ref_auto.c ---- */
/* Referee state from the configuration, the referees it runs (table) and w->rules: the
 * hooks the physics calls. After sim_world_init (the process's start and reset, the
 * tests' worlds). */
void sim_referee_init(sim_world_t *w, const sim_ref_table_t *table);
/* The referee's pointers only (its hooks in w->rules, its table), its state kept: a
 * world copied from another process (a match taken over, sim/sim_resume.c). */
void sim_referee_attach(sim_world_t *w, const sim_ref_table_t *table);
/* Change the play mode (Stadium::changePlayMode): every referee reacts (clearance,
 * timers), then the mode is announced (except goal_l/goal_r). */
void sim_referee_set_mode(sim_world_t *w, int pm);
/* Kick-off (monitor start, trainer start, auto mode): acts only at a half boundary;
 * 0 done, -1 not possible. */
int  sim_referee_kick_off(sim_world_t *w);
/* Called by the step after objects moved (and time advanced where it does). */
void sim_referee_analyse(sim_world_t *w);
/* A drop ball called from outside (monitor dispfoul with side 0): at (x, y) on the pitch,
 * drop_ball then play_on at once (not during a shoot-out). */
void sim_referee_drop_ball(sim_world_t *w, double x, double y);
/* Monitor dispfoul for side (Stadium::callFoul): nothing during a shoot-out; otherwise
 * the referee says foul_<other side>, the ball goes to (x, y) kept on the pitch, the mode
 * becomes free_kick_<side> and players beyond the pitch margin are pulled back. */
void sim_referee_call_foul(sim_world_t *w, int side, double x, double y);
/* Auto mode, once after every step (server::auto_mode): counts kick_off_wait or
 * connect_wait in before_kick_off (players = connected player clients) and kicks off,
 * counts game_over_wait in time_over. Returns SIM_AUTO_* flags. */
int  sim_referee_auto(sim_world_t *w, int players);

#endif
