/* dt_play.c -- what one player does this cycle, by play mode: the kick-off formation
 * (move) before kick-off and after goals; in play the fastest player to the ball
 * chases it and, with the ball, shoots, passes or dribbles, the others keep their
 * home positions; the goalie guards the goal, catches (not after a back pass) and
 * clears; set plays: our nearest player (the goalie for goal kicks and after a catch)
 * passes or clears, never twice in a row (free kick fault), the others keep 9.15 m
 * away from the ball when it is theirs; penalty shoot-outs: our taker dribbles and
 * shoots, our goalie defends. */
#include <math.h>
#include <stdio.h>
#include "dt.h"

#define SETPLAY_WAIT 8   /* cycles a set play waits for the team to take its places */
#define HOLD_WAIT    12  /* cycles the goalie holds a caught ball */
#define SHOOT_DIST   26.0
#define SHOOT_ANYWAY 25.0

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
static double dist(vec2_t a, vec2_t b) { return vec2_len(vec2_sub(a, b)); }

static vec2_t attack_goal(const dt_world_t *w)
{
    if (w->pm >= DT_PM_PENALTY_SETUP && w->pm <= DT_PM_PENALTY_OVER && w->pen_goal_x != 0.0)
        return vec2(w->pen_goal_x, 0.0);
    return vec2(PITCH_HALF_L, 0.0);
}

static vec2_t own_goal(const dt_world_t *w)
{
    if (w->pm >= DT_PM_PENALTY_SETUP && w->pm <= DT_PM_PENALTY_OVER && w->pen_goal_x != 0.0)
        return vec2(w->pen_goal_x, 0.0);
    return vec2(-PITCH_HALF_L, 0.0);
}

static int in_penalty_area(vec2_t p, vec2_t goal, double margin)
{
    return fabs(p.x - goal.x) < PITCH_HALF_L - DT_PENALTY_X - margin &&
           fabs(p.y) < DT_PENALTY_Y - margin && fabs(p.x) < PITCH_HALF_L + 1.0;
}

/* ---- opponents -------------------------------------------------------------------- */
typedef struct opp_list {
    int    n;
    int    keeper_seen;       /* their goalie is among them */
    vec2_t p[3 * DT_PLAYERS];
} opp_list_t;

/* opponents known recently, numbered or not (an unidentified player counts as one) */
static void opponents(const dt_world_t *w, opp_list_t *o)
{
    o->n = 0;
    o->keeper_seen = 0;
    for (int i = 1; i <= DT_PLAYERS; i++) {
        if (w->opp[i].age < 10) {
            o->p[o->n++] = w->opp[i].pos;
            o->keeper_seen |= w->opp[i].goalie;
        }
    }
    for (int i = 0; i < w->nanon && o->n < 3 * DT_PLAYERS; i++) {
        if (w->anon[i].age < 3 && w->anon[i].vel.x <= 0.0)
            o->p[o->n++] = w->anon[i].pos;
    }
}

static double nearest_opp(const opp_list_t *o, vec2_t at)
{
    double best = 1e9;
    for (int i = 0; i < o->n; i++)
        best = fmin(best, dist(o->p[i], at));
    return best;
}

/* can an opponent reach the ball on its way from `from` to `to`? */
static int lane_blocked(const opp_list_t *o, vec2_t from, vec2_t to)
{
    vec2_t d = vec2_sub(to, from);
    double len = vec2_len(d);
    if (len < 0.1)
        return 0;
    vec2_t u = vec2_scale(d, 1.0 / len);
    for (int i = 0; i < o->n; i++) {
        vec2_t r = vec2_sub(o->p[i], from);
        double t = vec2_dot(r, u);
        if (t < 0.0 || t > len + 1.0)
            continue;
        double perp = fabs(r.x * u.y - r.y * u.x);
        if (perp < 1.2 + 0.3 * t)
            return 1;
    }
    return 0;
}

