/* s3d_referee.c -- the rules of the 3D game (docs/protocol/3d.md §3.2, §4, §5): the automatic
 * kick-off WaitBeforeKickOff seconds after both teams are on the field (a coin for the
 * first half, the other side for the second, the conceding side after a goal), goals,
 * the ball leaving the field (kick-in, corner, goal kick RuleKickInPauseTime later),
 * offside, set plays the side's opponents must keep FreeKickDistance from, half time
 * and the end of the game. Runs once per step after the physics; robots' touches of
 * the ball during the step are taken in slot order. */
#include <math.h>
#include "playmode3d.h"
#include "s3d_world.h"

static int is_setplay(int pm)
{
    return (pm >= PM3D_KICK_OFF_LEFT && pm <= PM3D_KICK_OFF_RIGHT)
        || (pm >= PM3D_KICK_IN_LEFT && pm <= PM3D_GOAL_KICK_RIGHT)
        || pm == PM3D_FREE_KICK_LEFT || pm == PM3D_FREE_KICK_RIGHT;
}

static void clear_offside(s3d_world_t *w)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++)
        w->robot[i].offside_cand = 0;
}

void s3d_ref_set_mode(s3d_world_t *w, int pm)
{
    if (pm < 0 || pm >= PM3D_COUNT)
        return;
    w->play_mode = pm;
    w->mode_time = 0.0;
    w->pending_mode = -1;
    if (pm == PM3D_BEFORE_KICK_OFF)
        w->bko_wait = 0.0;
    clear_offside(w);
}

static void enter_before_kick_off(s3d_world_t *w, int next_side)
{
    s3d_ball_place(w, vec3(0, 0, w->pr.ball_r), vec3(0, 0, 0));
    w->kickoff_side = next_side;
    s3d_ref_set_mode(w, PM3D_BEFORE_KICK_OFF);
}

int s3d_ref_kickoff(s3d_world_t *w)
{
    if (w->play_mode != PM3D_BEFORE_KICK_OFF)
        return -1;
    int side = w->kickoff_side;
    if (side < 0) /* the manual's coin */
        side = rng_unit(&w->rng_ref) < 0.5 ? 0 : 1;
    if (w->first_kickoff < 0)
        w->first_kickoff = side;
    s3d_ball_place(w, vec3(0, 0, w->pr.ball_r), vec3(0, 0, 0));
    s3d_ref_set_mode(w, playmode3d_for(PM3D_KICK_OFF_LEFT, side));
    return 0;
}

int s3d_ref_may_kick(const s3d_world_t *w, int side)
{
    if (w->play_mode == PM3D_PLAY_ON)
        return 1;
    return is_setplay(w->play_mode) && playmode3d_side(w->play_mode) == side;
}

/* Robots of side (-1: both) closer than FreeKickDistance to the ball (horizontally)
 * go to that distance, straight away from it (towards their own goal if on it). At a
 * kick-off they also go back to their own half. */
static void keep_away(s3d_world_t *w, int side, int kickoff)
{
    const s3d_params_t *pr = &w->pr;
    double R = pr->fk_dist + pr->agent_r;
    double hx = pr->field_len / 2 + pr->border - pr->agent_r;
    double hy = pr->field_wid / 2 + pr->border - pr->agent_r;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (!r->present || (side >= 0 && r->side != side))
            continue;
        double dx = r->b.p.x - w->ball.p.x, dy = r->b.p.y - w->ball.p.y;
        double d = sqrt(dx * dx + dy * dy);
        if (d < pr->fk_dist) {
            if (d < 1e-6) {
                dx = r->side == 0 ? -1.0 : 1.0;
                dy = 0.0;
                d = 1.0;
            }
            r->b.p.x = w->ball.p.x + dx / d * R;
            r->b.p.y = w->ball.p.y + dy / d * R;
            r->b.v.x = r->b.v.y = 0.0;
        }
        if (kickoff && s3d_to_team(r->side, r->b.p).x > 0.0)
            r->b.p.x = r->side == 0 ? -pr->agent_r : pr->agent_r;
        r->b.p.x = r->b.p.x > hx ? hx : r->b.p.x < -hx ? -hx : r->b.p.x;
        r->b.p.y = r->b.p.y > hy ? hy : r->b.p.y < -hy ? -hy : r->b.p.y;
    }
}

