/* sim_ref_touch.c -- the touch-line referee (docs/protocol/referee.md §3, §4): goals (the ball
 * crossing the goal line between the posts since the previous analysis; not from an
 * untouched indirect free kick, not in a shoot-out), the 50-step wait after a goal and
 * the kick-off for the team that conceded, kick-ins, corner kicks and goal kicks, and the
 * last toucher (the largest acceleration among the kicks of one cycle). */
#include <math.h>
#include <stdio.h>
#include "sim_ref.h"
#include "playmode.h"

#define HALF_L  (PITCH_LENGTH / 2.0)
#define HALF_W  (PITCH_WIDTH / 2.0)

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

/* Referee::crossGoalLine: did the ball cross the goal line of side (its goal) between
 * the previous analysis (px, py) and now, between the posts? */
static int cross_goal_line(const sim_world_t *w, int side, double px, double py)
{
    double bs = cr(w, SP_ball_size), x = w->ball.x, y = w->ball.y;
    double post = cr(w, SP_goal_width) * 0.5 + PITCH_POST_R;
    if (px == x || fabs(x) <= HALF_L + bs || fabs(px) > HALF_L + bs || side * x >= 0.0)
        return 0;
    if (fabs(py) > post && fabs(px) > HALF_L)
        return 0;
    double gradient = (y - py) / (x - px), offset = py - gradient * px;
    double gx = (HALF_L + bs) * -side;
    return fabs(gradient * gx + offset) <= post;
}

int sim_ref_cross_goal_line(const sim_world_t *w, int side, double px, double py)
{
    return cross_goal_line(w, side, px, py);
}

/* a goal for scorer (the side whose team scored) */
static void goal(sim_world_t *w, int scorer)
{
    int k = scorer == SHM_SIDE_LEFT ? 0 : 1;
    if (w->team[k][0] != '\0') /* a team without a name scores nothing */
        w->score[k]++;
    char msg[32];
    snprintf(msg, sizeof msg, "goal_%s_%d", k == 0 ? "l" : "r", w->score[k]);
    sim_world_referee_say(w, msg);
    w->ref.goal_wait = 0;
    sim_ref_place_ball(w, PM_NULL, -scorer, w->ball.x, w->ball.y);
    int h = w->ref.half_cycles;
    if (h >= 0 && conf_bool(w->conf, SP_golden_goal)
        && w->time >= h * conf_int(w->conf, SP_nr_normal_halfs))
        sim_referee_set_mode(w, PM_TIME_OVER);
    else
        sim_referee_set_mode(w, scorer == SHM_SIDE_LEFT ? PM_GOAL_L : PM_GOAL_R);
}

static int check_goal(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    if (pm == PM_GOAL_L || pm == PM_GOAL_R || pm == PM_TIME_OVER || r->indirect)
        return 0;
    if (fabs(w->ball.x) <= HALF_L + cr(w, SP_ball_size) || sim_ref_is_penalty(pm))
        return 0;
    int held = w->catcher >= 0 ? w->pl[w->catcher].sh.side : 0;
    if ((held == 0 || held == SHM_SIDE_LEFT)
        && cross_goal_line(w, SHM_SIDE_LEFT, r->prev_bx, r->prev_by)) {
        goal(w, SHM_SIDE_RIGHT);
        return 1;
    }
    if ((held == 0 || held == SHM_SIDE_RIGHT)
        && cross_goal_line(w, SHM_SIDE_RIGHT, r->prev_bx, r->prev_by)) {
        goal(w, SHM_SIDE_LEFT);
        return 1;
    }
    return 0;
}

static void award_kick_in(sim_world_t *w, int side)
{
    double x = w->ball.x, y = w->ball.y;
    w->catcher = -1;
    sim_ref_truncate(&x, &y);
    sim_ref_place_ball(w, side == SHM_SIDE_LEFT ? PM_KICK_IN_L : PM_KICK_IN_R, side, x, y);
}

static void award_corner(sim_world_t *w, int side)
{
    double m = cr(w, SP_ckick_margin);
    double y = w->ball.y > 0.0 ? HALF_W - m : -HALF_W + m;
    w->catcher = -1;
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_CORNER_KICK_L, SHM_SIDE_LEFT, HALF_L - m, y);
    else
        sim_ref_place_ball(w, PM_CORNER_KICK_R, SHM_SIDE_RIGHT, -HALF_L + m, y);
}

