/* sim_ref_play.c -- set plays (docs/protocol/referee.md §5, §6): the switch to play_on at the
 * first kick or when the ball moves, the clearance of the team not taking the kick on
 * entering and every step, the drop ball after drop_ball_time steps (kick-offs too), goal
 * kicks (opponents out of the area, play_on when the ball leaves it, retaken when an
 * opponent touches it), free kick faults (the taker plays the ball again after dashing)
 * with their 30-step wait, and the pitch margin for everybody. */
#include "sim_ref.h"
#include "playmode.h"

static int ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

static uint32_t dashes(const sim_world_t *w, int idx)
{
    return w->pl[idx].sh.count[SHM_CNT_DASH];
}

static void free_kick_fault(sim_world_t *w, int side)
{
    double x = w->ball.x, y = w->ball.y;
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_penalty(side, &x, &y);
    w->catcher = -1;
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_FREE_KICK_FAULT_L, SHM_SIDE_RIGHT, x, y);
    else if (side == SHM_SIDE_RIGHT)
        sim_ref_place_ball(w, PM_FREE_KICK_FAULT_R, SHM_SIDE_LEFT, x, y);
    w->ref.fk_fault_wait = 0;
}

/* the taker played the ball again: a fault if he dashed since his set-play kick */
static void taker_again(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    if (dashes(w, r->fk_taker) <= r->fk_taker_dashes)
        return;
    sim_ref_add_state(w, r->fk_taker, SIM_ST_FREE_KICK_FAULT);
    free_kick_fault(w, w->pl[r->fk_taker].sh.side);
}

static void taken_by(sim_world_t *w, int idx)
{
    w->ref.fk_taken = 1;
    w->ref.fk_taker = idx;
    w->ref.fk_taker_dashes = dashes(w, idx);
}

/* an opponent of the team taking the goal kick played the ball: retaken */
static int goal_kick_opponent(sim_world_t *w, int idx)
{
    int pm = w->play_mode, side = w->pl[idx].sh.side;
    if ((pm == PM_GOAL_KICK_L && side != SHM_SIDE_LEFT)
        || (pm == PM_GOAL_KICK_R && side != SHM_SIDE_RIGHT)) {
        sim_ref_award_goal_kick(w, -side, w->ball.x, w->ball.y);
        w->ref.fk_goal_kicks = -1;
        w->ref.fk_taken = 0;
        return 1;
    }
    return 0;
}

static void goal_kick_kick(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    if (goal_kick_opponent(w, idx))
        return;
    int proper = conf_bool(w->conf, SP_proper_goal_kicks);
    if (r->fk_taken) {
        const sim_player_t *t = &w->pl[r->fk_taker];
        if (idx != r->fk_taker) {
            if (proper)
                sim_ref_award_goal_kick(w, t->sh.side, w->ball.x, w->ball.y);
        } else if (r->fk_taker_dashes != dashes(w, r->fk_taker)) {
            if (conf_bool(w->conf, SP_free_kick_faults)) {
                sim_ref_add_state(w, r->fk_taker, SIM_ST_FREE_KICK_FAULT);
                free_kick_fault(w, w->pl[idx].sh.side);
            } else if (proper) {
                sim_ref_award_goal_kick(w, t->sh.side, w->ball.x, w->ball.y);
            }
        }
    }
    taken_by(w, idx);
}

/* in play_on after a set-play kick: the taker again, or someone else (fault cleared) */
static void after_set_play(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    if (!r->fk_taken)
        return;
    if (r->fk_taker == idx && conf_bool(w->conf, SP_free_kick_faults))
        taker_again(w);
    else if (r->fk_taker != idx)
        r->fk_taken = 0;
}

static void sim_ref_play_kick(sim_world_t *w, int idx, double accel)
{
    (void)accel; /* only offside and the touch line look at it */
    int pm = w->play_mode;
    if (sim_ref_is_penalty(pm) || pm == PM_OFFSIDE_L || pm == PM_OFFSIDE_R)
        return;
    if (sim_ref_goal_kick(pm)) {
        goal_kick_kick(w, idx);
    } else if (pm != PM_PLAY_ON) {
        taken_by(w, idx);
        sim_referee_set_mode(w, PM_PLAY_ON);
    } else {
        after_set_play(w, idx);
    }
}

static void sim_ref_play_touch(sim_world_t *w, int idx)
{
    if (goal_kick_opponent(w, idx))
        return;
    after_set_play(w, idx);
}

/* ---- analysis ----------------------------------------------------------------------- */
static void drop_timer(sim_world_t *w)
{
    if (w->ref.fk_timer > -1)
        w->ref.fk_timer--;
    if (w->ref.fk_timer == 0)
        sim_ref_award_drop_ball(w, w->ball.x, w->ball.y);
}

