/* sim_referee.c -- the referee's core (docs/protocol/referee.md): play-mode changes with
 * their announcements, ball placement, kick-off, drop ball, cards, and the dispatch of
 * every physics hook and every analysis to the referees of sim_ref_*.c in the order
 * rcssserver 19 runs them (time, ball stuck, offside, set plays, touch line, goalie,
 * fouls, illegal defense, penalty shoot-out). With server::coach=true and no
 * coach_w_referee there is no referee: modes change only when someone says so. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_world.h"
#include "playmode.h"

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }
static int    ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

static int pm_in(int pm, int a, int b) { return pm >= a && pm <= b; }

/* seconds of server::half_time / extra_half_time in cycles, rounded as the reference */
static int half_cycles(const sim_world_t *w, param_id_t id)
{
    int step = ci(w, SP_simulator_step);
    return step > 0 ? (int)(cr(w, id) * 1000.0 / step + 0.5) : 0;
}

static const sim_rules_t referee_hooks;

void sim_referee_init(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    memset(r, 0, sizeof *r);
    w->rules = &referee_hooks;
    r->enabled = !(conf_bool(w->conf, SP_coach) && !conf_bool(w->conf, SP_coach_w_referee));
    r->half_cycles = half_cycles(w, SP_half_time);
    r->extra_cycles = half_cycles(w, SP_extra_half_time);
    r->kick_off_side = SHM_SIDE_LEFT;
    r->off_kick_time = r->off_kick_stoppage = -1;
    r->fk_timer = -1;
    r->fk_taker = r->touched = r->indirect_kicker = -1;
    r->bp_last = r->bp_before = -1;
    r->pen_timer = -1;
    r->pen_last_taker = -1;
    r->ill_kick_time = -1;
    r->kick_off_wait = ci(w, SP_kick_off_wait) > 0 ? ci(w, SP_kick_off_wait) : 0;
    r->connect_wait = ci(w, SP_connect_wait) > 0 ? ci(w, SP_connect_wait) : 0;
    r->game_over_wait = ci(w, SP_game_over_wait);
}

rng_t *sim_ref_rng(sim_world_t *w)
{
    return &w->rng_ref;
}

/* ---- small facts ---------------------------------------------------------------- */
int sim_ref_is_penalty(int pm)
{
    return pm_in(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SCORE_R);
}

int sim_ref_fk_mode(int pm)
{
    return pm_in(pm, PM_KICK_OFF_L, PM_FREE_KICK_R) || pm == PM_CORNER_KICK_L
           || pm == PM_CORNER_KICK_R || pm == PM_INDIRECT_FREE_KICK_L
           || pm == PM_INDIRECT_FREE_KICK_R;
}

int sim_ref_goal_kick(int pm)
{
    return pm == PM_GOAL_KICK_L || pm == PM_GOAL_KICK_R;
}

int sim_ref_stoppage(int pm)
{
    return pm == PM_GOAL_L || pm == PM_GOAL_R || pm == PM_OFFSIDE_L || pm == PM_OFFSIDE_R
           || pm_in(pm, PM_FOUL_CHARGE_L, PM_FOUL_PUSH_R)
           || pm_in(pm, PM_BACK_PASS_L, PM_CATCH_FAULT_R)
           || pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R;
}

int sim_referee_is_stoppage(int pm)
{
    return sim_ref_stoppage(pm);
}

int sim_referee_kick_allowed(int pm)
{
    return pm != PM_BEFORE_KICK_OFF && pm != PM_TIME_OVER && !sim_ref_stoppage(pm);
}

double sim_ref_ball_size(const sim_world_t *w)
{
    return cr(w, SP_ball_size);
}

double sim_ref_player_size(const sim_world_t *w, int idx)
{
    return sim_player_ptype(w, &w->pl[idx])->player_size;
}

int sim_ref_kickable(const sim_world_t *w, int idx)
{
    const sim_player_t *p = &w->pl[idx];
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double ka = t->player_size + cr(w, SP_ball_size) + t->kickable_margin;
    double dx = w->ball.x - p->sh.x, dy = w->ball.y - p->sh.y;
    return dx * dx + dy * dy <= ka * ka;
}