/* ---- on the ball ------------------------------------------------------------------ */
/* cycles the ball needs to travel d at first speed v0 (decay per cycle); 1e9 never */
static double ball_cycles(const dt_world_t *w, double d, double v0)
{
    double k = w->prm->ball_decay, f = 1.0 - d * (1.0 - k) / v0;
    return f <= 0.0 ? 1e9 : log(f) / log(k);
}

/* how many cycles earlier the ball passes each opponent than it can get there; the
 * opposing goalie is assumed in the middle of the goal when not seen lately */
static double shot_margin(const dt_world_t *w, const opp_list_t *o, vec2_t target, double v0)
{
    vec2_t from = w->ball.pos, d = vec2_sub(target, from);
    double len = vec2_len(d), worst = 1e9;
    vec2_t u = vec2_scale(d, 1.0 / fmax(len, 0.1));
    for (int i = 0; i <= o->n; i++) {
        vec2_t p = i < o->n ? o->p[i] : vec2(attack_goal(w).x - 1.5, 0.0);
        int keeper = i == o->n || fabs(p.x - attack_goal(w).x) < 16.0;
        if (i == o->n && o->n > 0 && o->keeper_seen)
            continue;
        vec2_t r = vec2_sub(p, from);
        double t = clampd(vec2_dot(r, u), 0.0, len);
        double perp = vec2_len(vec2_sub(r, vec2_scale(u, t)));
        double reach = keeper ? 1.5 : 1.0;
        /* one cycle to see the shot, one to turn, then about a metre per cycle */
        double n_opp = fmax(perp - reach, 0.0) / 1.0 + 2.0;
        worst = fmin(worst, n_opp - ball_cycles(w, t, v0));
    }
    return worst;
}

/* the best place in the goal to shoot at, and its margin */
static double shoot_target(const dt_world_t *w, const opp_list_t *o, vec2_t *target)
{
    vec2_t g = attack_goal(w);
    double sx = g.x > 0 ? 1.0 : -1.0, half = w->prm->goal_width / 2.0 - 0.7, best = -1e9;
    for (double y = -half; y <= half + 1e-9; y += half / 6.0) {
        vec2_t t = vec2(g.x + sx * 2.0, y);
        double m = shot_margin(w, o, t, w->prm->ball_speed_max * 0.95);
        if (m > best) {
            best = m;
            *target = t;
        }
    }
    return best;
}

/* does the teammate at `mate` get to `t` clearly before every opponent? */
static int reaches_first(const opp_list_t *o, vec2_t mate, vec2_t t)
{
    double mine = dist(mate, t);
    for (int i = 0; i < o->n; i++) {
        if (dist(o->p[i], t) - 1.0 < mine + 2.0)
            return 0;
    }
    return 1;
}

/* score of a pass to t for the teammate now at m: progress, space, length */
static double pass_score(const dt_world_t *w, const opp_list_t *o, vec2_t m, vec2_t t)
{
    double d = dist(t, w->ball.pos);
    if (d < 5.0 || d > 35.0 || fabs(t.y) > 31.0 || fabs(t.x) > 47.0)
        return -1e9;
    if (lane_blocked(o, w->ball.pos, t) || !reaches_first(o, m, t))
        return -1e9;
    double free = fmin(nearest_opp(o, t), 10.0);
    return (t.x - w->pos.x) + 0.8 * free - 0.15 * d;
}

/* The best pass, with its score (-1e9 if none): to a teammate's feet, or (fwd) into
 * the space ahead of it, which it runs onto. A teammate beyond the offside line is
 * never the receiver. */
static double best_pass(const dt_world_t *w, const opp_list_t *o, vec2_t *target, int fwd)
{
    double best = -1e9, off = dt_formation_offside_x(w);
    for (int u = 2; u <= DT_PLAYERS; u++) {
        const dt_obj_t *m = &w->mate[u];
        if (u == w->unum || m->age > 8 || m->pos.x > off)
            continue;
        vec2_t cand[2] = { vec2_add(m->pos, vec2(fwd ? 1.5 : 0.0, 0.0)),
                           vec2(m->pos.x + 9.0, m->pos.y * 0.85) };
        for (int k = 0; k < (fwd && u >= 6 ? 2 : 1); k++) {
            double score = pass_score(w, o, m->pos, cand[k]);
            if (score > best) {
                best = score;
                *target = cand[k];
            }
        }
    }
    return best;
}

