/* sim_referee.c -- the referee (spec player-sim.md 6): play-mode changes with their
 * announcements, kick-off, set plays switching to play_on, goals, ball out of play
 * (kick-in, corner, goal kick), half time and time up. Not yet: offside, fouls, back
 * pass, catch fault, extra time, penalty shoot-out, auto mode, player relocation. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_world.h"
#include "playmode.h"

#define GOAL_POST_R    0.06
#define GOAL_KICK_X    47.0
#define GOAL_KICK_Y    9.16

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static int pm_in(int pm, int a, int b) { return pm >= a && pm <= b; }

int sim_referee_is_stoppage(int pm)
{
    return pm == PM_GOAL_L || pm == PM_GOAL_R || pm == PM_OFFSIDE_L || pm == PM_OFFSIDE_R
           || pm_in(pm, PM_FOUL_CHARGE_L, PM_FOUL_PUSH_R)
           || pm_in(pm, PM_BACK_PASS_L, PM_CATCH_FAULT_R)
           || pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R;
}

int sim_referee_kick_allowed(int pm)
{
    return pm != PM_BEFORE_KICK_OFF && pm != PM_TIME_OVER && !sim_referee_is_stoppage(pm);
}

/* set plays that switch to play_on at the first kick */
static int is_set_play(int pm)
{
    return pm_in(pm, PM_KICK_OFF_L, PM_CORNER_KICK_R) || pm == PM_INDIRECT_FREE_KICK_L
           || pm == PM_INDIRECT_FREE_KICK_R || pm == PM_DROP_BALL;
}

void sim_referee_set_mode(sim_world_t *w, int pm)
{
    if (pm <= PM_NULL || pm >= PM_MAX)
        return;
    w->play_mode = pm;
    w->mode_wait = 0;
    if (pm != PM_PLAY_ON)
        w->last_toucher = -1;
    if (pm != PM_GOAL_L && pm != PM_GOAL_R)
        sim_world_referee_say(w, playmode_name(pm));
    sim_keepaway_mode_change(w, pm);
}

static void place_ball(sim_world_t *w, double x, double y)
{
    w->ball.x = x;
    w->ball.y = y;
    w->ball.vx = w->ball.vy = w->ball.ax = w->ball.ay = 0.0;
    w->catcher = -1;
}

static int normal_end(const sim_world_t *w)
{
    return conf_int(w->conf, SP_nr_normal_halfs) * w->half_cycles;
}

int sim_referee_kick_off(sim_world_t *w)
{
    if (sim_keepaway_kick_off(w))
        return 0;
    if (w->play_mode != PM_BEFORE_KICK_OFF)
        return -1;
    int len = w->half_cycles;
    if (w->time >= normal_end(w)) {
        int step = conf_int(w->conf, SP_simulator_step);
        len = step > 0 ? (int)(cr(w, SP_extra_half_time) * 1000.0 / step + 0.5) : 0;
    }
    int k = len > 0 ? w->time / len : 0;
    place_ball(w, 0.0, 0.0);
    if (w->time == 0)
        sim_coach_kick_off(w); /* the automatic type assignment (sim_coach.c) */
    if (w->time < normal_end(w) || normal_end(w) == 0) {
        for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
            if (w->pl[i].sh.enabled)
                sim_player_reset_stamina(w, &w->pl[i]);
        }
    }
    sim_referee_set_mode(w, k % 2 == 0 ? PM_KICK_OFF_L : PM_KICK_OFF_R);
    return 0;
}

void sim_referee_on_kick(sim_world_t *w, int idx)
{
    w->last_toucher = idx;
    if (is_set_play(w->play_mode))
        sim_referee_set_mode(w, PM_PLAY_ON);
}

void sim_referee_on_tackle(sim_world_t *w, int idx, int foul)
{
    (void)foul; /* fouls and cards from tackles: spec 6.8, not yet */
    sim_referee_on_kick(w, idx);
}

void sim_referee_on_failed(sim_world_t *w, int idx)
{
    (void)w; /* only the offside referee cares (spec 6.7), not yet */
    (void)idx;
}

