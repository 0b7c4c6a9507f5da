/* sim_ref_penalty.c -- the penalty shoot-out (docs/protocol/referee.md §12): started when the
 * game is level after the last extra half (random goal, random first team), then per
 * attempt penalty_setup (pen_setup_wait), penalty_ready (pen_ready_wait; the taker's kick
 * makes it penalty_taken, pen_taken_wait), penalty_score or penalty_miss
 * (pen_before_setup_wait), the next team. Misplaced players (moved by the referee with
 * pen_coach_moves_players), wrong kickers, second kicks and wrong catches are
 * penalty_foul. pen_nr_kicks each, an early winner when the other cannot catch up, sudden
 * death up to pen_max_extra_kicks each, then a coin toss (pen_random_winner) or a draw. */
#include <math.h>
#include "sim_ref.h"
#include "playmode.h"

#define HALF_L  (PITCH_LENGTH / 2.0)
#define HALF_W  (PITCH_WIDTH / 2.0)

static int    ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }
static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static int is(int pm, int l, int r) { return pm == l || pm == r; }
static int k_of(int side) { return side == SHM_SIDE_LEFT ? 0 : 1; }

static double dist(const sim_world_t *w, int idx, double x, double y)
{
    return hypot(w->pl[idx].sh.x - x, w->pl[idx].sh.y - y);
}

/* ---- results of an attempt ----------------------------------------------------------- */
static void check_score(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int nk = ci(w, SP_pen_nr_kicks), mx = ci(w, SP_pen_max_extra_kicks);
    int l = w->pen_score[0], rs = w->pen_score[1], n = r->pen_nr_taken;
    if (n > 2 * (mx + nk)) { /* every kick taken, still level */
        if (conf_bool(w->conf, SP_pen_random_winner)) {
            r->pen_coin = rng_unit(sim_ref_rng(w)) < 0.5 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
            sim_world_referee_say(w, r->pen_coin == SHM_SIDE_LEFT ? "penalty_winner_l"
                                                                  : "penalty_winner_r");
        } else {
            sim_world_referee_say(w, "penalty_draw");
        }
        r->pen_timeover = 1;
    } else if (n > 2 * nk) { /* sudden death: decided after each pair */
        if (n % 2 == 0 && l != rs) {
            sim_world_referee_say(w, l > rs ? "penalty_winner_l" : "penalty_winner_r");
            r->pen_timeover = 1;
        }
    } else {
        int left = nk - n / 2, max_l = l + left, max_r = rs + left;
        if (n % 2 == 1) { /* the team that just kicked has one kick fewer to come */
            if (r->pen_taker == SHM_SIDE_LEFT)
                max_l--;
            else if (r->pen_taker == SHM_SIDE_RIGHT)
                max_r--;
        }
        if (max_l < rs) {
            sim_world_referee_say(w, "penalty_winner_r");
            sim_referee_set_mode(w, PM_TIME_OVER); /* at once, as the reference does */
        } else if (max_r < l) {
            sim_world_referee_say(w, "penalty_winner_l");
            r->pen_timeover = 1;
        }
    }
}

static void pen_score(sim_world_t *w, int side)
{
    sim_referee_set_mode(w, side == SHM_SIDE_RIGHT ? PM_PENALTY_SCORE_R : PM_PENALTY_SCORE_L);
    if (w->team[k_of(side)][0] != '\0')
        w->pen_score[k_of(side)]++;
    w->ref.pen_nr_taken++;
    check_score(w);
}

static void pen_miss(sim_world_t *w, int side)
{
    sim_referee_set_mode(w, side == SHM_SIDE_LEFT ? PM_PENALTY_MISS_L : PM_PENALTY_MISS_R);
    w->ref.pen_nr_taken++;
    if (w->team[k_of(side)][0] != '\0')
        w->pen_miss[k_of(side)]++;
    check_score(w);
}

/* a foul by side: a miss if it is the taking team, a goal for the taker otherwise */
static void pen_foul(sim_world_t *w, int side)
{
    sim_world_referee_say(w, side == SHM_SIDE_LEFT ? "penalty_foul_l" : "penalty_foul_r");
    if (side == w->ref.pen_taker)
        pen_miss(w, side);
    else
        pen_score(w, -side);
}