static void pass_to(dt_world_t *w, dt_cmd_t *c, vec2_t t)
{
    double d = dist(t, w->ball.pos);
    dt_skill_kick_to(w, c, t, dt_skill_pass_speed(w, d, 0.7));
}

static void clear_ball(dt_world_t *w, dt_cmd_t *c)
{
    double side = w->ball.pos.y >= 0 ? 1.0 : -1.0;
    vec2_t t = vec2(fmin(w->ball.pos.x + 30.0, 30.0), side * 25.0);
    dt_skill_kick_to(w, c, t, w->prm->ball_speed_max);
}

/* dribble towards the goal, away from opponents in the way */
static vec2_t dribble_target(const dt_world_t *w, const opp_list_t *o)
{
    vec2_t g = attack_goal(w);
    double a0 = vec2_angle(vec2_sub(vec2(g.x, w->pos.y * 0.6), w->pos));
    static const double tries[] = { 0, -30, 30, -60, 60, -90, 90 };
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
        double a = a0 + deg2rad(tries[i]);
        vec2_t t = vec2_add(w->pos, vec2_polar(6.0, a));
        if (fabs(t.y) > 31.0 || fabs(t.x) > 50.0)
            continue;
        if (!lane_blocked(o, w->pos, t) && nearest_opp(o, t) > 3.0)
            return t;
    }
    return vec2_add(w->pos, vec2_polar(6.0, a0));
}

static void on_ball(dt_world_t *w, dt_cmd_t *c)
{
    opp_list_t o;
    opponents(w, &o);
    vec2_t g = attack_goal(w), t;
    double dg = dist(w->ball.pos, g);
    if (w->tick - w->sent_tick <= 2 && vec2_len(w->ball.vel) > 1.0) {
        dt_skill_turn_to(w, c, w->ball.pos); /* it is on its way: let it go */
        return;
    }
    if (dg < SHOOT_DIST && w->pm != DT_PM_INDIRECT_FREE_KICK) {
        double margin = shoot_target(w, &o, &t);
        if (margin > 0.0 || dg < SHOOT_ANYWAY) {
            c->why = "shoot";
            dt_skill_kick_to(w, c, t, w->prm->ball_speed_max);
            return;
        }
    }
    double pressure = nearest_opp(&o, w->pos);
    double score = best_pass(w, &o, &t, 1);
    if ((pressure < 3.5 && score > -4.0) || score > 10.0) {
        c->why = "pass";
        pass_to(w, c, t);
        return;
    }
    if (pressure < 3.5 && w->pos.x < -25.0) {
        c->why = "clear";
        clear_ball(w, c);
        return;
    }
    c->why = pressure > 5.0 ? "dribble-free" : "dribble";
    dt_skill_dribble(w, c, dribble_target(w, &o), pressure > 5.0);
}

/* ---- who chases ------------------------------------------------------------------- */
static int i_am_fastest(const dt_world_t *w, int my_n)
{
    double speed = 0.9;
    for (int u = 2; u <= DT_PLAYERS; u++) {
        if (u == w->unum || w->mate[u].age > 12)
            continue;
        if (u == w->kicker && w->tick - w->kicked_tick < 15 && vec2_len(w->ball.vel) > 0.6)
            continue; /* it just kicked the ball away: it is not coming for it */
        /* a teammate must be clearly faster: each of us guesses from its own view,
         * and two chasers are better than none */
        int n = dt_skill_intercept_from(w, w->mate[u].pos, speed) + 1;
        if (n + 2 <= my_n)
            return 0;
    }
    return 1;
}