void s3d_ref_drop_ball(s3d_world_t *w)
{
    s3d_ref_set_mode(w, PM3D_PLAY_ON);
    keep_away(w, -1, 0);
}

/* Team mates of side ahead of the ball and of the second-last opponent, in the
 * opponents' half, when a robot of side plays the ball. Missing opponents count as
 * standing on their goal line. */
static void mark_offside(s3d_world_t *w, int side, int player)
{
    double gl = w->pr.field_len / 2, x[SHM3D_MAX_AGENTS + 2];
    int n = 0;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        const s3d_robot_t *o = &w->robot[i];
        if (o->present && o->side != side)
            x[n++] = s3d_to_team(side, o->b.p).x;
    }
    while (n < 2)
        x[n++] = gl;
    double first = -INFINITY, second = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (x[i] > first) {
            second = first;
            first = x[i];
        } else if (x[i] > second) {
            second = x[i];
        }
    }
    double bx = s3d_to_team(side, w->ball.p).x;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (!r->present || r->side != side || i == player)
            continue;
        double x = s3d_to_team(side, r->b.p).x;
        r->offside_cand = x > 0.0 && x > bx && x > second;
    }
}

void s3d_ref_touch(s3d_world_t *w, int i)
{
    s3d_robot_t *r = &w->robot[i];
    int pm = w->play_mode;
    if (pm == PM3D_PLAY_ON && w->pr.offside && r->offside_cand) {
        w->offside_spot = vec3(r->b.p.x, r->b.p.y, w->pr.ball_r);
        w->last_touch = i;
        w->last_touch_side = r->side;
        s3d_ref_set_mode(w, playmode3d_for(PM3D_OFFSIDE_LEFT, r->side));
        return;
    }
    if (is_setplay(pm) && playmode3d_side(pm) != r->side)
        return; /* the opponents are kept away; a push does not take the set play */
    w->last_touch = i;
    w->last_touch_side = r->side;
    clear_offside(w);
    if (is_setplay(pm)) {
        s3d_ref_set_mode(w, PM3D_PLAY_ON); /* the set play is taken */
        return;
    }
    if (pm == PM3D_PLAY_ON && w->pr.offside)
        mark_offside(w, r->side, i);
}

static void process_touches(s3d_world_t *w)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (r->present && r->touched)
            s3d_ref_touch(w, i);
        r->touched = 0;
    }
}

static int check_goal(s3d_world_t *w)
{
    const s3d_params_t *pr = &w->pr;
    vec3_t b = w->ball.p;
    if (fabs(b.y) >= pr->goal_w / 2 || b.z >= pr->goal_h)
        return 0;
    int scorer = b.x < -pr->field_len / 2 - pr->ball_r ? 1
               : b.x > pr->field_len / 2 + pr->ball_r ? 0 : -1;
    if (scorer < 0)
        return 0;
    w->score[scorer]++;
    s3d_ref_set_mode(w, playmode3d_for(PM3D_GOAL_LEFT, scorer));
    return 1;
}

static void decide(s3d_world_t *w, int pm, vec3_t ball)
{
    w->pending_mode = pm;
    w->pending_ball = ball;
    w->pending_at = w->sim_time + w->pr.kickin_pause;
}

/* The ball fully over a touch line or a goal line (not in the goal): the set play,
 * RuleKickInPauseTime later. */