void sim_referee_on_collide(sim_world_t *w, int idx)
{
    w->last_toucher = idx;
}

void sim_referee_on_catch(sim_world_t *w, int idx)
{
    const sim_player_t *p = &w->pl[idx];
    int left = p->sh.side == SHM_SIDE_LEFT;
    w->last_toucher = idx;
    if (w->play_mode != PM_PLAY_ON)
        return;
    sim_world_referee_say(w, left ? "goalie_catch_ball_l" : "goalie_catch_ball_r");
    sim_referee_set_mode(w, left ? PM_FREE_KICK_L : PM_FREE_KICK_R);
}

void sim_referee_on_punch(sim_world_t *w, int idx)
{
    w->last_toucher = idx;
}

void sim_referee_drop_ball(sim_world_t *w, double x, double y)
{
    double mx = SIM_PITCH_HALF_L - SIM_PENALTY_L - 0.5; /* just outside a penalty area */
    if (fabs(x) > mx && fabs(y) < SIM_PENALTY_HALF_W + 0.5)
        x = x > 0.0 ? mx : -mx;
    place_ball(w, x, y);
    sim_referee_set_mode(w, PM_DROP_BALL);
    sim_referee_set_mode(w, PM_PLAY_ON);
}

/* ---- goals and ball out of play --------------------------------------------------- */
static int check_goal(sim_world_t *w)
{
    double bs = cr(w, SP_ball_size), line = SIM_PITCH_HALF_L + bs;
    double x = w->ball.x, px = w->ball_px;
    if (fabs(x) <= line || fabs(px) > line || (x > 0.0) != (x - px > 0.0))
        return 0;
    double gx = x > 0.0 ? line : -line, t = (gx - px) / (x - px);
    double gy = w->ball_py + t * (w->ball.y - w->ball_py);
    if (fabs(gy) > cr(w, SP_goal_width) / 2.0 + GOAL_POST_R)
        return 0;
    int scorer = x > 0.0 ? 0 : 1; /* ball in the right goal: left scored */
    w->score[scorer]++;
    char msg[32];
    snprintf(msg, sizeof msg, "goal_%s_%d", scorer == 0 ? "l" : "r", w->score[scorer]);
    sim_world_referee_say(w, msg);
    sim_referee_set_mode(w, scorer == 0 ? PM_GOAL_L : PM_GOAL_R);
    return 1;
}

static int toucher_side(const sim_world_t *w)
{
    return w->last_toucher >= 0 ? w->pl[w->last_toucher].sh.side : 0;
}

static void ball_out(sim_world_t *w)
{
    double bs = cr(w, SP_ball_size), x = w->ball.x, y = w->ball.y;
    int ts = toucher_side(w);
    if (fabs(y) > SIM_PITCH_HALF_W + bs && fabs(x) <= SIM_PITCH_HALF_L + bs) {
        if (ts == 0) {
            sim_referee_drop_ball(w, x, y > 0.0 ? SIM_PITCH_HALF_W - 1.0 : -SIM_PITCH_HALF_W + 1.0);
            return;
        }
        place_ball(w, fmax(-SIM_PITCH_HALF_L, fmin(SIM_PITCH_HALF_L, x)),
                   y > 0.0 ? SIM_PITCH_HALF_W : -SIM_PITCH_HALF_W);
        sim_referee_set_mode(w, ts == SHM_SIDE_LEFT ? PM_KICK_IN_R : PM_KICK_IN_L);
        return;
    }
    if (fabs(x) <= SIM_PITCH_HALF_L + bs)
        return;
    int defender = x > 0.0 ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT;
    double sx = x > 0.0 ? 1.0 : -1.0, sy = y > 0.0 ? 1.0 : -1.0;
    if (ts == defender) {
        double m = cr(w, SP_ckick_margin);
        place_ball(w, sx * (SIM_PITCH_HALF_L - m), sy * (SIM_PITCH_HALF_W - m));
        sim_referee_set_mode(w, defender == SHM_SIDE_RIGHT ? PM_CORNER_KICK_L : PM_CORNER_KICK_R);
    } else {
        place_ball(w, sx * GOAL_KICK_X, sy * GOAL_KICK_Y);
        sim_referee_set_mode(w, defender == SHM_SIDE_RIGHT ? PM_GOAL_KICK_R : PM_GOAL_KICK_L);
    }
}