/* the next attempt: the other team sets up, ball pen_dist_x before the goal in use */
static void pen_init(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    r->pen_taker = r->pen_taker == SHM_SIDE_LEFT ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT;
    int pm = r->pen_taker == SHM_SIDE_LEFT ? PM_PENALTY_SETUP_L : PM_PENALTY_SETUP_R;
    sim_ref_place_ball(w, pm, SHM_SIDE_NONE, -r->pen_side * (HALF_L - cr(w, SP_pen_dist_x)), 0.0);
}

/* ---- positions ------------------------------------------------------------------------- */
static int pen_circle_out(const sim_world_t *w, int idx)
{
    return hypot(w->pl[idx].sh.x, w->pl[idx].sh.y)
           > PITCH_CIRCLE_R - sim_ref_player_size(w, idx);
}

static void to_circle(sim_world_t *w, int idx, double cx, double cy, double rad)
{
    double x = w->pl[idx].sh.x, y = w->pl[idx].sh.y;
    sim_ref_circle_edge(cx, cy, rad, &x, &y);
    sim_ref_move_player(w, idx, x, y, 0);
}

static int taker_rules(const sim_world_t *w, int side, int goalie, int n_out, int *outside)
{
    int pm = w->play_mode, setup = is(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SETUP_R);
    const shm_player_sh_t *g = &w->pl[goalie].sh;
    (void)side;
    if (n_out == 0) {
        if (setup && dist(w, goalie, w->ball.x, w->ball.y) <= 2.0)
            *outside = goalie;
        return 1;
    }
    if (fabs(g->x) < HALF_L - 1.5 || fabs(g->y) < PITCH_PENALTY_W / 2.0 - 1.5)
        return 0; /* the taking team's goalie waits near a corner of the goal line */
    if (n_out > 1)
        return 0;
    return !(setup && *outside >= 0 && dist(w, *outside, w->ball.x, w->ball.y) > 2.0);
}

/* PenaltyRef::penalty_check_players: side's players where they must be */
static int check_players(const sim_world_t *w, int side)
{
    const sim_ref_t *r = &w->ref;
    int pm = w->play_mode, n_out = 0, goalie = -1, outside = -1, ok;
    if (is(pm, PM_PENALTY_MISS_L, PM_PENALTY_MISS_R) || is(pm, PM_PENALTY_SCORE_L, PM_PENALTY_SCORE_R))
        return 1;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (!w->pl[i].sh.enabled || w->pl[i].sh.side != side)
            continue;
        if (w->pl[i].sh.goalie) {
            goalie = i;
            continue;
        }
        if (pen_circle_out(w, i)) {
            n_out++;
            outside = i;
        }
    }
    if (goalie < 0)
        return 0;
    if (side == r->pen_taker) {
        ok = taker_rules(w, side, goalie, n_out, &outside);
    } else {
        const shm_player_sh_t *g = &w->pl[goalie].sh;
        ok = 1;
        if (!is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R)
            && (fabs(g->x) < HALF_L - cr(w, SP_pen_max_goalie_dist_x)
                || fabs(g->y) > cr(w, SP_goal_width) * 0.5))
            ok = 0;
        if (n_out != 0)
            ok = 0;
    }
    if (ok && outside >= 0 && pm == (side == SHM_SIDE_LEFT ? PM_PENALTY_SETUP_L : PM_PENALTY_SETUP_R)
        && (r->pen_done[k_of(side)] >> (w->pl[outside].sh.unum - 1) & 1u))
        ok = 0; /* he has taken a kick already */
    return ok;
}

/* the nearest player to the ball who has not kicked yet, the goalie if nobody else */
static int candidate_taker(const sim_world_t *w)
{
    const sim_ref_t *r = &w->ref;
    int cand = -1, goalie = -1;
    double best = INFINITY;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &w->pl[i].sh;
        if (!p->enabled || p->side != r->pen_taker
            || (r->pen_done[k_of(p->side)] >> (p->unum - 1) & 1u))
            continue;
        if (p->goalie) {
            goalie = i;
            continue;
        }
        double d = dist(w, i, w->ball.x, w->ball.y);
        if (d < best) {
            best = d;
            cand = i;
        }
    }
    return cand >= 0 ? cand : goalie;
}

