/* sim_ref.h -- what the files of the referee share (its public part is sim_referee.h):
 * the referee is split as rcssserver 19 splits its referees (docs/protocol/referee.md),
 * one sim_ref_part_t each: time and ball stuck (sim_ref_time.c), set plays and free kick
 * faults (sim_ref_play.c), goals and ball out of play (sim_ref_touch.c), offside
 * (sim_ref_offside.c), goalie rules (sim_ref_goalie.c), fouls, cards and illegal defense
 * (sim_ref_foul.c), penalty shoot-outs (sim_ref_penalty.c); sim_ref_parts.c lists them in
 * the reference's order and sim_referee.c dispatches every hook and every mode change to
 * them. Shared: the small facts (sim_ref_util.c), the calls that place the ball
 * (sim_ref_calls.c), player clearance and ball placement geometry (sim_ref_place.c). Auto
 * mode is sim_ref_auto.c. Sides are SHM_SIDE_LEFT (1), SHM_SIDE_RIGHT (-1), SHM_SIDE_NONE
 * (0): -side is the other team. Players are world indices (-1: none). */
#ifndef RCSS_SIM_REF_H
#define RCSS_SIM_REF_H

#include <stdint.h>
#include "rng.h"
#include "sim_referee.h"

#define SIM_REF_STOP_WAIT   30     /* steps of offside, fault, foul, ... stoppages */
#define SIM_REF_CLEAR_TIME  5      /* the offenders are cleared in the last 5 of them */
#define SIM_REF_GOAL_WAIT   50     /* steps in goal_l/r before the kick-off */

/* the pitch geometry is common/pitch.h */
#define SIM_REF_EPS            1.0e-10

/* One of rcssserver 19's referees (its Referee subclass): what it does when a player
 * kicks, tackles or touches the ball, when a goalie catches or punches it, after each
 * step and when the mode changes. A hook not set: that referee does nothing then. */
struct sim_ref_part {
    const char *name;                                         /* the reference's class */
    void (*kick)(struct sim_world *w, int idx, double accel); /* kickTaken; accel: what
                                                         the kick gave the ball */
    void (*tackle)(struct sim_world *w, int idx, int foul);   /* tackleTaken; not set: a
                                                         successful tackle is a kick */
    void (*failed)(struct sim_world *w, int idx);  /* failed kick or tackle */
    void (*touch)(struct sim_world *w, int idx);   /* ballTouched: a collision, and the
                                                      contact of a catch or punch */
    void (*caught)(struct sim_world *w, int idx);  /* ballCaught */
    void (*punched)(struct sim_world *w, int idx); /* ballPunched */
    void (*analyse)(struct sim_world *w);          /* after each step */
    void (*mode)(struct sim_world *w, int pm);     /* playModeChange */
};

/* ---- the referees (sim_ref_parts.c lists them in the reference's order) ------------ */
extern const sim_ref_part_t sim_ref_time_part, sim_ref_stuck_part;   /* sim_ref_time.c */
extern const sim_ref_part_t sim_ref_offside_part;                    /* sim_ref_offside.c */
extern const sim_ref_part_t sim_ref_play_part;                       /* sim_ref_play.c */
extern const sim_ref_part_t sim_ref_touch_part;                      /* sim_ref_touch.c */
extern const sim_ref_part_t sim_ref_goalie_part;                     /* sim_ref_goalie.c */
extern const sim_ref_part_t sim_ref_foul_part, sim_ref_defense_part; /* sim_ref_foul.c */
extern const sim_ref_part_t sim_ref_penalty_part;                    /* sim_ref_penalty.c */

/* ---- sim_ref_util.c: the small facts every part uses ----------------------------- */
/* The referee's random numbers (one accessor; the generator may become a stream). */
rng_t *sim_ref_rng(struct sim_world *w);
int    sim_ref_is_penalty(int pm);
int    sim_ref_fk_mode(int pm);      /* kick_off, kick_in, free kick, corner, indirect */
int    sim_ref_goal_kick(int pm);
/* the modes the referee waits out (goal, offside, fouls, faults, illegal defense) */
int    sim_ref_stoppage(int pm);
double sim_ref_ball_size(const struct sim_world *w);
double sim_ref_player_size(const struct sim_world *w, int idx);
int    sim_ref_kickable(const struct sim_world *w, int idx);
void   sim_ref_add_state(struct sim_world *w, int idx, uint32_t st);

/* ---- sim_ref_calls.c: the calls that place the ball ------------------------------- */
/* Stadium::placeBall: ball at (x, y), at rest; the side the placement is for; then the
 * mode pm (PM_NULL: none; play_on/drop_ball are never entered during a shoot-out). */
void   sim_ref_place_ball(struct sim_world *w, int pm, int side, double x, double y);
void   sim_ref_award_drop_ball(struct sim_world *w, double x, double y);
void   sim_ref_award_free_kick(struct sim_world *w, int side, double x, double y);
void   sim_ref_award_goal_kick(struct sim_world *w, int side, double x, double y);
/* cards (Stadium::yellowCard / redCard): messages and disqualification */
void   sim_ref_yellow_card(struct sim_world *w, int idx);
void   sim_ref_red_card(struct sim_world *w, int idx);

/* ---- sim_ref_place.c: geometry and player clearance ------------------------------ */
void   sim_ref_truncate(double *x, double *y);                 /* onto the pitch */
void   sim_ref_out_of_penalty(int side, double *x, double *y);  /* side's area (0: both) */
void   sim_ref_out_of_goal_area(int side, double *x, double *y);
int    sim_ref_in_penalty(const struct sim_world *w, int side, double x, double y);
/* the players of side (0: all) inside the clearance circle around the ball go to its rim */
void   sim_ref_clear_from_ball(struct sim_world *w, int side);
/* players in the opponents' half back to their own; the circle around the centre spot
 * cleared of the team not kicking off */
void   sim_ref_place_in_own_half(struct sim_world *w);
/* everybody within the pitch plus its 5 m margin */
void   sim_ref_place_in_field(struct sim_world *w);
/* goal kick: the opponents out of the penalty area */
void   sim_ref_place_for_goal_kick(struct sim_world *w);
void   sim_ref_move_player(struct sim_world *w, int idx, double x, double y, int rest);
/* (x, y) to the nearest point of the circle (cx, cy, rad); from the centre itself towards
 * (+1, +1). A point within 1e-10 of the centre moves only rad * 1e10 times its offset (the
 * reference's rule, which leaves it inside: its collision check then pushes it out). */
void   sim_ref_circle_edge(double cx, double cy, double rad, double *x, double *y);

/* ---- what one referee part uses of another ---------------------------------------- */
/* the ball crossed the goal line of side between the posts since (px, py) (sim_ref_touch.c) */
int  sim_ref_cross_goal_line(const struct sim_world *w, int side, double px, double py);
/* foul check of a successful tackle: 0 none, 1 foul, 2 yellow, 3 red (random draws;
 * sim_ref_foul.c) */
int  sim_ref_foul_check(struct sim_world *w, int idx, int foul);

#endif
