/* sim_ref_foul.c -- fouls and cards from tackles (docs/protocol/referee.md §8) and illegal
 * defense (referee.md §10). A successful tackle looks at every opponent who has the ball kickable:
 * with the foul flag he is foul-charged (frozen foul_cycles) and the foul is seen with the
 * tackler's foul_detect_probability; a dangerous tackle (the victim dashed lately, stands
 * between the tackler and the ball, faces the ball) is a yellow card when intentional and
 * seen, red with red_card_probability. The call: foul_charge, 30 steps, then a free kick
 * (indirect in the offender's penalty area). Illegal defense: too many defenders near
 * their goal line for illegal_defense_duration steps after an opponent's kick. */
#include <math.h>
#include "sim_ref.h"
#include "geom.h"
#include "playmode.h"

#define HALF_L  (PITCH_LENGTH / 2.0)

/* the victim dashed this cycle or the previous one */
static int dashed(const sim_world_t *w, int idx)
{
    const sim_player_t *p = &w->pl[idx];
    return p->leg[0] == SIM_LEG_DASH || p->leg[1] == SIM_LEG_DASH || w->ref.dashed_last[idx]
           || p->sh.count[SHM_CNT_DASH] != w->ref.dash_count[idx];
}

static void foul_charged(sim_world_t *w, int idx)
{
    sim_player_t *p = &w->pl[idx];
    p->sh.foul_charged = conf_int(w->conf, SP_foul_cycles);
    p->body_used = 1;
    p->cycle_state |= SIM_ST_FOUL_CHARGED;
}

/* victim p stands in the corridor from tackler t towards the ball and faces the ball */
static int dangerous(const sim_world_t *w, int t, int p)
{
    const shm_player_sh_t *ts = &w->pl[t].sh, *ps = &w->pl[p].sh;
    vec2_t ball = vec2(w->ball.x - ts->x, w->ball.y - ts->y);
    vec2_t rel = vec2(ps->x - ts->x, ps->y - ts->y);
    double ang = vec2_angle(ball);
    if (vec2_dot(rel, rel) > vec2_dot(ball, ball))
        return 0; /* further than the ball */
    double rx = rel.x * cos(ang) + rel.y * sin(ang), ry = -rel.x * sin(ang) + rel.y * cos(ang);
    if (rx < 0.0 || fabs(ry) > sim_ref_player_size(w, p) + sim_ref_player_size(w, t))
        return 0;
    return fabs(angle_norm(ps->body - ang)) <= M_PI * 0.5;
}

int sim_ref_foul_check(sim_world_t *w, int idx, int foul)
{
    rng_t *r = sim_ref_rng(w);
    double detect = sim_player_ptype(w, &w->pl[idx])->foul_detect_probability;
    double red_p = conf_real(w->conf, SP_red_card_probability);
    int charge = 0, yellow = 0, red = 0, side = w->pl[idx].sh.side;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (!w->pl[i].sh.enabled || w->pl[i].sh.side == side || !sim_ref_kickable(w, i))
            continue;
        int seen = 0;
        if (foul) {
            foul_charged(w, i);
            if (rng_unit(r) < detect)
                seen = charge = 1;
        }
        if (!dashed(w, i) || !dangerous(w, idx, i))
            continue;
        if (foul) {
            if (seen) {
                yellow = 1;
                if (rng_unit(r) < red_p) {
                    yellow = 0;
                    red = 1;
                }
            }
        } else if (rng_unit(r) < detect) {
            charge = 1;
            if (rng_unit(r) < red_p)
                yellow = 1;
        }
    }
    return red ? 3 : yellow ? 2 : charge ? 1 : 0;
}

/* FoulRef::callFoul: ball at the tackler, out of the goal areas and of the fouled team's
 * penalty area; foul_charge for the tackler's side */
static void call_foul(sim_world_t *w, int idx)
{
    const sim_player_t *t = &w->pl[idx];
    double x = t->sh.x, y = t->sh.y;
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_goal_area(SHM_SIDE_NONE, &x, &y);
    w->catcher = -1;
    if (t->sh.side == SHM_SIDE_LEFT) {
        sim_ref_out_of_penalty(SHM_SIDE_RIGHT, &x, &y);
        sim_ref_place_ball(w, PM_FOUL_CHARGE_L, SHM_SIDE_RIGHT, x, y);
    } else {
        sim_ref_out_of_penalty(SHM_SIDE_LEFT, &x, &y);
        sim_ref_place_ball(w, PM_FOUL_CHARGE_R, SHM_SIDE_LEFT, x, y);
    }
    w->ref.foul_wait = 0;
}

static void sim_ref_foul_tackle(sim_world_t *w, int idx, int foul)
{
    if (sim_ref_is_penalty(w->play_mode) || conf_bool(w->conf, SP_keepaway))
        return;
    int k = sim_ref_foul_check(w, idx, foul);
    if (k == 0)
        return;
    call_foul(w, idx);
    if (k == 3)
        sim_ref_red_card(w, idx);
    else if (k == 2)
        sim_ref_yellow_card(w, idx);
}