static void place_taker_team(sim_world_t *w)
{
    const sim_ref_t *r = &w->ref;
    int taken = is(w->play_mode, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R);
    int taker = r->pen_last_taker >= 0 ? r->pen_last_taker : candidate_taker(w);
    double gx = -r->pen_side * (HALF_L + 2.0);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &w->pl[i].sh;
        if (!p->enabled || p->side != r->pen_taker)
            continue;
        if (i == taker) {
            if (!taken && dist(w, i, w->ball.x, w->ball.y) > 2.0)
                to_circle(w, i, w->ball.x, w->ball.y, 2.0);
        } else if (p->goalie) {
            double gy = p->y > 0.0 ? 25.0 : -25.0;
            if (dist(w, i, gx, gy) > 2.0)
                to_circle(w, i, gx, gy, 2.0);
        } else if (pen_circle_out(w, i)) {
            to_circle(w, i, 0.0, 0.0, PITCH_CIRCLE_R - sim_ref_player_size(w, i));
        }
    }
}

static void place_other_team(sim_world_t *w)
{
    const sim_ref_t *r = &w->ref;
    int taken = is(w->play_mode, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R);
    double line = -r->pen_side * (HALF_L - cr(w, SP_pen_max_goalie_dist_x));
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &w->pl[i].sh;
        if (!p->enabled || p->side == r->pen_taker)
            continue;
        if (p->goalie) {
            if (!taken && (p->x - line) * r->pen_side > 0.0) /* too far from his line */
                sim_ref_move_player(w, i, line - 1.5 * r->pen_side, 0.0, 0);
        } else if (pen_circle_out(w, i)) {
            to_circle(w, i, 0.0, 0.0, PITCH_CIRCLE_R - sim_ref_player_size(w, i));
        }
    }
}

static void place_all(sim_world_t *w, int side)
{
    if (side == w->ref.pen_taker)
        place_taker_team(w);
    else
        place_other_team(w);
}

/* ---- the shoot-out ---------------------------------------------------------------------- */
static void start(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int h = r->half_cycles, normal = ci(w, SP_nr_normal_halfs), extra = ci(w, SP_nr_extra_halfs);
    if (r->pen_started || !conf_bool(w->conf, SP_penalty_shoot_outs)
        || w->play_mode == PM_BEFORE_KICK_OFF || w->score[0] != w->score[1])
        return;
    if (!((h < 0 && normal + extra == 0)
          || (h >= 0 && w->time >= h * normal + r->extra_cycles * extra)))
        return;
    rng_t *rng = sim_ref_rng(w);
    r->pen_side = rng_unit(rng) < 0.5 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    w->catcher = -1;
    sim_world_referee_say(w, r->pen_side == SHM_SIDE_LEFT ? "penalty_onfield_l"
                                                          : "penalty_onfield_r");
    r->pen_taker = rng_unit(rng) < 0.5 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) { /* the other goalie to the goal in use */
        const shm_player_sh_t *p = &w->pl[i].sh;
        if (p->enabled && p->side == -r->pen_side && p->goalie)
            sim_ref_move_player(w, i, -r->pen_side * (HALF_L - 10.0), 10.0, 0);
    }
    pen_init(w);
    r->pen_started = 1;
}

static void timeout(sim_world_t *w, int ok_l, int ok_r)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    if (conf_bool(w->conf, SP_pen_coach_moves_players) && is(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SETUP_R)) {
        if (!ok_l)
            place_all(w, SHM_SIDE_LEFT);
        if (!ok_r)
            place_all(w, SHM_SIDE_RIGHT);
        ok_l = ok_r = 1;
    }
    if (is(pm, PM_PENALTY_MISS_L, PM_PENALTY_MISS_R) || is(pm, PM_PENALTY_SCORE_L, PM_PENALTY_SCORE_R))
        pen_init(w);
    else if (ok_l && ok_r) {
        if (pm == PM_PENALTY_SETUP_L || pm == PM_PENALTY_SETUP_R)
            sim_referee_set_mode(w, pm == PM_PENALTY_SETUP_L ? PM_PENALTY_READY_L : PM_PENALTY_READY_R);
        else if (is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_READY_L))
            pen_miss(w, SHM_SIDE_LEFT);
        else if (is(pm, PM_PENALTY_TAKEN_R, PM_PENALTY_READY_R))
            pen_miss(w, SHM_SIDE_RIGHT);
    } else if (r->pen_taker == SHM_SIDE_LEFT) {
        pen_foul(w, !ok_l ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT);
    } else if (r->pen_taker == SHM_SIDE_RIGHT) {
        pen_foul(w, !ok_r ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT);
    }
}