static void position(dt_world_t *w, dt_cmd_t *c)
{
    vec2_t home = dt_formation_home(w, w->unum);
    double d = dist(home, w->pos);
    double power = d > 10.0 ? 80.0 : d > 3.0 ? 50.0 : 30.0;
    if (dt_skill_go_to(w, c, home, 1.5, power) && w->ball.age < DT_UNKNOWN)
        dt_skill_turn_to(w, c, w->ball.pos);
}

/* ---- goalie ----------------------------------------------------------------------- */
/* Catching (docs/protocol/physics.md §5): certain within catchable_area_l * (2 - stretch),
 * less and less likely out to catchable_area_l * stretch. Returns 0 no catch possible, 1
 * catch now, 2 wait a cycle for a surer one. Only inside our penalty area, in play, not
 * after a back pass (docs/protocol/referee.md §9). */
static int catch_state(const dt_world_t *w)
{
    const dt_ptype_t *t = dt_world_type(w);
    double s = t->catch_stretch >= 1.0 ? t->catch_stretch : 1.0;
    double lmin = w->prm->catch_l * (2.0 - s), lmax = w->prm->catch_l * s;
    double d = dist(w->ball.pos, w->pos);
    double dn = dist(vec2_add(w->ball.pos, w->ball.vel), vec2_add(w->pos, w->vel));
    int back_pass = w->last_mate_touch > w->last_opp_touch;
    int mode_ok = w->pm == DT_PM_PLAY_ON || w->pm == DT_PM_PENALTY_TAKEN;
    if (!mode_ok || w->catch_ban > 0 || w->ball.age > 1 || back_pass || d >= lmax - 0.05 ||
        !in_penalty_area(w->ball.pos, own_goal(w), 0.8))
        return 0;
    if (d <= lmin || dn >= d || dn > lmax) /* sure, or it passes by: now */
        return 1;
    return 2;
}

/* the ball's path passes within easy reach of where the goalie stands, in its area:
 * running at it would only end in a collision */
static int ball_comes_to_me(const dt_world_t *w, vec2_t goal)
{
    vec2_t r = vec2_sub(w->pos, w->ball.pos), v = w->ball.vel;
    double speed = vec2_len(v);
    if (w->ball.age > 2 || speed < 0.3 || vec2_dot(v, r) <= 0.0 ||
        !in_penalty_area(w->ball.pos, goal, -1.0))
        return 0;
    vec2_t u = vec2_scale(v, 1.0 / speed);
    double t = vec2_dot(r, u);
    double perp = vec2_len(vec2_sub(r, vec2_scale(u, t)));
    return perp < 0.5 * w->prm->catch_l && t < speed / (1.0 - w->prm->ball_decay);
}

static void goalie_play(dt_world_t *w, dt_cmd_t *c)
{
    vec2_t g = own_goal(w), at;
    double dir = rad2deg(angle_norm(vec2_angle(vec2_sub(w->ball.pos, w->pos)) - w->body));
    if (!dt_world_may_touch(w)) {
        dt_skill_turn_to(w, c, w->ball.pos);
        return;
    }
    int cs = catch_state(w);
    if (cs == 1) {
        dt_cmd_catch(w, c, dir);
        return;
    }
    if (cs == 2) {
        dt_skill_turn_to(w, c, w->ball.pos); /* it comes closer: catch it next cycle */
        return;
    }
    if (dt_world_ball_kickable(w)) {
        clear_ball(w, c);
        return;
    }
    if (ball_comes_to_me(w, g)) {
        dt_skill_turn_to(w, c, w->ball.pos); /* stand: it will be in reach */
        return;
    }
    int n = dt_skill_intercept(w, &at);
    if (w->ball.age < 10 && in_penalty_area(at, g, -2.0) && (n < 20 || dist(at, g) < 12)) {
        dt_skill_chase(w, c);
        return;
    }
    vec2_t b = w->ball.age < DT_UNKNOWN ? w->ball.pos : vec2(0.0, 0.0);
    vec2_t u = vec2_sub(b, g);
    double r = clampd(vec2_len(u) * 0.12, 1.5, 6.0);
    vec2_t spot = vec2_add(g, vec2_scale(u, r / fmax(vec2_len(u), 0.1)));
    spot.x = g.x < 0 ? fmax(spot.x, g.x + 1.0) : fmin(spot.x, g.x - 1.0);
    if (dt_skill_go_to(w, c, spot, 0.7, dist(spot, w->pos) > 4 ? 80.0 : 40.0))
        dt_skill_turn_to(w, c, b);
}