static int fault_wait(sim_world_t *w, int pm)
{
    if (pm != PM_FREE_KICK_FAULT_L && pm != PM_FREE_KICK_FAULT_R)
        return 0;
    int side = pm == PM_FREE_KICK_FAULT_L ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    if (++w->ref.fk_fault_wait > SIM_REF_STOP_WAIT - SIM_REF_CLEAR_TIME)
        sim_ref_clear_from_ball(w, side);
    if (w->ref.fk_fault_wait > SIM_REF_STOP_WAIT)
        sim_referee_set_mode(w, side == SHM_SIDE_LEFT ? PM_FREE_KICK_R : PM_FREE_KICK_L);
    return 1;
}

static void goal_kick_analyse(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    sim_ref_place_for_goal_kick(w);
    sim_ref_place_in_field(w);
    if (!sim_ref_in_penalty(w, SHM_SIDE_NONE, w->ball.x, w->ball.y)) {
        sim_referee_set_mode(w, PM_PLAY_ON);
        return;
    }
    if (!(r->fk_taken && conf_bool(w->conf, SP_proper_goal_kicks))) {
        drop_timer(w);
        return;
    }
    double v2 = w->ball.vx * w->ball.vx + w->ball.vy * w->ball.vy;
    double stop = conf_real(w->conf, SP_stopped_ball_vel);
    if (v2 >= stop * stop)
        return;
    int side = w->pl[r->fk_taker].sh.side;
    if (r->fk_goal_kicks >= ci(w, SP_max_goal_kicks))
        sim_ref_award_free_kick(w, -side, w->ball.x, w->ball.y);
    else
        sim_ref_award_goal_kick(w, side, w->ball.x, w->ball.y);
}

/* the modes in which the clearance and the ball-moved rule do not apply */
static int no_set_play(int pm)
{
    return pm == PM_PLAY_ON || pm == PM_TIME_OVER || sim_ref_stoppage(pm);
}

static void sim_ref_play_analyse(sim_world_t *w)
{
    int pm = w->play_mode;
    if (sim_ref_is_penalty(pm) || fault_wait(w, pm))
        return;
    if (pm == PM_BACK_PASS_L || pm == PM_BACK_PASS_R || pm == PM_CATCH_FAULT_L
        || pm == PM_CATCH_FAULT_R)
        return;
    if (sim_ref_goal_kick(pm)) {
        goal_kick_analyse(w);
        return;
    }
    if (!no_set_play(pm) && pm != PM_BEFORE_KICK_OFF
        && (w->ball.vx != 0.0 || w->ball.vy != 0.0))
        sim_referee_set_mode(w, PM_PLAY_ON);
    sim_ref_place_in_field(w);
    if (!no_set_play(pm) || pm == PM_BEFORE_KICK_OFF || pm == PM_GOAL_L || pm == PM_GOAL_R)
        sim_ref_clear_from_ball(w, -w->ref.kick_off_side);
    if (sim_ref_fk_mode(pm))
        drop_timer(w);
}

static void sim_ref_play_mode(sim_world_t *w, int pm)
{
    sim_ref_t *r = &w->ref;
    if (pm != PM_PLAY_ON)
        r->fk_taken = 0;
    switch (pm) {
    case PM_KICK_OFF_L: case PM_KICK_IN_L: case PM_FREE_KICK_L: case PM_INDIRECT_FREE_KICK_L:
    case PM_CORNER_KICK_L: case PM_GOAL_KICK_L:
        sim_ref_clear_from_ball(w, SHM_SIDE_RIGHT);
        break;
    case PM_KICK_OFF_R: case PM_KICK_IN_R: case PM_FREE_KICK_R: case PM_INDIRECT_FREE_KICK_R:
    case PM_CORNER_KICK_R: case PM_GOAL_KICK_R:
        sim_ref_clear_from_ball(w, SHM_SIDE_LEFT);
        break;
    case PM_DROP_BALL:
        sim_ref_clear_from_ball(w, SHM_SIDE_NONE);
        break;
    default:
        break;
    }
    /* goal kicks in a row: the reference compares with the mode already entered, so
     * every goal kick counts one more and any other mode resets the count */
    r->fk_goal_kicks = sim_ref_goal_kick(pm) ? r->fk_goal_kicks + 1 : 0;
    if (sim_ref_goal_kick(pm) || sim_ref_fk_mode(pm))
        r->fk_timer = ci(w, SP_drop_ball_time);
    else
        r->fk_timer = -1;
    if (pm == PM_FREE_KICK_FAULT_L || pm == PM_FREE_KICK_FAULT_R) {
        w->catcher = -1;
        r->fk_fault_wait = 0;
    }
}

const sim_ref_part_t sim_ref_play_part = {
    .name = "FreeKickRef",
    .kick = sim_ref_play_kick,
    .touch = sim_ref_play_touch,
    .analyse = sim_ref_play_analyse,
    .mode = sim_ref_play_mode,
};