static int ball_out(const sim_world_t *w)
{
    double bs = cr(w, SP_ball_size);
    return fabs(w->ball.x) > HALF_L + bs || fabs(w->ball.y) > HALF_W + bs;
}

static void running(sim_world_t *w, int ok_l, int ok_r)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    r->pen_timer--;
    if (is(pm, PM_PENALTY_MISS_L, PM_PENALTY_MISS_R) || is(pm, PM_PENALTY_SCORE_L, PM_PENALTY_SCORE_R)) {
        sim_ref_place_ball(w, PM_NULL, r->pen_taker, w->ball.x, w->ball.y); /* stopped */
        return;
    }
    if (ok_l && ok_r) {
        if (sim_ref_cross_goal_line(w, r->pen_side, r->pen_prev_x, r->pen_prev_y)) {
            if (pm == PM_PENALTY_TAKEN_L)
                pen_score(w, SHM_SIDE_LEFT);
            else if (pm == PM_PENALTY_TAKEN_R)
                pen_score(w, SHM_SIDE_RIGHT);
            sim_ref_place_ball(w, PM_NULL, r->pen_side, w->ball.x, w->ball.y);
        } else if (ball_out(w)) {
            sim_ref_place_ball(w, PM_NULL, r->pen_side, w->ball.x, w->ball.y);
            if (pm == PM_PENALTY_TAKEN_L)
                pen_miss(w, SHM_SIDE_LEFT);
            else if (pm == PM_PENALTY_TAKEN_R)
                pen_miss(w, SHM_SIDE_RIGHT);
        }
    } else if (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R) || is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R)) {
        if (conf_bool(w->conf, SP_pen_coach_moves_players)) {
            if (!ok_l)
                place_all(w, SHM_SIDE_LEFT);
            if (!ok_r)
                place_all(w, SHM_SIDE_RIGHT);
        } else if (r->pen_taker == SHM_SIDE_LEFT) {
            pen_foul(w, !ok_l ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT);
        } else if (r->pen_taker == SHM_SIDE_RIGHT) {
            pen_foul(w, !ok_r ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT);
        }
    }
}

static void analyse_impl(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    if (!sim_ref_is_penalty(pm))
        return;
    if (r->pen_timeover) {
        sim_referee_set_mode(w, PM_TIME_OVER);
        return;
    }
    int ok_l = check_players(w, SHM_SIDE_LEFT), ok_r = check_players(w, SHM_SIDE_RIGHT);
    if (conf_bool(w->conf, SP_pen_coach_moves_players)
        && (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R) || is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R))) {
        if (!ok_l)
            place_all(w, SHM_SIDE_LEFT);
        if (!ok_r)
            place_all(w, SHM_SIDE_RIGHT);
        ok_l = ok_r = 1;
    }
    if (r->pen_timer == 0)
        timeout(w, ok_l, ok_r);
    else if (r->pen_timer > 0)
        running(w, ok_l, ok_r);
}

static void sim_ref_penalty_analyse(sim_world_t *w)
{
    start(w);
    analyse_impl(w);
    w->ref.pen_prev_x = w->ball.x;
    w->ref.pen_prev_y = w->ball.y;
}

static void sim_ref_penalty_catch(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    if (!sim_ref_is_penalty(pm))
        return;
    if (is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R)) {
        if (w->pl[idx].sh.side == r->pen_taker)
            pen_foul(w, r->pen_taker); /* caught by the taking team's goalie */
        else if (!sim_ref_in_penalty(w, r->pen_side, w->ball.x, w->ball.y))
            pen_foul(w, -r->pen_taker);
        else
            pen_miss(w, r->pen_taker);
    } else if (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R)) {
        pen_foul(w, w->pl[idx].sh.side);
    }
    sim_ref_place_ball(w, PM_NULL, SHM_SIDE_NONE, w->ball.x, w->ball.y);
}