/* ---- play on ---------------------------------------------------------------------- */
static void play_on(dt_world_t *w, dt_cmd_t *c)
{
    if (w->goalie) {
        goalie_play(w, c);
        return;
    }
    if (!dt_world_may_touch(w)) {
        /* our set-play kick is on its way: no second touch, not even by running into
         * the ball, until someone else has played it */
        if (dist(w->ball.pos, w->pos) < 3.0)
            dt_skill_turn_to(w, c, w->ball.pos);
        else
            position(w, c);
        return;
    }
    if (dt_world_ball_kickable(w)) {
        on_ball(w, c);
        return;
    }
    vec2_t at;
    int n = dt_skill_intercept(w, &at);
    if (w->ball.age < 20 && (n <= 2 || i_am_fastest(w, n))) {
        dt_skill_chase(w, c);
        return;
    }
    if (w->ball.age >= 20 && w->ball.age < DT_UNKNOWN && dist(w->ball.pos, w->pos) < 5.0) {
        dt_skill_turn_to(w, c, w->ball.pos); /* it was here: look for it */
        return;
    }
    position(w, c);
}

/* ---- set plays -------------------------------------------------------------------- */
static int setplay_kicker(const dt_world_t *w)
{
    if (w->pm == DT_PM_GOAL_KICK || (w->pm == DT_PM_FREE_KICK && in_penalty_area(
            w->ball.pos, own_goal(w), -1.0) && w->ball.pos.x < -40.0))
        return 1; /* the goalie takes goal kicks and free kicks at the goal */
    if (w->pm == DT_PM_KICK_OFF)
        return 10;
    /* the nearest field player among those seen lately: each player decides alone,
     * so two may go (the first kicks), but never none */
    int best = w->unum;
    double bd = dist(w->pos, w->ball.pos);
    for (int u = 2; u <= DT_PLAYERS; u++) {
        if (u == w->unum || w->mate[u].age > 10)
            continue;
        double d = dist(w->mate[u].pos, w->ball.pos);
        if (d < bd - 1.0) {
            bd = d;
            best = u;
        }
    }
    return best;
}

/* where a set-play kick goes, and how fast */
static vec2_t setplay_target(const dt_world_t *w, double *speed)
{
    opp_list_t o;
    opponents(w, &o);
    vec2_t t;
    double score = best_pass(w, &o, &t, w->pm != DT_PM_KICK_OFF);
    if (w->pm == DT_PM_GOAL_KICK && t.x < -DT_PENALTY_X + 3.0)
        score = -1e9; /* a goal kick must leave the penalty area: clear it instead */
    if (w->pm == DT_PM_CORNER_KICK && score < 5.0) {
        vec2_t g = attack_goal(w);
        t = vec2(g.x - 10.0, w->ball.pos.y > 0 ? 4.0 : -4.0);
    } else if (score < -1e8 && w->pm == DT_PM_KICK_OFF) {
        t = vec2(-12.0, w->unum % 2 ? 8.0 : -8.0);
    } else if (score < -1e8) {
        double side = w->ball.pos.y >= 0 ? 1.0 : -1.0;
        t = vec2(fmin(w->ball.pos.x + 30.0, 30.0), side * 25.0);
        *speed = w->prm->ball_speed_max;
        return t;
    }
    *speed = dt_skill_pass_speed(w, dist(t, w->ball.pos), 0.7);
    return t;
}

