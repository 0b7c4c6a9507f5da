/* sim_ref_state.h -- the referee's state, which the world carries as data (sim_world_t's
 * ref): a world is then one plain value that the process resets and the tests build,
 * copy and compare. Only the referee (sim/referee/) reads and writes these fields; the
 * world's own code never looks at them. The process reads the kick-off counters
 * (kick_offs, kick_off_last) to print what the reference prints. */
#ifndef RCSS_SIM_REF_STATE_H
#define RCSS_SIM_REF_STATE_H

#include <stdint.h>

struct sim_ref_table;

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
    const struct sim_ref_table *table; /* the referees (sim_referee_init) */
} sim_ref_t;

#endif