/* a kick in the ready or taken mode: the right taker, once */
static void judge_kick(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    const shm_player_sh_t *p = &w->pl[idx].sh;
    int pm = w->play_mode, t = r->pen_taker;
    if (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R) && p->side == t
        && (r->pen_done[k_of(t)] >> (p->unum - 1) & 1u))
        pen_foul(w, t); /* he has taken a kick already */
    else if (r->pen_last_taker >= 0 && w->pl[r->pen_last_taker].sh.side == t
             && r->pen_last_taker != idx)
        pen_foul(w, t); /* a second player of the taking team */
    else if (p->side != t && !p->goalie)
        pen_foul(w, -t);
    else
        r->pen_last_taker = idx;
}

static void sim_ref_penalty_kick(sim_world_t *w, int idx, double accel)
{
    (void)accel; /* only offside and the touch line look at it */
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    const shm_player_sh_t *p = &w->pl[idx].sh;
    if (!sim_ref_is_penalty(pm))
        return;
    if (w->catcher >= 0)
        ; /* kicked while the goalie holds it: nothing to judge */
    else if (is(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SETUP_R))
        pen_foul(w, p->side);
    else if (!conf_bool(w->conf, SP_pen_allow_mult_kicks)
             && is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R) && p->side == r->pen_taker)
        pen_foul(w, r->pen_taker);
    else if (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R) || is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R))
        judge_kick(w, idx);
    pm = w->play_mode;
    if (pm == PM_PENALTY_READY_L || pm == PM_PENALTY_READY_R) {
        int k = pm == PM_PENALTY_READY_L ? 0 : 1;
        r->pen_done[k] |= 1u << (p->unum - 1);
        if (r->pen_done[k] == (1u << SHM_TEAM_SIZE) - 1u)
            r->pen_done[k] = 0; /* everybody kicked: start again */
        sim_referee_set_mode(w, k == 0 ? PM_PENALTY_TAKEN_L : PM_PENALTY_TAKEN_R);
    } else if (!is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R)) {
        sim_ref_place_ball(w, PM_NULL, r->pen_side, w->ball.x, w->ball.y);
    }
}

static void sim_ref_penalty_tackle(sim_world_t *w, int idx, int foul)
{
    int pm = w->play_mode;
    if (!sim_ref_is_penalty(pm) || is(pm, PM_PENALTY_MISS_L, PM_PENALTY_MISS_R)
        || is(pm, PM_PENALTY_SCORE_L, PM_PENALTY_SCORE_R))
        return;
    if (sim_ref_foul_check(w, idx, foul) != 0)
        pen_foul(w, w->pl[idx].sh.side == w->ref.pen_taker ? w->ref.pen_taker : -w->ref.pen_taker);
    else
        sim_ref_penalty_kick(w, idx, 0.0);
}

static void sim_ref_penalty_mode(sim_world_t *w, int pm)
{
    sim_ref_t *r = &w->ref;
    if (!sim_ref_is_penalty(pm))
        return;
    if (is(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SETUP_R))
        r->pen_timer = ci(w, SP_pen_setup_wait);
    else if (is(pm, PM_PENALTY_READY_L, PM_PENALTY_READY_R))
        r->pen_timer = ci(w, SP_pen_ready_wait);
    else if (is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R))
        r->pen_timer = ci(w, SP_pen_taken_wait);
    else
        r->pen_timer = ci(w, SP_pen_before_setup_wait);
    if (!is(pm, PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R))
        r->pen_last_taker = -1;
}

const sim_ref_part_t sim_ref_penalty_part = {
    .name = "PenaltyRef",
    .kick = sim_ref_penalty_kick,
    .tackle = sim_ref_penalty_tackle,
    .caught = sim_ref_penalty_catch,
    .punched = sim_ref_penalty_catch, /* a punch is judged as a catch */
    .analyse = sim_ref_penalty_analyse,
    .mode = sim_ref_penalty_mode,
};