/* the ball crossed a goal line without a goal (defender = the side whose line it is) */
static void over_goal_line(sim_world_t *w, int defender, int toucher_side)
{
    if (toucher_side == defender)
        award_corner(w, -defender);
    else if (w->catcher < 0)
        sim_ref_award_goal_kick(w, defender, w->ball.x, w->ball.y);
    /* a goalie holding the ball beyond his line: the goalie referee calls it */
}

static void ball_out(sim_world_t *w)
{
    double bs = cr(w, SP_ball_size);
    int ts = w->ref.touched >= 0 ? w->pl[w->ref.touched].sh.side : SHM_SIDE_NONE;
    if (fabs(w->ball.x) > HALF_L + bs) {
        over_goal_line(w, w->ball.x > 0.0 ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, ts);
    } else if (fabs(w->ball.y) > HALF_W + bs) {
        if (ts == SHM_SIDE_NONE)
            sim_ref_award_drop_ball(w, w->ball.x, w->ball.y);
        else
            award_kick_in(w, -ts);
    }
}

static void after_goal(sim_world_t *w, int scorer)
{
    if (++w->ref.goal_wait <= SIM_REF_GOAL_WAIT)
        return;
    if (scorer == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_KICK_OFF_R, SHM_SIDE_RIGHT, 0.0, 0.0);
    else
        sim_ref_place_ball(w, PM_KICK_OFF_L, SHM_SIDE_LEFT, 0.0, 0.0);
    sim_ref_place_in_own_half(w);
}

static void analyse_impl(sim_world_t *w)
{
    int pm = w->play_mode;
    if (sim_ref_is_penalty(pm))
        return;
    if (pm == PM_GOAL_L || pm == PM_GOAL_R) {
        after_goal(w, pm == PM_GOAL_L ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT);
        return;
    }
    if (check_goal(w))
        return;
    if (w->play_mode != PM_TIME_OVER)
        ball_out(w);
}

static void sim_ref_touch_analyse(sim_world_t *w)
{
    analyse_impl(w);
    w->ref.prev_bx = w->ball.x;
    w->ref.prev_by = w->ball.y;
}

static void sim_ref_touch_kick(sim_world_t *w, int idx, double accel)
{
    sim_ref_t *r = &w->ref;
    if (fabs(w->ball.x) > HALF_L + cr(w, SP_ball_size))
        return;
    if (w->play_mode == PM_PLAY_ON && r->indirect_kicker >= 0 && r->indirect_kicker != idx) {
        r->indirect_kicker = -1; /* a second player touched the indirect free kick */
        r->indirect = 0;
    }
    if (r->indirect)
        r->indirect_kicker = idx;
    if (r->touched_time == w->time && r->touched_accel <= accel) {
        r->touched = idx;
        r->touched_accel = accel;
    } else if (r->touched_time < w->time) {
        r->touched = idx;
        r->touched_time = w->time;
        r->touched_accel = accel;
    }
}

static void sim_ref_touch_mode(sim_world_t *w, int pm)
{
    sim_ref_t *r = &w->ref;
    if (pm != PM_PLAY_ON)
        r->touched = -1;
    if (pm == PM_INDIRECT_FREE_KICK_L || pm == PM_INDIRECT_FREE_KICK_R) {
        r->indirect_kicker = -1;
        r->indirect = 1;
    } else if (pm != PM_PLAY_ON && pm != PM_DROP_BALL) {
        r->indirect_kicker = -1;
        r->indirect = 0;
    }
}

/* a ball contact: a kick that gave the ball nothing */
static void sim_ref_touch_touch(sim_world_t *w, int idx)
{
    sim_ref_touch_kick(w, idx, 0.0);
}

const sim_ref_part_t sim_ref_touch_part = {
    .name = "TouchRef",
    .kick = sim_ref_touch_kick,
    .touch = sim_ref_touch_touch,
    .analyse = sim_ref_touch_analyse,
    .mode = sim_ref_touch_mode,
};
