/* sim_ref.h -- the referee's private state (one sim_ref_t inside the world) and the
 * functions the sim_ref_*.c files share. The referee is split as rcssserver 19 splits
 * its referees (docs/protocol/referee.md): time and ball stuck (sim_ref_time.c), set plays
 * and free kick faults (sim_ref_play.c), goals and ball out of play (sim_ref_touch.c),
 * offside (sim_ref_offside.c), goalie rules (sim_ref_goalie.c), fouls, cards and illegal
 * defense (sim_ref_foul.c), penalty shoot-outs (sim_ref_penalty.c), player clearance and
 * ball placement geometry (sim_ref_place.c), auto mode (sim_ref_auto.c). sim_referee.c
 * dispatches every hook and every mode change to them in the reference's order. Sides
 * are SHM_SIDE_LEFT (1), SHM_SIDE_RIGHT (-1), SHM_SIDE_NONE (0): -side is the other team.
 * Players are world indices (-1: none). */
#ifndef RCSS_SIM_REF_H
#define RCSS_SIM_REF_H

#include <stdint.h>
#include "rng.h"

#define SIM_REF_STOP_WAIT   30     /* steps of offside, fault, foul, ... stoppages */
#define SIM_REF_CLEAR_TIME  5      /* the offenders are cleared in the last 5 of them */
#define SIM_REF_GOAL_WAIT   50     /* steps in goal_l/r before the kick-off */

/* pitch geometry (hard-coded in the reference) */
#define SIM_REF_PITCH_L        105.0
#define SIM_REF_PITCH_W        68.0
#define SIM_REF_PITCH_MARGIN   5.0
#define SIM_REF_PENALTY_L      16.5
#define SIM_REF_PENALTY_W      40.32
#define SIM_REF_GOAL_AREA_L    5.5
#define SIM_REF_GOAL_AREA_W    18.32
#define SIM_REF_CLEAR_DIST     9.15   /* kick-off circle and set-play clearance */
#define SIM_REF_POST_R         0.06   /* goal post radius */
#define SIM_REF_EPS            1.0e-10

/* auto mode: what sim_referee_auto() asks the process to do or print */
#define SIM_AUTO_SAY_CONNECT   0x1   /* "Waiting for players to connect" */
#define SIM_AUTO_SAY_KICK_OFF  0x2   /* "Waiting to kick off" */
#define SIM_AUTO_SAY_END       0x4   /* "Waiting after end of match" */
#define SIM_AUTO_GAME_OVER     0x8   /* game_over_wait elapsed: finalize and exit */

typedef struct sim_ref_cand {
    int    idx;                     /* offside candidate */
    double x, y;                    /* where the free kick would be: (offside line, own y) */
} sim_ref_cand_t;

typedef struct sim_ref {
    int      enabled;               /* 0 with server::coach and no coach_w_referee */
    int      half_cycles;           /* half_time in cycles (<= 0: no time limit) */
    int      extra_cycles;          /* extra_half_time in cycles */
    int      kick_off_side;         /* side the last ball placement was for */
    uint32_t kick_offs;             /* kick-offs started (the process prints each) */
    int      kick_off_last;         /* side of the last of them */
    /* time */
    int      halves_done;           /* half times called so far */
    /* ball stuck */
    double   stuck_x, stuck_y;
    int      stuck_count;
    /* offside */
    int      off_kick_time, off_kick_stoppage;
    double   off_kick_accel;
    int      off_kicker_side;
    int      ncand;
    sim_ref_cand_t cand[22];
    double   off_x, off_y;          /* the offside point of the current call */
    int      off_wait;
    /* illegal defense */
    int      ill_count[2];          /* consecutive steps: left, right */
    int      ill_kicker_side;
    int      ill_kick_time;
    int      ill_wait;
    /* set plays */
    int      fk_timer;              /* steps left before the drop ball, -1 off */
    int      fk_taken;              /* a set-play kick was taken by fk_taker */
    int      fk_taker;
    uint32_t fk_taker_dashes;       /* his dash count at that kick */
    int      fk_goal_kicks;         /* goal kicks in a row (proper_goal_kicks) */
    int      fk_fault_wait;
    /* touch line */
    int      touched;               /* last toucher (kick, tackle, collision) */
    int      touched_time;
    double   touched_accel;
    int      indirect;              /* indirect free kick not yet touched by a second player */
    int      indirect_kicker;
    int      goal_wait;
    double   prev_bx, prev_by;      /* ball at the previous analysis */
    /* goalie */
    int      bp_last, bp_before;    /* last and previous kicker (back pass memory) */
    int      bp_time;
    int      touched_lr[2];         /* left, right touched the ball this step */
    int      bp_wait, cf_wait;
    /* fouls */
    int      foul_wait;
    /* penalty shoot-out */
    int      pen_started;
    int      pen_timer;
    int      pen_nr_taken;
    int      pen_side;              /* the goal used: SHM_SIDE_LEFT is the left goal */
    int      pen_taker;             /* side taking the current kick */
    int      pen_last_taker;        /* player who kicked in this attempt */
    uint32_t pen_done[2];           /* bit unum-1: has taken a kick (left, right) */
    int      pen_timeover;          /* decided: time_over at the next analysis */
    int      pen_coin;              /* coin toss winner side, 0 none */
    double   pen_prev_x, pen_prev_y;
    /* auto mode */
    int      kick_off_wait, connect_wait, game_over_wait;
    /* per player, for fouls: dash count at the last analysis, dashed in the last step */
    uint32_t dash_count[22];
    uint8_t  dashed_last[22];
    /* acceleration given by each kick of a step (largest kick wins the last touch) */
    uint64_t acc_step;
    double   acc_x, acc_y;
    const struct sim_ref_table *table; /* the referees (given to sim_referee_init) */
} sim_ref_t;

struct sim_world;

/* One of rcssserver 19's referees (its Referee subclass): what it does when a player
 * kicks, tackles or touches the ball, when a goalie catches or punches it, after each
 * step and when the mode changes. A hook not set: that referee does nothing then. */
typedef struct sim_ref_part {
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
} sim_ref_part_t;

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

/* ---- sim_ref_parts.c: rcssserver 19's referees in its order ----------------------- */
extern const sim_ref_part_t *const sim_ref_parts[];
extern const sim_ref_part_t sim_ref_time_part, sim_ref_stuck_part;      /* sim_ref_time.c */
extern const sim_ref_part_t sim_ref_offside_part;                       /* sim_ref_offside.c */
extern const sim_ref_part_t sim_ref_play_part;                          /* sim_ref_play.c */
extern const sim_ref_part_t sim_ref_touch_part;                         /* sim_ref_touch.c */
extern const sim_ref_part_t sim_ref_goalie_part;                        /* sim_ref_goalie.c */
extern const sim_ref_part_t sim_ref_foul_part, sim_ref_defense_part;    /* sim_ref_foul.c */
extern const sim_ref_part_t sim_ref_penalty_part;                       /* sim_ref_penalty.c */

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