static void check_out(s3d_world_t *w)
{
    const s3d_params_t *pr = &w->pr;
    double hx = pr->field_len / 2, hy = pr->field_wid / 2, r = pr->ball_r;
    vec3_t b = w->ball.p;
    double sy = b.y < 0 ? -1.0 : 1.0, sx = b.x < 0 ? -1.0 : 1.0;
    if (fabs(b.y) > hy + r) {
        /* to the side that did not touch it last; untouched: the side attacking there */
        int side = w->last_touch_side >= 0 ? 1 - w->last_touch_side : (b.x < 0 ? 1 : 0);
        double x = b.x > hx ? hx : b.x < -hx ? -hx : b.x;
        decide(w, playmode3d_for(PM3D_KICK_IN_LEFT, side), vec3(x, sy * hy, r));
    } else if (fabs(b.x) > hx + r) {
        int defender = b.x < 0 ? 0 : 1;
        if (w->last_touch_side == defender)
            decide(w, playmode3d_for(PM3D_CORNER_KICK_LEFT, 1 - defender),
                   vec3(sx * hx, sy * hy, r));
        else
            decide(w, playmode3d_for(PM3D_GOAL_KICK_LEFT, defender),
                   vec3(sx * (hx - pr->goalkick_dist), 0.0, r));
    }
}

static void auto_kickoff(s3d_world_t *w)
{
    if (w->pr.wait_kickoff < 0.0 || s3d_team_count(w, 0) == 0 || s3d_team_count(w, 1) == 0)
        return;
    w->bko_wait += w->pr.dt;
    if (w->bko_wait >= w->pr.wait_kickoff - 1e-9)
        s3d_ref_kickoff(w);
}

static void by_mode(s3d_world_t *w)
{
    const s3d_params_t *pr = &w->pr;
    int pm = w->play_mode, side = playmode3d_side(pm);
    if (pm == PM3D_BEFORE_KICK_OFF) {
        auto_kickoff(w);
    } else if (pm == PM3D_PLAY_ON) {
        if (w->pending_mode < 0 && !check_goal(w))
            check_out(w);
    } else if (is_setplay(pm)) {
        keep_away(w, 1 - side, pm <= PM3D_KICK_OFF_RIGHT);
        if (pr->drop_time > 0.0 && w->mode_time >= pr->drop_time - 1e-9)
            s3d_ref_drop_ball(w);
    } else if (pm == PM3D_GOAL_LEFT || pm == PM3D_GOAL_RIGHT) {
        if (w->mode_time >= pr->goal_pause - 1e-9)
            enter_before_kick_off(w, 1 - side);
    } else if (pm == PM3D_OFFSIDE_LEFT || pm == PM3D_OFFSIDE_RIGHT) {
        if (w->mode_time >= pr->kickin_pause - 1e-9) {
            s3d_ball_place(w, w->offside_spot, vec3(0, 0, 0));
            s3d_ref_set_mode(w, playmode3d_for(PM3D_FREE_KICK_LEFT, 1 - side));
        }
    } else if (pm == PM3D_GAME_OVER) {
        if (pr->gameover_wait >= 0.0 && w->mode_time >= pr->gameover_wait - 1e-9)
            w->shutdown = 1;
    }
}

static void half_time(s3d_world_t *w)
{
    int pm = w->play_mode;
    uint64_t half_steps = (uint64_t)llround(w->pr.half_time / w->pr.dt);
    if (pm == PM3D_BEFORE_KICK_OFF || pm == PM3D_GAME_OVER
        || w->game_steps < (uint64_t)w->half * half_steps)
        return;
    if (w->half < w->pr.halves) {
        w->half++;
        enter_before_kick_off(w, w->first_kickoff >= 0 ? 1 - w->first_kickoff : -1);
    } else {
        s3d_ref_set_mode(w, PM3D_GAME_OVER);
    }
}

void s3d_ref_step(s3d_world_t *w)
{
    int pm = w->play_mode;
    w->sim_time = (double)w->step * w->pr.dt;
    if (pm != PM3D_BEFORE_KICK_OFF && pm != PM3D_GAME_OVER)
        w->game_steps++;
    w->game_time = (double)w->game_steps * w->pr.dt;
    w->mode_time += w->pr.dt;
    process_touches(w);
    by_mode(w);
    if (w->pending_mode >= 0 && w->play_mode == PM3D_PLAY_ON
        && w->sim_time >= w->pending_at - 1e-9) {
        int next = w->pending_mode;
        s3d_ball_place(w, w->pending_ball, vec3(0, 0, 0));
        s3d_ref_set_mode(w, next);
    }
    half_time(w);
}