static void sim_ref_foul_analyse(sim_world_t *w)
{
    int pm = w->play_mode, side;
    if (pm == PM_FOUL_CHARGE_L || pm == PM_FOUL_PUSH_L)
        side = SHM_SIDE_LEFT;
    else if (pm == PM_FOUL_CHARGE_R || pm == PM_FOUL_PUSH_R)
        side = SHM_SIDE_RIGHT;
    else
        return;
    if (++w->ref.foul_wait > SIM_REF_STOP_WAIT - SIM_REF_CLEAR_TIME)
        sim_ref_clear_from_ball(w, side);
    if (w->ref.foul_wait <= SIM_REF_STOP_WAIT)
        return;
    int in_area = sim_ref_in_penalty(w, side, w->ball.x, w->ball.y);
    if (side == SHM_SIDE_LEFT)
        sim_referee_set_mode(w, in_area ? PM_INDIRECT_FREE_KICK_R : PM_FREE_KICK_R);
    else
        sim_referee_set_mode(w, in_area ? PM_INDIRECT_FREE_KICK_L : PM_FREE_KICK_L);
}

static void sim_ref_foul_mode(sim_world_t *w, int pm)
{
    if (pm == PM_FOUL_CHARGE_L || pm == PM_FOUL_CHARGE_R || pm == PM_FOUL_PUSH_L
        || pm == PM_FOUL_PUSH_R)
        w->ref.foul_wait = 0;
}

/* ---- illegal defense ----------------------------------------------------------------- */
static int use_illegal_defense(const sim_world_t *w)
{
    return conf_int(w->conf, SP_illegal_defense_number) != 0;
}

static void sim_ref_defense_kick(sim_world_t *w, int idx, double accel)
{
    (void)accel; /* only offside and the touch line look at it */
    sim_ref_t *r = &w->ref;
    int side = w->pl[idx].sh.side;
    if (!use_illegal_defense(w))
        return;
    if (r->ill_kick_time == w->time
        && (side != r->ill_kicker_side || r->ill_kicker_side == SHM_SIDE_NONE)) {
        r->ill_kicker_side = SHM_SIDE_NONE; /* both teams kicked in one cycle */
        return;
    }
    r->ill_kick_time = w->time;
    r->ill_kicker_side = side;
}

/* defenders of side (k: 0 left, 1 right) in the zone before their goal; flags them */
static int count_defenders(sim_world_t *w, int side)
{
    double zone = HALF_L - conf_real(w->conf, SP_illegal_defense_dist_x);
    double hw = conf_real(w->conf, SP_illegal_defense_width) * 0.5;
    int n = 0;
    if (w->ref.ill_kicker_side != -side || w->ball.x * side >= 0.0)
        return 0; /* the opponents kicked last and the ball is in side's half */
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || p->sh.side != side || p->sh.x * side >= -zone
            || fabs(p->sh.y) >= hw)
            continue;
        n++;
        p->cycle_state |= SIM_ST_ILLEGAL_DEFENSE;
    }
    return n;
}

static void defense_count(sim_world_t *w, int side)
{
    int k = side == SHM_SIDE_LEFT ? 0 : 1;
    if (count_defenders(w, side) >= conf_int(w->conf, SP_illegal_defense_number)) {
        w->ref.ill_count[k]++;
        return;
    }
    w->ref.ill_count[k] = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.side == side)
            w->pl[i].cycle_state &= ~SIM_ST_ILLEGAL_DEFENSE;
    }
}

static void defense_call(sim_world_t *w, int side)
{
    int k = side == SHM_SIDE_LEFT ? 0 : 1;
    if (w->ref.ill_count[k] < conf_int(w->conf, SP_illegal_defense_duration))
        return;
    w->catcher = -1;
    sim_ref_place_ball(w, side == SHM_SIDE_LEFT ? PM_ILLEGAL_DEFENSE_L : PM_ILLEGAL_DEFENSE_R,
                       -side, -41.5 * side, 0.0);
    w->ref.ill_count[k] = 0;
    w->ref.ill_wait = 0;
}

static void sim_ref_defense_analyse(sim_world_t *w)
{
    int pm = w->play_mode;
    if (!use_illegal_defense(w) || sim_ref_is_penalty(pm))
        return;
    if (pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R) {
        int side = pm == PM_ILLEGAL_DEFENSE_L ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
        if (++w->ref.ill_wait > SIM_REF_STOP_WAIT - SIM_REF_CLEAR_TIME)
            sim_ref_clear_from_ball(w, side);
        if (w->ref.ill_wait > SIM_REF_STOP_WAIT)
            sim_referee_set_mode(w, side == SHM_SIDE_LEFT ? PM_FREE_KICK_R : PM_FREE_KICK_L);
        return;
    }
    if (pm != PM_PLAY_ON)
        return;
    defense_count(w, SHM_SIDE_LEFT);
    defense_count(w, SHM_SIDE_RIGHT);
    defense_call(w, SHM_SIDE_LEFT);
    defense_call(w, SHM_SIDE_RIGHT);
}

static void sim_ref_defense_mode(sim_world_t *w, int pm)
{
    if (pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R)
        w->ref.ill_wait = 0;
}

const sim_ref_part_t sim_ref_foul_part = {
    .name = "FoulRef",
    .tackle = sim_ref_foul_tackle,
    .analyse = sim_ref_foul_analyse,
    .mode = sim_ref_foul_mode,
};

const sim_ref_part_t sim_ref_defense_part = {
    .name = "IllegalDefenseRef",
    .kick = sim_ref_defense_kick,
    .analyse = sim_ref_defense_analyse,
    .mode = sim_ref_defense_mode,
};