/* ---- time --------------------------------------------------------------------------- */
static void check_time(sim_world_t *w)
{
    if (w->half_cycles <= 0 || w->time <= 0 || w->time % w->half_cycles != 0)
        return;
    int k = w->time / w->half_cycles, n = conf_int(w->conf, SP_nr_normal_halfs);
    if (k < n) {
        sim_world_referee_say(w, "half_time");
        place_ball(w, 0.0, 0.0);
        sim_referee_set_mode(w, PM_BEFORE_KICK_OFF);
    } else if (k == n) {
        /* extra time and penalties are not implemented: the game ends here */
        sim_world_referee_say(w, "time_up");
        sim_referee_set_mode(w, PM_TIME_OVER);
    }
}

/* set play not taken within drop_ball_time steps -> drop ball */
static int set_play_timeout(sim_world_t *w)
{
    int limit = conf_int(w->conf, SP_drop_ball_time);
    if (limit <= 0 || pm_in(w->play_mode, PM_KICK_OFF_L, PM_KICK_OFF_R))
        return 0;
    if (++w->mode_wait <= limit)
        return 0;
    sim_referee_drop_ball(w, w->ball.x, w->ball.y);
    return 1;
}

static void analyse_set_play(sim_world_t *w)
{
    int pm = w->play_mode;
    if (pm == PM_DROP_BALL) {
        sim_referee_set_mode(w, PM_PLAY_ON);
        return;
    }
    if (pm == PM_GOAL_KICK_L || pm == PM_GOAL_KICK_R) {
        double bs = cr(w, SP_ball_size);
        int in_area = fabs(w->ball.x) > SIM_PITCH_HALF_L - SIM_PENALTY_L - bs
                      && fabs(w->ball.y) < SIM_PENALTY_HALF_W + bs;
        if (!in_area)
            sim_referee_set_mode(w, PM_PLAY_ON);
        else
            set_play_timeout(w);
        return;
    }
    if (w->ball.vx != 0.0 || w->ball.vy != 0.0)
        sim_referee_set_mode(w, PM_PLAY_ON);
    else
        set_play_timeout(w);
}

static void analyse_wait(sim_world_t *w)
{
    int pm = w->play_mode;
    if (pm != PM_GOAL_L && pm != PM_GOAL_R) {
        const char *n = playmode_name(pm);
        size_t len = strlen(n);
        int left_fault = len > 2 && n[len - 1] == 'l';
        if (++w->mode_wait > 30) /* other stoppages: free kick for the other side */
            sim_referee_set_mode(w, left_fault ? PM_FREE_KICK_R : PM_FREE_KICK_L);
        return;
    }
    if (++w->mode_wait <= SIM_GOAL_WAIT)
        return;
    place_ball(w, 0.0, 0.0);
    sim_referee_set_mode(w, pm == PM_GOAL_L ? PM_KICK_OFF_R : PM_KICK_OFF_L);
}

static void referee_rules(sim_world_t *w)
{
    int pm = w->play_mode;
    if (pm == PM_BEFORE_KICK_OFF || pm == PM_TIME_OVER)
        return;
    if (sim_referee_is_stoppage(pm)) {
        analyse_wait(w);
        return;
    }
    check_time(w);
    if (w->play_mode != pm)
        return;
    if (check_goal(w))
        return;
    ball_out(w);
    if (w->play_mode != pm)
        return;
    if (is_set_play(pm) || pm == PM_GOAL_KICK_L || pm == PM_GOAL_KICK_R)
        analyse_set_play(w);
}

void sim_referee_analyse(sim_world_t *w)
{
    referee_rules(w);
    sim_keepaway_analyse(w); /* last, as the reference's keepaway referee */
}