/* A set-play kick is one touch (a second after a dash would be a free kick fault): stand
 * behind the ball on the line to the target, face it, wait for the team, kick once. */
static void setplay_kick(dt_world_t *w, dt_cmd_t *c, int wait)
{
    double speed;
    vec2_t t = setplay_target(w, &speed), b = w->ball.pos;
    vec2_t rel = vec2_sub(b, w->pos);
    double dir = fabs(rad2deg(angle_norm(vec2_angle(rel) - w->body)));
    int placed = vec2_len(rel) < dt_world_kickable(w) - 0.15 && dir < 40.0;
    c->why = "setplay";
    if (!placed && !w->holding) {
        vec2_t u = vec2_sub(t, b);
        vec2_t spot = vec2_sub(b, vec2_scale(u, 0.6 / fmax(vec2_len(u), 0.1)));
        if (dt_skill_go_to(w, c, spot, 0.25, 60.0))
            dt_skill_turn_to(w, c, b);
        return;
    }
    if (wait) {
        dt_skill_turn_to(w, c, b);
        return;
    }
    if (!dt_skill_kick_direct(w, c, t, speed))
        dt_cmd_kick(w, c, w->prm->max_power,
                    rad2deg(angle_norm(vec2_angle(vec2_sub(t, b)) - w->body)));
}

static void our_setplay(dt_world_t *w, dt_cmd_t *c)
{
    int kicker = setplay_kicker(w);
    int kicked = w->setplay_kicked >= w->pm_tick;
    int stoppage = w->pm == DT_PM_OFFSIDE || w->pm == DT_PM_FOUL || w->pm == DT_PM_BACK_PASS ||
                   w->pm == DT_PM_FREE_KICK_FAULT || w->pm == DT_PM_CATCH_FAULT ||
                   w->pm == DT_PM_ILLEGAL_DEFENSE;
    if (w->holding && w->goalie) {
        setplay_kick(w, c, w->tick - w->pm_tick < HOLD_WAIT);
        return;
    }
    if (kicker != w->unum || kicked) {
        if (w->goalie)
            goalie_play(w, c);
        else
            position(w, c);
        return;
    }
    if (w->ball.age > 6) {
        dt_cmd_turn(w, c, 60.0); /* where did the referee put it? look around */
        return;
    }
    if (dist(w->ball.pos, w->pos) > 3.0) {
        dt_skill_go_to(w, c, w->ball.pos, 2.0, 100.0);
        return;
    }
    setplay_kick(w, c, stoppage || w->tick - w->pm_tick < SETPLAY_WAIT);
}

/* keep 9.15 m from the ball (and out of their penalty area at their goal kick) */
static void their_setplay(dt_world_t *w, dt_cmd_t *c)
{
    if (w->goalie) {
        goalie_play(w, c);
        return;
    }
    vec2_t home = dt_formation_home(w, w->unum), b = w->ball.pos;
    vec2_t r = vec2_sub(home, b);
    if (vec2_len(r) < 10.5)
        home = vec2_add(b, vec2_scale(r, 10.5 / fmax(vec2_len(r), 0.1)));
    if (w->pm == DT_PM_GOAL_KICK && home.x > DT_PENALTY_X - 1.5 && fabs(home.y) < DT_PENALTY_Y + 1.5)
        home.x = DT_PENALTY_X - 1.5;
    double power = dist(w->pos, b) < 9.5 ? 100.0 : 50.0;
    if (dt_skill_go_to(w, c, home, 1.0, power))
        dt_skill_turn_to(w, c, b);
}

/* ---- before kick-off, after a goal -------------------------------------------------- */
/* who kicks off next: after a goal the side that conceded; at a half's start the left
 * side in even halves (docs/protocol/referee.md §2; half_time is in seconds, 10 cycles each) */