void sim_ref_add_state(sim_world_t *w, int idx, uint32_t st)
{
    if (idx >= 0 && idx < SHM_MAX_PLAYERS && w->pl[idx].sh.enabled)
        w->pl[idx].cycle_state |= st;
}

/* ---- play modes ------------------------------------------------------------------ */
static int placement_side(int pm, int side)
{
    switch (pm) {
    case PM_KICK_OFF_L: case PM_KICK_IN_L: case PM_FREE_KICK_L: case PM_INDIRECT_FREE_KICK_L:
    case PM_CORNER_KICK_L: case PM_GOAL_KICK_L: case PM_ILLEGAL_DEFENSE_R:
        return SHM_SIDE_LEFT;
    case PM_KICK_OFF_R: case PM_KICK_IN_R: case PM_FREE_KICK_R: case PM_INDIRECT_FREE_KICK_R:
    case PM_CORNER_KICK_R: case PM_GOAL_KICK_R: case PM_ILLEGAL_DEFENSE_L:
        return SHM_SIDE_RIGHT;
    case PM_DROP_BALL:
        return SHM_SIDE_NONE;
    default:
        return side;
    }
}

void sim_referee_set_mode(sim_world_t *w, int pm)
{
    if (pm <= PM_NULL || pm >= PM_MAX)
        return;
    w->play_mode = pm;
    w->mode_wait = 0;
    if (w->ref.enabled) { /* every referee reacts, in the reference's order */
        sim_ref_offside_mode(w, pm);
        sim_ref_play_mode(w, pm);
        sim_ref_touch_mode(w, pm);
        sim_ref_goalie_mode(w, pm);
        sim_ref_foul_mode(w, pm);
        sim_ref_defense_mode(w, pm);
        sim_ref_penalty_mode(w, pm);
    }
    w->ref.kick_off_side = placement_side(pm, w->ref.kick_off_side);
    if (pm != PM_PLAY_ON)
        w->last_toucher = -1;
    if (pm != PM_GOAL_L && pm != PM_GOAL_R)
        sim_world_referee_say(w, playmode_name(pm));
    sim_keepaway_mode_change(w, pm);
}

void sim_ref_place_ball(sim_world_t *w, int pm, int side, double x, double y)
{
    w->ball.x = x;
    w->ball.y = y;
    w->ball.vx = w->ball.vy = w->ball.ax = w->ball.ay = 0.0;
    w->ref.acc_x = w->ref.acc_y = 0.0;
    w->ref.kick_off_side = side;
    if (pm == PM_NULL)
        return;
    if (sim_ref_is_penalty(w->play_mode) && (pm == PM_PLAY_ON || pm == PM_DROP_BALL))
        return; /* never play_on during a shoot-out */
    sim_referee_set_mode(w, pm);
}

/* ---- kick-off (Stadium::kickOff) ------------------------------------------------- */
static void recover_players(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.enabled)
            sim_player_reset_stamina(w, &w->pl[i]);
    }
}

static int at_half_boundary(const sim_world_t *w)
{
    int h = w->ref.half_cycles, e = w->ref.extra_cycles, t = w->time;
    int normal = h * ci(w, SP_nr_normal_halfs);
    return h <= 0 || (t <= normal && t % h == 0)
           || (t > normal && e > 0 && (t - normal) % e == 0);
}

int sim_referee_kick_off(sim_world_t *w)
{
    if (sim_keepaway_kick_off(w))
        return 0;
    if (!at_half_boundary(w))
        return -1;
    int h = w->ref.half_cycles, normal = h * ci(w, SP_nr_normal_halfs);
    int cur = w->time, len = h;
    if (cur > normal) {
        cur -= normal;
        len = w->ref.extra_cycles;
    }
    int left = len <= 0 || (cur / len) % 2 == 0;
    if (ci(w, SP_nr_normal_halfs) >= 0 && w->time < normal)
        recover_players(w);
    sim_ref_place_ball(w, PM_NULL, left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, 0.0, 0.0);
    if (left && w->time == 0)
        sim_coach_kick_off(w); /* the automatic type assignment (sim_coach.c) */
    sim_referee_set_mode(w, left ? PM_KICK_OFF_L : PM_KICK_OFF_R);
    w->ref.kick_offs++;
    w->ref.kick_off_last = left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    return 0;
}

