/* sim_ref_goalie.c -- the goalie rules (docs/protocol/referee.md §9): a catch or punch outside
 * the goalie's penalty area (or a held ball carried out of it) is a catch fault, free
 * kick for the opponents after 30 steps; a catch (or punch) of a ball a teammate kicked
 * last is a back pass, indirect free kick after 30 steps; a legal catch gives the goalie
 * a free kick. The back-pass memory is the last two kickers; a cycle in which both teams
 * touched the ball clears it. */
#include "sim_ref.h"
#include "playmode.h"

static int same_team(const sim_world_t *w, int a, int b)
{
    return w->pl[a].sh.side == w->pl[b].sh.side;
}

static void note_side(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    if (w->pl[idx].sh.side == SHM_SIDE_LEFT)
        r->touched_lr[0] = 1;
    else if (w->pl[idx].sh.side == SHM_SIDE_RIGHT)
        r->touched_lr[1] = 1;
}

static void sim_ref_goalie_kick(sim_world_t *w, int idx, double accel)
{
    (void)accel; /* only offside and the touch line look at it */
    sim_ref_t *r = &w->ref;
    note_side(w, idx);
    if (r->touched_lr[0] && r->touched_lr[1]) {
        r->bp_last = r->bp_before = -1;
        return;
    }
    if (r->bp_last != idx) {
        r->bp_before = r->bp_last;
        r->bp_last = idx;
    }
    r->bp_time = w->time;
}

static void sim_ref_goalie_touch(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    note_side(w, idx);
    if (r->touched_lr[0] && r->touched_lr[1])
        r->bp_last = r->bp_before = -1;
}

static void back_pass(sim_world_t *w, int side)
{
    double x = w->ball.x, y = w->ball.y;
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_goal_area(side, &x, &y);
    w->catcher = -1;
    sim_ref_place_ball(w, side == SHM_SIDE_LEFT ? PM_BACK_PASS_L : PM_BACK_PASS_R, -side, x, y);
    w->ref.bp_last = -1;
    w->ref.bp_wait = 0;
}

static void catch_fault(sim_world_t *w, int side)
{
    double x = w->ball.x, y = w->ball.y;
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_penalty(side, &x, &y);
    w->catcher = -1;
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_CATCH_FAULT_L, SHM_SIDE_RIGHT, x, y);
    else if (side == SHM_SIDE_RIGHT)
        sim_ref_place_ball(w, PM_CATCH_FAULT_R, SHM_SIDE_LEFT, x, y);
    w->ref.cf_wait = 0;
}

/* the referee may judge a catch or punch (not after a goal, not after time) */
static int judged(int pm)
{
    return pm != PM_GOAL_L && pm != PM_GOAL_R && pm != PM_TIME_OVER;
}

/* the goalie's own kick after an opponent's, or kick and catch in one cycle after no
 * teammate: no back pass */
static int pass_excused(const sim_world_t *w, int idx, int same_cycle_rule)
{
    const sim_ref_t *r = &w->ref;
    if (r->bp_last == idx && r->bp_before >= 0 && !same_team(w, r->bp_before, idx))
        return 1;
    return same_cycle_rule && w->time == r->bp_time
           && (r->bp_before < 0 || !same_team(w, r->bp_before, idx));
}

static void sim_ref_goalie_catch(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode, side = w->pl[idx].sh.side;
    if (sim_ref_is_penalty(pm))
        return;
    if (judged(pm) && !sim_ref_in_penalty(w, side, w->ball.x, w->ball.y)) {
        catch_fault(w, side);
        return;
    }
    if (conf_bool(w->conf, SP_back_passes) && judged(pm) && r->bp_last >= 0
        && same_team(w, r->bp_last, idx) && !pass_excused(w, idx, 1)) {
        sim_ref_add_state(w, r->bp_last, SIM_ST_BACK_PASS);
        back_pass(w, side);
        return;
    }
    r->bp_last = r->bp_before = -1;
    sim_ref_award_free_kick(w, side, w->ball.x, w->ball.y);
}

static void sim_ref_goalie_punch(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode, side = w->pl[idx].sh.side;
    if (sim_ref_is_penalty(pm))
        return;
    if (judged(pm) && !sim_ref_in_penalty(w, side, w->ball.x, w->ball.y)) {
        catch_fault(w, side);
        return;
    }
    if (judged(pm) && w->time != r->bp_time && r->bp_last >= 0 && same_team(w, r->bp_last, idx)
        && conf_bool(w->conf, SP_back_passes)) {
        if (!pass_excused(w, idx, 0)) {
            sim_ref_add_state(w, r->bp_last, SIM_ST_BACK_PASS);
            back_pass(w, side);
        }
        return;
    }
    r->bp_last = r->bp_before = -1;
}

static void stop_wait(sim_world_t *w, int *wait, int side, int next)
{
    if (++*wait > SIM_REF_STOP_WAIT - SIM_REF_CLEAR_TIME)
        sim_ref_clear_from_ball(w, side);
    if (*wait > SIM_REF_STOP_WAIT)
        sim_referee_set_mode(w, next);
}

static void sim_ref_goalie_analyse(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    r->touched_lr[0] = r->touched_lr[1] = 0;
    if (sim_ref_is_penalty(pm))
        return;
    switch (pm) {
    case PM_BACK_PASS_L:
        stop_wait(w, &r->bp_wait, SHM_SIDE_LEFT, PM_INDIRECT_FREE_KICK_R);
        return;
    case PM_BACK_PASS_R:
        stop_wait(w, &r->bp_wait, SHM_SIDE_RIGHT, PM_INDIRECT_FREE_KICK_L);
        return;
    case PM_CATCH_FAULT_L:
        stop_wait(w, &r->cf_wait, SHM_SIDE_LEFT, PM_FREE_KICK_R);
        return;
    case PM_CATCH_FAULT_R:
        stop_wait(w, &r->cf_wait, SHM_SIDE_RIGHT, PM_FREE_KICK_L);
        return;
    default:
        break;
    }
    int g = w->catcher;
    if (g >= 0 && judged(pm) && !sim_ref_in_penalty(w, w->pl[g].sh.side, w->ball.x, w->ball.y))
        catch_fault(w, w->pl[g].sh.side);
}

static void sim_ref_goalie_mode(sim_world_t *w, int pm)
{
    sim_ref_t *r = &w->ref;
    if (pm != PM_PLAY_ON)
        r->bp_last = r->bp_before = -1;
    /* the reference tests the left modes twice here: the right ones reset elsewhere */
    if (pm == PM_BACK_PASS_L) {
        w->catcher = -1;
        r->bp_wait = 0;
    } else if (pm == PM_CATCH_FAULT_L) {
        w->catcher = -1;
        r->cf_wait = 0;
    }
}

const sim_ref_part_t sim_ref_goalie_part = {
    .name = "CatchRef",
    .kick = sim_ref_goalie_kick,
    .touch = sim_ref_goalie_touch,
    .caught = sim_ref_goalie_catch,
    .punched = sim_ref_goalie_punch,
    .analyse = sim_ref_goalie_analyse,
    .mode = sim_ref_goalie_mode,
};