static int kickoff_ours(const dt_world_t *w)
{
    if (w->pm == DT_PM_GOAL)
        return w->pm_ours;
    int half = (int)fmax(w->prm->half_time * 10.0, 1.0);
    return (w->time / half) % 2 == (w->side > 0 ? 0 : 1);
}

static void kickoff_place(dt_world_t *w, dt_cmd_t *c)
{
    int ours = kickoff_ours(w);
    vec2_t spot = dt_formation_kickoff(w->unum, ours);
    int moved = w->moved_tick >= w->pm_tick;
    if (!moved || (w->pos_age < 3 && dist(w->pos, spot) > 1.0 && w->tick - w->moved_tick > 5)) {
        dt_cmd_move(w, c, spot);
        return;
    }
    dt_skill_turn_to(w, c, vec2(0.0, 0.0));
}

/* ---- synch mode, before the first kick-off --------------------------------------------- */
/* In synch mode the server steps in real time until the first kick-off while the clients
 * join (docs/protocol/player.md §11.3), so how many cycles a player spends waiting
 * depends on when it joined, which the wall clock decides. Nothing done then may depend
 * on that count, or two matches with the same seed part: one move to the kick-off place
 * and a narrow view (a see every cycle, so that the phase of the sees at the kick-off
 * does not depend on the cycle the player joined in: the normal view comes back at the
 * kick-off, dt_world.c), then nothing: no turn (its noise would be drawn in the order the
 * players got there), no neck scan (its phase would count the cycles), the same commands
 * in every run, so that the counters the game log shows are the same too. */
static void prematch(dt_world_t *w, dt_cmd_t *c)
{
    if (w->prematch_set)
        return;
    w->prematch_set = 1;
    c->why = "prematch";
    dt_cmd_move(w, c, dt_formation_kickoff(w->unum, kickoff_ours(w)));
    dt_cmd_text(c, "(change_view narrow)");
}

/* ---- penalty shoot-out -------------------------------------------------------------- */
static void penalty(dt_world_t *w, dt_cmd_t *c)
{
    char us = w->side > 0 ? 'l' : 'r';
    if (w->pm_side != us) { /* they shoot: our goalie defends, the rest stand still */
        if (w->goalie && (w->pm == DT_PM_PENALTY_READY || w->pm == DT_PM_PENALTY_TAKEN))
            goalie_play(w, c);
        return;
    }
    if (w->pm != DT_PM_PENALTY_READY && w->pm != DT_PM_PENALTY_TAKEN)
        return;
    /* the taker is the one the referee put at the ball */
    if (w->ball.age > 5 || dist(w->ball.pos, w->pos) > 6.0)
        return;
    if (dt_world_ball_kickable(w))
        on_ball(w, c);
    else
        dt_skill_chase(w, c);
}

void dt_play_decide(dt_world_t *w, dt_cmd_t *c)
{
    if (w->prematch && w->prm->synch_mode > 0 && w->pm == DT_PM_BEFORE_KICK_OFF) {
        prematch(w, c);
        return;
    }
    switch (w->pm) {
    case DT_PM_BEFORE_KICK_OFF:
    case DT_PM_GOAL:
        kickoff_place(w, c);
        break;
    case DT_PM_PLAY_ON:
    case DT_PM_DROP_BALL:
        play_on(w, c);
        break;
    case DT_PM_TIME_OVER:
    case DT_PM_UNKNOWN:
    case DT_PM_OTHER:
        break;
    case DT_PM_PENALTY_SETUP:
    case DT_PM_PENALTY_READY:
    case DT_PM_PENALTY_TAKEN:
    case DT_PM_PENALTY_OVER:
        penalty(w, c);
        break;
    default:
        if (w->pm_ours)
            our_setplay(w, c);
        else
            their_setplay(w, c);
        break;
    }
    if (w->pm != DT_PM_TIME_OVER)
        dt_skill_look(w, c);
    if (w->view_back) {
        w->view_back = 0;
        dt_cmd_text(c, "(change_view normal)");
    }
}