/* ---- drop ball and free kicks ---------------------------------------------------- */
static void drop_ball_at(sim_world_t *w, double x, double y, int out_of_penalty)
{
    w->catcher = -1;
    sim_ref_truncate(&x, &y);
    if (out_of_penalty)
        sim_ref_out_of_penalty(SHM_SIDE_NONE, &x, &y);
    sim_ref_place_ball(w, PM_DROP_BALL, SHM_SIDE_NONE, x, y);
    sim_ref_place_in_field(w);
    if (!sim_ref_is_penalty(w->play_mode))
        sim_referee_set_mode(w, PM_PLAY_ON);
}

void sim_referee_drop_ball(sim_world_t *w, double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        x = y = 0.0;
    drop_ball_at(w, x, y, 0); /* Stadium::dropBall: no penalty-area rule */
}

void sim_referee_call_foul(sim_world_t *w, int side, double x, double y)
{
    if (sim_ref_is_penalty(w->play_mode) || side == SHM_SIDE_NONE)
        return;
    if (!isfinite(x) || !isfinite(y))
        x = y = 0.0;
    /* the reference names the fouling side "l" only for -side == left, and gives the
     * free kick to the left only for side == left: a monitor's other numbers are the
     * right's free kick after a "foul_r" */
    sim_world_referee_say(w, -side == SHM_SIDE_LEFT ? "foul_l" : "foul_r");
    w->catcher = -1;
    sim_ref_truncate(&x, &y);
    int kick = side == SHM_SIDE_LEFT ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    sim_ref_place_ball(w, kick == SHM_SIDE_LEFT ? PM_FREE_KICK_L : PM_FREE_KICK_R, kick, x, y);
    sim_ref_place_in_field(w);
}

void sim_ref_award_drop_ball(sim_world_t *w, double x, double y)
{
    drop_ball_at(w, x, y, 1);
}

void sim_ref_award_free_kick(sim_world_t *w, int side, double x, double y)
{
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_penalty(-side, &x, &y);
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_FREE_KICK_L, SHM_SIDE_LEFT, x, y);
    else if (side == SHM_SIDE_RIGHT)
        sim_ref_place_ball(w, PM_FREE_KICK_R, SHM_SIDE_RIGHT, x, y);
}

void sim_ref_award_goal_kick(sim_world_t *w, int side, double x, double y)
{
    y = y > 0.0 ? SIM_REF_GOAL_AREA_W / 2.0 : -SIM_REF_GOAL_AREA_W / 2.0;
    w->catcher = -1;
    x = SIM_REF_PITCH_L / 2.0 - SIM_REF_GOAL_AREA_L;
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_GOAL_KICK_L, SHM_SIDE_LEFT, -x, y);
    else
        sim_ref_place_ball(w, PM_GOAL_KICK_R, SHM_SIDE_RIGHT, x, y);
}

/* ---- cards ----------------------------------------------------------------------- */
static void card_say(sim_world_t *w, int idx, const char *colour)
{
    char msg[40];
    const sim_player_t *p = &w->pl[idx];
    snprintf(msg, sizeof msg, "%s_card_%s_%d", colour, p->sh.side == SHM_SIDE_LEFT ? "l" : "r",
             p->sh.unum);
    sim_world_referee_say(w, msg);
}

void sim_ref_red_card(sim_world_t *w, int idx)
{
    if (!w->pl[idx].sh.enabled)
        return;
    card_say(w, idx, "red");
    w->pl[idx].sh.card = 2;
    sim_player_disable(w, idx); /* the client cannot reconnect (netgw checks the card) */
}

void sim_ref_yellow_card(sim_world_t *w, int idx)
{
    if (!w->pl[idx].sh.enabled)
        return;
    card_say(w, idx, "yellow");
    if (w->pl[idx].sh.card == 1) { /* the second yellow */
        sim_ref_red_card(w, idx);
        return;
    }
    w->pl[idx].sh.card = 1;
}

/* ---- hooks from the physics ------------------------------------------------------ */
/* the acceleration this kick gave the ball: what the ball's accumulated acceleration
 * grew by since the previous ball event of the same step */
static double kick_accel(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    if (r->acc_step != w->steps) {
        r->acc_step = w->steps;
        r->acc_x = r->acc_y = 0.0;
    }
    double dx = w->ball.ax - r->acc_x, dy = w->ball.ay - r->acc_y;
    r->acc_x = w->ball.ax;
    r->acc_y = w->ball.ay;
    return sqrt(dx * dx + dy * dy);
}

static void sync_toucher(sim_world_t *w)
{
    w->last_toucher = w->ref.touched;
}

static void on_kick(sim_world_t *w, int idx)
{
    double a = kick_accel(w);
    if (!w->ref.enabled)
        return;
    sim_ref_offside_kick(w, idx, a);
    sim_ref_play_kick(w, idx);
    sim_ref_touch_kick(w, idx, a);
    sim_ref_goalie_kick(w, idx);
    sim_ref_defense_kick(w, idx);
    sim_ref_penalty_kick(w, idx);
    sync_toucher(w);
}

static void on_tackle(sim_world_t *w, int idx, int foul)
{
    double a = kick_accel(w);
    if (!w->ref.enabled)
        return;
    sim_ref_offside_kick(w, idx, a);
    sim_ref_play_kick(w, idx);
    sim_ref_touch_kick(w, idx, a);
    sim_ref_goalie_kick(w, idx);
    sim_ref_foul_tackle(w, idx, foul);
    sim_ref_defense_kick(w, idx);
    sim_ref_penalty_tackle(w, idx, foul);
    sync_toucher(w);
}

static void on_failed(sim_world_t *w, int idx)
{
    if (w->ref.enabled)
        sim_ref_offside_failed(w, idx);
}

static void touched(sim_world_t *w, int idx)
{
    sim_ref_offside_kick(w, idx, 0.0);
    sim_ref_play_touch(w, idx);
    sim_ref_touch_kick(w, idx, 0.0);
    sim_ref_goalie_touch(w, idx);
    sync_toucher(w);
}

static void on_collide(sim_world_t *w, int idx)
{
    if (w->ref.enabled)
        touched(w, idx);
}

static void on_catch(sim_world_t *w, int idx)
{
    const sim_player_t *p = &w->pl[idx];
    kick_accel(w); /* the catch stopped the ball */
    if (!sim_ref_is_penalty(w->play_mode))
        sim_world_referee_say(w, p->sh.side == SHM_SIDE_LEFT ? "goalie_catch_ball_l"
                                                             : "goalie_catch_ball_r");
    if (w->ref.enabled) {
        touched(w, idx);
        sim_ref_goalie_catch(w, idx);
        sim_ref_penalty_catch(w, idx);
    }
    /* the goalie holds the ball only for the free kick he was given */
    w->catcher = w->play_mode == PM_FREE_KICK_L || w->play_mode == PM_FREE_KICK_R ? idx : -1;
    sync_toucher(w);
}

static void on_punch(sim_world_t *w, int idx)
{
    kick_accel(w);
    if (!w->ref.enabled)
        return;
    touched(w, idx);
    sim_ref_goalie_punch(w, idx);
    sim_ref_penalty_catch(w, idx);
    sync_toucher(w);
}

/* what the physics tells the referee (w->rules) */
static const sim_rules_t referee_hooks = {
    .on_kick = on_kick,
    .on_tackle = on_tackle,
    .on_failed = on_failed,
    .on_collide = on_collide,
    .on_catch = on_catch,
    .on_punch = on_punch,
};

/* ---- analysis after each step ---------------------------------------------------- */
/* who dashed in the step just done (fouls look at the victim's last two cycles) */
static void track_dashes(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        uint32_t n = w->pl[i].sh.count[SHM_CNT_DASH];
        w->ref.dashed_last[i] = n != w->ref.dash_count[i];
        w->ref.dash_count[i] = n;
    }
}

static void referee_rules(sim_world_t *w)
{
    if (!w->ref.enabled)
        return;
    track_dashes(w);
    sim_ref_time_analyse(w);
    sim_ref_stuck_analyse(w);
    sim_ref_offside_analyse(w);
    sim_ref_play_analyse(w);
    sim_ref_touch_analyse(w);
    sim_ref_goalie_analyse(w);
    sim_ref_foul_analyse(w);
    sim_ref_defense_analyse(w);
    sim_ref_penalty_analyse(w);
    sync_toucher(w);
}

void sim_referee_analyse(sim_world_t *w)
{
    referee_rules(w);
    sim_keepaway_analyse(w); /* last, as the reference's keepaway referee */
}
